import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, signedIn, startE2E, type E2E } from './browser';

/**
 * A record's history in a real browser: an edit made offline reaches the server from the
 * outbox, and the item's History tells who changed what, from what to what, and that it was
 * made offline.
 */
describe.skipIf(!chromiumAvailable)('the history of a record', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('shows an edit made offline, with its old and new value, once it is sent', async () => {
    const db = e2e.app.db;
    const item = await db.selectFrom('items').select(['id', 'name']).where('business_id', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    // The service worker in control and the item seen once, so its edit screen opens offline.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));
    await page.goto(`/items/${item.id}/edit`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    await page.goto(`/items/${item.id}`);
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('Created').waitFor();

    await context.setOffline(true);
    await page.goto(`/items/${item.id}/edit`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Tuna Flakes Typed Offline');
    await page.getByRole('button', { name: 'Update Item' }).click();
    await page.getByText('Saved on this device. It will be sent when the connection returns.').first().waitFor();

    // Counted first, so the wait for none below waits for the replay.
    await page.getByRole('link', { name: 'Pending changes: 1' }).waitFor();
    await context.setOffline(false);
    await page.getByRole('link', { name: 'Pending changes: 0' }).waitFor();
    const stored = await db
      .selectFrom('activity_log')
      .select(['action', 'made_offline'])
      .where('resource', '=', 'items')
      .where('record_id', '=', item.id)
      .execute();
    expect(stored.map((entry) => [entry.action, Boolean(entry.made_offline)])).toEqual([
      ['created', false],
      ['updated', true],
    ]);

    await page.goto(`/items/${item.id}`);
    const update = history.getByRole('listitem').filter({ hasText: 'Updated' }).first();
    await update.waitFor();
    await update.getByText(`Name: ${item.name} → Tuna Flakes Typed Offline`).waitFor();
    await update.getByText(/Made offline at/).waitFor();
    expect(await update.getByText('by Administrator').count()).toBe(1);
    await context.close();
  });
});
