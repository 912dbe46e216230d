import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * Nothing half-made is lost (src/client/lib/drafts.ts, components/crud/form-draft.tsx): an
 * invoice being filled survives a reload as a draft on the device, and leaving it asks first.
 */
describe.skipIf(!chromiumAvailable)('form drafts in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  async function pick(page: Page, label: string | RegExp, typed: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label }).first().fill(typed);
    await page.getByRole('option', { name: option }).first().click();
  }

  /** The drafts kept in the signed-in user's database, read with IndexedDB itself (not the app's code). */
  function draftsOnDevice(page: Page, userId: number): Promise<{ key: string; value: { values: Record<string, unknown> } }[]> {
    return page.evaluate(async (name) => {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        if (!database.objectStoreNames.contains('drafts')) return [];
        return await new Promise((resolve, reject) => {
          const request = database.transaction('drafts').objectStore('drafts').getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      } finally {
        database.close();
      }
    }, `bodega-user-${userId}`);
  }

  it('keeps a half-made invoice through a reload, and asks before a link leaves it', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', TABLET);
    const cashier = await e2e.app.db.selectFrom('users').select('id').where('email', '=', 'cashier@example.com').executeTakeFirstOrThrow();
    const customer = 'Carinderia ni Mang Tomas';
    const customerBox = page.getByRole('combobox', { name: /^Customer/ }).first();
    const itemBox = page.getByRole('combobox', { name: 'Item', exact: true });

    await page.goto('/invoices/create');
    await itemBox.waitFor();
    const startingCustomer = await customerBox.inputValue();
    await pick(page, /^Customer/, 'Carinderia', customer);
    await pick(page, 'Item', 'Beef Noodles', /Beef Noodles/);
    await page.getByLabel('Quantity').fill('3');
    // Kept a moment after the last change.
    await expect
      .poll(
        async () => (await draftsOnDevice(page, cashier.id)).find((draft) => draft.key.endsWith('|invoices/create'))?.value.values.lines,
      )
      .toMatchObject([{ quantity: '3', item_name: expect.stringMatching(/Beef Noodles/) }]);

    // Closing or reloading the tab asks first (the browser's own question); reloaded, the draft is back, names and all.
    expect(await page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(true);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await page
      .getByRole('status')
      .filter({ hasText: /^Restored your unsaved draft from \d{1,2}:\d{2}/ })
      .waitFor();
    await expect.poll(() => customerBox.inputValue()).toBe(customer);
    expect(await itemBox.inputValue()).toMatch(/Beef Noodles/);
    expect(await page.getByLabel('Quantity').inputValue()).toBe('3');

    // A link away asks; Stay keeps the form as it is.
    const overview = page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Overview', exact: true });
    const question = page.getByRole('alertdialog', { name: 'Leave this form?' });
    await overview.click();
    await question.getByText('Your changes are kept as a draft on this device.').waitFor();
    await question.getByRole('button', { name: 'Stay' }).click();
    await question.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/invoices/create');
    expect(await customerBox.inputValue()).toBe(customer);

    // Discard changes leaves, and drops the draft: the form opens again empty.
    await overview.click();
    await question.getByRole('button', { name: 'Discard changes' }).click();
    await page.waitForURL('**/overview');
    await expect.poll(async () => (await draftsOnDevice(page, cashier.id)).map((draft) => draft.key)).toEqual([]);
    await page.goto('/invoices/create');
    await itemBox.waitFor();
    expect(await customerBox.inputValue()).toBe(startingCustomer);
    expect(await itemBox.inputValue()).toBe('');
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /^Restored your unsaved draft/ })
        .count(),
    ).toBe(0);
    await context.close();
  });
});
