import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPesos } from '../../src/domain/money';
import type { MarginsReport, StockValueReport } from '../../src/domain/reports';
import { chromiumAvailable, PHONE, seriousViolations, signedIn, startE2E, type E2E } from './browser';

const SCREENSHOTS = process.env.SCREENSHOTS;

/** The reports on what goods cost, in Chromium: the stock value and the gross margin, on a tablet and a phone, taken away as CSV. */
describe.skipIf(!chromiumAvailable)('reports in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  /** The next answer of `/api/reports/{report}` whose query says `where` (every name and value in it). */
  const reportAnswer = <T>(page: Page, report: string, where: Record<string, string> = {}) =>
    page
      .waitForResponse((response) => {
        const url = new URL(response.url());
        return (
          url.pathname === `/api/reports/${report}` &&
          response.ok() &&
          Object.entries(where).every(([name, value]) => url.searchParams.get(name) === value)
        );
      })
      .then((response) => response.json() as Promise<T>);

  it('opens from the sidebar: the stock value by place and item (as CSV and PDF), then the gross margin by place and by item (as CSV)', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const stockAnswer = reportAnswer<StockValueReport>(page, 'stock-value');
    await page.getByRole('navigation', { name: 'Sections' }).first().getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL('**/reports');
    const stock = await stockAnswer;
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

    // The demo business holds goods: every place's total, the grand total, and the first page of rows.
    expect(stock.data.length).toBeGreaterThan(0);
    expect(stock.places.length).toBeGreaterThan(0);
    for (const place of stock.places) {
      const figure = page.locator('dl > div').filter({ has: page.getByRole('term').getByText(place.name, { exact: true }) });
      await figure.getByText(formatPesos(place.value), { exact: true }).waitFor();
    }
    await expect.poll(() => page.getByTestId('stock-value-total').textContent()).toBe(formatPesos(stock.total));
    const table = page.getByRole('table');
    for (const header of ['Item code', 'Item', 'Place', 'Quantity', 'Unit cost', 'Value'])
      await table.getByRole('columnheader', { name: header, exact: true }).waitFor();
    const first = stock.data[0];
    const row = table.getByRole('row').filter({ hasText: first.item }).filter({ hasText: first.location }).first();
    await row.getByText(formatPesos(first.value), { exact: true }).waitFor();
    await row.getByText(first.sku, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/reports-stock-value-tablet.png`, fullPage: true });

    // The inventory list as CSV, of the day shown.
    const [inventory] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(inventory.suggestedFilename()).toBe(`inventory-list-${stock.date}.csv`);
    const list = readFileSync(await inventory.path(), 'utf8');
    expect(list.startsWith('\uFEFF')).toBe(true);
    expect(list).toContain(first.sku);

    // And as the printable inventory list: a PDF of the same day.
    const [printable] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Inventory list (PDF)' }).click(),
    ]);
    expect(printable.suggestedFilename()).toBe(`inventory-list-${stock.date}.pdf`);
    expect(
      readFileSync(await printable.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    // Last year's December 31st, in one tap: the address keeps the day.
    const yearEnd = `${Number(stock.date.slice(0, 4)) - 1}-12-31`;
    const yearEndAnswer = reportAnswer<StockValueReport>(page, 'stock-value', { date: yearEnd });
    await page.getByRole('button', { name: /^As of Dec 31, / }).click();
    expect((await yearEndAnswer).date).toBe(yearEnd);
    await page.waitForURL(`**/reports?date=${yearEnd}`);

    // The gross margin of the last 30 days, by place.
    const marginsAnswer = reportAnswer<MarginsReport>(page, 'margins', { by: 'place' });
    await page.getByRole('group', { name: 'Report' }).getByRole('button', { name: 'Gross margin' }).click();
    const margins = await marginsAnswer;
    expect(margins.data.length).toBeGreaterThan(0);
    await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Last 30 days', pressed: true }).waitFor();
    await table.getByRole('columnheader', { name: 'Place', exact: true }).waitFor();
    await table
      .getByRole('row', { name: /^Total/ })
      .getByText(formatPesos(margins.total.margin), { exact: true })
      .waitFor();
    await expect.poll(() => page.getByTestId('margin-total').textContent()).toBe(formatPesos(margins.total.margin));

    // By item: each item with its code, the same total.
    const byItemAnswer = reportAnswer<MarginsReport>(page, 'margins', { by: 'item' });
    await page.getByRole('group', { name: 'Group by' }).getByRole('button', { name: 'Item', exact: true }).click();
    const byItem = await byItemAnswer;
    await page.waitForURL(/\/reports\?.*by=item/);
    await page.getByRole('group', { name: 'Group by' }).getByRole('button', { name: 'Item', exact: true, pressed: true }).waitFor();
    expect(byItem.total).toEqual(margins.total);
    await table.getByRole('columnheader', { name: 'Item code' }).waitFor();
    const top = byItem.data[0];
    const itemRow = table.getByRole('row').filter({ hasText: top.name }).first();
    await itemRow.getByText(top.code!, { exact: true }).waitFor();
    await itemRow.getByText(formatPesos(top.margin), { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/reports-margins-tablet.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`margins-by-item-${byItem.from}-to-${byItem.to}.csv`);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain(top.code!);
    expect(csv).toContain(top.margin.toFixed(2));
    await context.close();
  });

  it('shows a phone a card per row, and neither the link nor the screen to whoever may not see costs', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com', PHONE);
    const stockAnswer = reportAnswer<StockValueReport>(page, 'stock-value');
    await page.goto('/reports');
    const stock = await stockAnswer;
    const cards = page.getByRole('list', { name: 'Goods on hand' });
    await cards.getByRole('listitem').first().waitFor();
    expect(await cards.getByRole('listitem').count()).toBe(stock.data.length);
    // Nothing is cut off: the page is no wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/reports-stock-value-phone.png`, fullPage: true });

    const marginsAnswer = reportAnswer<MarginsReport>(page, 'margins');
    await page.goto('/reports?report=margins');
    const margins = await marginsAnswer;
    const groups = page.getByRole('list', { name: 'Gross margin by place' });
    await groups.getByRole('listitem').first().waitFor();
    expect(await groups.getByRole('listitem').count()).toBe(margins.data.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/reports-margins-phone.png`, fullPage: true });
    await context.close();

    // A cashier sells but does not see costs: no link, and the screen says so.
    const cashier = await signedIn(e2e, 'cashier@example.com');
    const links = await cashier.page.getByRole('navigation', { name: 'Sections' }).first().locator('a').allInnerTexts();
    expect(links.map((text) => text.trim())).not.toContain('Reports');
    await cashier.page.goto('/reports');
    await cashier.page.getByRole('heading', { name: 'You do not have permission to view this page.' }).waitFor();
    await cashier.context.close();
  });
});
