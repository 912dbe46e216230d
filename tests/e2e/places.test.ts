import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, PHONE, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * The demo users' places, end to end: the Makati cashier sees only Makati in every list, card and
 * export; warehouse staff cannot adjust at a branch; branch staff cannot ask for stock for
 * another branch — through the screens, and the server refusing what a screen would not offer.
 */
describe.skipIf(!chromiumAvailable).each([
  ['phone', PHONE],
  ['tablet', TABLET],
] as const)('places hold in Chromium, on a %s', { timeout: 180_000 }, (_size, viewport) => {
  let e2e: E2E;
  let makati: number;

  beforeAll(async () => {
    e2e = await startE2E();
    makati = Number((await e2e.app.db.selectFrom('branches').select('id').where('name', '=', 'Makati').executeTakeFirstOrThrow()).id);
  });
  afterAll(() => e2e?.close());

  it('shows the Makati cashier only Makati: invoices, stock, the overview and a CSV export', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', viewport);
    const db = e2e.app.db;
    const businessId = Number(await page.evaluate(() => localStorage.getItem('business_id')));
    const count = async (table: 'invoices' | 'stocks', where: (query: any) => any) =>
      Number(
        (
          await where(db.selectFrom(table).where('business_id', '=', businessId))
            .select(db.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const everywhere = await count('invoices', (query) => query.where('deleted_at', 'is', null));
    const atMakati = await count('invoices', (query) => query.where('deleted_at', 'is', null).where('branch_id', '=', makati));
    expect(everywhere).toBeGreaterThan(atMakati);

    // The invoices list: its caption counts Makati's invoices only.
    await page.goto('/invoices');
    await page.getByText(`List of Invoices - Total ${atMakati}`, { exact: true }).first().waitFor({ state: 'attached' });

    // The stock list: every row at Makati.
    const stockAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/stocks' && response.ok());
    await page.goto('/stocks');
    const stocks = (await (await stockAnswer).json()).data as { location_type: string; location_id: number }[];
    expect(stocks.length).toBeGreaterThan(0);
    expect(stocks.every((row) => row.location_type === 'branch' && row.location_id === makati)).toBe(true);
    await expect(page.getByText('Quezon City').count()).resolves.toBe(0);
    await expect(page.getByText('Valenzuela Central').count()).resolves.toBe(0);

    // The overview's stock value: Makati's line alone.
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Stock value', exact: true });
    await card.locator('table tbody tr').first().waitFor();
    expect(await card.locator('table tbody tr').count()).toBe(1);
    await card.getByText('Makati').first().waitFor();

    // A CSV export of the invoices list: Makati's rows only.
    await page.goto('/invoices');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split(/\r?\n/)
      .slice(1);
    expect(rows).toHaveLength(atMakati);
    await context.close();
  });

  /** What the app's own request would answer, sent from the signed-in page. */
  const post = (page: Page, path: string, body: unknown) =>
    page.evaluate(
      async ({ path, body }) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-requested-with': 'XMLHttpRequest',
            'business-id': localStorage.getItem('business_id') ?? '',
          },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      },
      { path, body },
    );

  it('offers warehouse staff no branch for an adjustment, and the server refuses one', async () => {
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', viewport);
    await page.goto('/stock-adjustments/create');
    await expect.poll(() => page.getByLabel(/^Warehouse/).textContent()).toContain('Valenzuela Central');
    await expect(page.getByRole('combobox', { name: /^Branch/ }).count()).resolves.toBe(0);
    const item = await e2e.app.db.selectFrom('items').select(['id', 'unit_of_measurement_id']).orderBy('id').executeTakeFirstOrThrow();
    const refused = await post(page, '/api/stock-adjustments', {
      branch_id: makati,
      date: '2026-11-24',
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, reason: 'found' }],
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    await context.close();
  });

  it('asks for stock for branch staff’s own branch only', async () => {
    const { context, page } = await signedIn(e2e, 'branch@example.com', viewport);
    await page.goto('/stock-requests/create');
    await expect.poll(() => page.getByLabel(/^To location/).textContent()).toContain('Makati');
    await expect(page.getByRole('combobox', { name: /^To location/ }).count()).resolves.toBe(0);
    // Asked of any warehouse, though they work at none.
    await page.getByRole('combobox', { name: /^From\s*\*?$/ }).click();
    await page.getByRole('option', { name: 'Warehouse', exact: true }).press('Enter');
    await page.getByRole('combobox', { name: /^From location/ }).click();
    await expect.poll(async () => (await page.getByRole('option').allTextContents()).sort()).toEqual(['Mandaue', 'Valenzuela Central']);
    const db = e2e.app.db;
    const quezonCity = await db.selectFrom('branches').select('id').where('name', '=', 'Quezon City').executeTakeFirstOrThrow();
    const central = await db.selectFrom('warehouses').select('id').where('name', '=', 'Valenzuela Central').executeTakeFirstOrThrow();
    const item = await db.selectFrom('items').select(['id', 'unit_of_measurement_id']).orderBy('id').executeTakeFirstOrThrow();
    const refused = await post(page, '/api/stock-requests', {
      from_location_type: 'warehouse',
      from_location_id: central.id,
      to_location_type: 'branch',
      to_location_id: quezonCity.id,
      date: '2026-11-24',
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1 }],
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.message).toContain('Quezon City');
    await context.close();
  });
});
