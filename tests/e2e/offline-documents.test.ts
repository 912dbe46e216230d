import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, readyForOffline, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * A cashier selling with the network gone: the invoice made offline reads like a synced one, the
 * pending changes say what each is, and one the server refuses on sync is corrected and sent.
 */
describe.skipIf(!chromiumAvailable)('offline documents in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  async function pick(page: Page, label: string | RegExp, typed: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label }).first().fill(typed);
    await page.getByRole('option', { name: option }).first().click();
  }
  const invoicesOf = (contactName: string) =>
    e2e.app.db
      .selectFrom('invoices')
      .innerJoin('contacts', 'contacts.id', 'invoices.contact_id')
      .select(['invoices.id', 'invoices.total'])
      .where('contacts.name', '=', contactName)
      .execute();

  it('reads, lists and corrects an invoice made offline, and sends it once', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', TABLET);
    await readyForOffline(page);
    const customer = 'Carinderia ni Mang Tomas';
    const before = (await invoicesOf(customer)).length;

    // Online, one sale: the customer, the item, its price list and its stock are kept on the device.
    await page.goto('/invoices/create');
    await pick(page, /^Customer/, 'Carinderia', customer);
    await pick(page, 'Item', 'Beef Noodles', /Beef Noodles/);
    await page.getByText('The total counts the lines priced so far.').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save Invoice' }).click();
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();

    // Offline, a sale of more than the branch has: the line says so, and it is kept to send.
    await context.setOffline(true);
    await page.goto('/invoices/create');
    await pick(page, /^Customer/, 'Carinderia', customer);
    await pick(page, 'Item', 'Beef Noodles', /Beef Noodles/);
    await page.getByLabel('Quantity').fill('30');
    await page.getByText(/Not enough Lucky Me! Beef Noodles 55g \(LM-BLG\) in stock at Makati/).waitFor();
    // 30 × ₱12 = ₱360, less the 5 % break at 24 = ₱342, plus 12 % VAT
    await expect.poll(() => page.getByTestId('document-total').textContent()).toBe('₱383.04');
    await page.getByRole('button', { name: 'Save Invoice' }).click();

    // Its screen names the customer and branch, lists the line and totals it, and — its number final,
    // from the block of numbers the device holds — offers Print.
    await page.getByText('Created on this device').waitFor();
    await page.getByText(customer).first().waitFor();
    await page.getByText('Makati').first().waitFor();
    await page.getByRole('cell', { name: /Lucky Me! Beef Noodles 55g/ }).waitFor();
    expect(await page.getByTestId('document-total').textContent()).toBe('₱383.04');
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Print A4' }).count()).toBe(1);

    // Pending changes says what the change is.
    await page.goto('/pending-changes');
    const card = page.getByRole('article', { name: /Create Invoice/ });
    await card.getByText(`${customer} · Makati · 1 line · ₱383.04`).waitFor();

    // Back online, the server refuses it: not enough stock. It is corrected from its card and sent.
    await context.setOffline(false);
    await card.getByText('Needs attention').waitFor({ timeout: 30_000 });
    await card
      .getByText(/Not enough Lucky Me! Beef Noodles 55g/)
      .first()
      .waitFor();
    await card.getByRole('button', { name: 'Edit and retry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit and retry' });
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Item', exact: true }).inputValue()).toBe('Lucky Me! Beef Noodles 55g');
    expect(await dialog.getByLabel('Quantity').inputValue()).toBe('30');
    await dialog.getByLabel('Quantity').fill('2');
    await dialog.getByRole('button', { name: 'Save and retry' }).click();
    await page.getByText('Nothing is waiting').waitFor({ timeout: 30_000 });

    const after = await invoicesOf(customer);
    expect(after.length).toBe(before + 2);
    // ₱24 plus VAT: the corrected one, once.
    expect(after.filter((invoice) => invoice.total === 2688)).toHaveLength(1);
    await context.close();
  });

  it('keeps every keystroke typed into a picker right after tapping it, offline', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', TABLET);
    await readyForOffline(page);
    await page.goto('/invoices/create');
    // Found once online, so its record is kept on the device; not picked: a picked line would be
    // kept as the form's draft, and the form would open again with it.
    await page.getByRole('combobox', { name: 'Item', exact: true }).fill('Beef Noodles');
    await page
      .getByRole('option', { name: /Beef Noodles/ })
      .first()
      .waitFor();
    await context.setOffline(true);
    await page.goto('/invoices/create');
    const box = page.getByRole('combobox', { name: 'Item', exact: true });
    await box.waitFor();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await box.click();
      await page.keyboard.type('beef noodles');
      expect(await box.inputValue(), `attempt ${attempt + 1}`).toBe('beef noodles');
      // Its kept record is found offline, by any part of its name.
      await page.getByRole('option', { name: /Lucky Me! Beef Noodles 55g/ }).waitFor();
      await box.fill('');
      await page.getByRole('heading', { name: 'Create Invoice' }).click();
    }
    await context.close();
  });
});
