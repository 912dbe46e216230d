import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptOnDevice, type Kept } from '../support/kept-on-device';
import { chromiumAvailable, readyForOffline, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * What a device keeps follows the user's places (src/client/lib/kept-places.ts): once a branch is
 * taken from the cashier, the next start removes what the device kept of it, and the change they
 * queued there offline stays in Pending changes with the reason — never sent to be refused.
 */

describe.skipIf(!chromiumAvailable)('a device follows the user’s places, in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const idOf = async (table: 'branches' | 'users', column: 'name' | 'email', value: string) =>
    Number((await e2e.app.db.selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()).id);

  it('removes the kept invoices of a branch taken from the cashier, and keeps their change there unsent, with the reason', async () => {
    const admin = await signedIn(e2e, 'admin@example.com', TABLET);
    const businessId = Number(await admin.page.evaluate(() => localStorage.getItem('business_id')));
    const headers = { 'X-Requested-With': 'XMLHttpRequest', 'Business-ID': String(businessId) };
    const cashierId = await idOf('users', 'email', 'cashier@example.com');
    const makati = await idOf('branches', 'name', 'Makati');
    const quezonCity = await idOf('branches', 'name', 'Quezon City');
    // The cashier's branches, where they work the first.
    const givePlaces = async (branches: number[]) => {
      const grants = branches.map((id) => ({ type: 'branch', id, level: 'operate' }));
      const answer = await admin.context.request.patch(`/api/users/${cashierId}`, {
        data: { places: { all: null, grants }, userable_type: 'branch', userable_id: branches[0] },
        headers,
      });
      expect(answer.status(), await answer.text()).toBe(200);
    };
    // The cashier sells at Makati and Quezon City.
    await givePlaces([makati, quezonCity]);

    const { context, page } = await signedIn(e2e, 'cashier@example.com', TABLET);
    await readyForOffline(page);
    // The overview names the branches its figures are of.
    await page.goto('/');
    await page.getByText(/ · Makati, Quezon City$/).waitFor();
    // Seen online: the invoices of both branches, a Makati invoice on its own, and the items (of no place).
    await page.goto('/invoices');
    await page
      .getByText(/^List of Invoices - Total \d+/)
      .first()
      .waitFor();
    await page.goto('/items');
    await page
      .getByText(/^List of Items - Total \d+/)
      .first()
      .waitFor();
    const invoice = await e2e.app.db
      .selectFrom('invoices')
      .select(['id', 'number', 'notes'])
      .where('business_id', '=', businessId)
      .where('branch_id', '=', makati)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await page.goto(`/invoices/${invoice.id}`);
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    const keptOf = (kept: Kept, resource: string) => kept.records.filter((row) => row.resource === resource);
    // Kept a moment after the screens show them.
    await expect
      .poll(
        async () => {
          const kept = await keptOnDevice(page, cashierId);
          return (
            kept.answers.some((key) => key.startsWith(`${businessId}|invoices|list|`)) &&
            keptOf(kept, 'invoices').some((row) => row.record.id === invoice.id) &&
            keptOf(kept, 'items').length > 0
          );
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const before = await keptOnDevice(page, cashierId);
    expect(keptOf(before, 'invoices').some((row) => row.record.branch_id === makati)).toBe(true);

    // Offline, a note on the Makati invoice: kept on the device to send.
    await context.setOffline(true);
    await page.goto(`/invoices/${invoice.id}/edit`);
    await page.getByLabel('Notes').fill('Deliver to the back door');
    await page.getByRole('button', { name: 'Update Invoice' }).click();
    await page.getByText('Saved on this device. It will be sent when the connection returns.').first().waitFor();
    await page.close();

    // Meanwhile Makati is taken from the cashier.
    await givePlaces([quezonCity]);
    await admin.context.close();

    // The cashier opens the app again, online: nothing of the change reaches the server.
    const sent: string[] = [];
    context.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/api/batch') return;
      for (const change of request.postDataJSON().changes as { method: string; path: string }[])
        sent.push(`${change.method} ${change.path}`);
    });
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto('/pending-changes');
    const card = again.getByRole('article', { name: new RegExp(`Invoice ${invoice.number}`) });
    await card.getByText('Needs attention').waitFor({ timeout: 30_000 });
    await card.getByText('You no longer work at Makati, so this change cannot be sent. Copy what you need, then discard it.').waitFor();
    expect(sent).toEqual([]);
    expect((await e2e.app.db.selectFrom('invoices').select('notes').where('id', '=', invoice.id).executeTakeFirstOrThrow()).notes).toBe(
      invoice.notes,
    );

    // What was kept of Makati is gone; Quezon City's invoices and the items stay.
    const after = await keptOnDevice(again, cashierId);
    expect(after.answers.filter((key) => key.startsWith(`${businessId}|invoices|`))).toEqual([]);
    expect(keptOf(after, 'invoices').filter((row) => row.record.branch_id !== quezonCity)).toEqual([]);
    expect(keptOf(after, 'invoices').length).toBe(keptOf(before, 'invoices').filter((row) => row.record.branch_id === quezonCity).length);
    expect(keptOf(after, 'items').length).toBe(keptOf(before, 'items').length);

    // The change stays until the cashier discards it.
    await card.getByRole('button', { name: 'Discard' }).click();
    await again.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
    await again.getByText('Nothing is waiting').waitFor();
    expect(sent).toEqual([]);
    await context.close();
  });
});
