import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxOf } from '../support/xlsx';
import { chromiumAvailable, signedIn, startE2E, type E2E } from './browser';

/**
 * A shop's first day: the stock already on its shelves, brought in from an Excel workbook. A row
 * the app cannot place stops the import with its reason and writes nothing; corrected, the import
 * posts the opening balances, and the stocks list shows them.
 */
describe.skipIf(!chromiumAvailable)('imports in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const workbook = (rows: (string | number)[][]) => ({
    name: 'opening-stock.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(xlsxOf([['Item SKU', 'Warehouse or branch', 'Quantity', 'Unit cost', 'Selling Price'], ...rows])),
  });

  it('imports opening stock from an .xlsx, and /stocks shows it', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/imports?kind=opening-stock');
    const file = page.getByLabel(/^File/);

    // A workbook with an item the business does not have: nothing is imported, and the row says why.
    await file.setInputFiles(
      workbook([
        ['ALS-CND', 'Mandaue', 24, 42.5, 55],
        ['NO-SUCH', 'Mandaue', 5, 1, 2],
      ]),
    );
    await page.getByRole('heading', { name: 'Columns of opening-stock.xlsx · 2 rows' }).waitFor();
    expect(await page.getByLabel('Quantity (required)').inputValue()).not.toBe('');
    // A column no field takes is named before anything is imported, not dropped without a word.
    await page.getByText('Not imported (no column of opening stock takes them): Selling Price.').waitFor();
    // Read, the chooser is emptied: the same file corrected under the same name is read again when chosen again.
    expect(await file.inputValue()).toBe('');
    await page.getByRole('button', { name: 'Check 2 rows' }).click();
    await page.getByRole('heading', { name: '1 row of 2 to correct before anything is imported' }).waitFor();
    await page.getByRole('cell', { name: 'Item SKU: no item has the SKU “NO-SUCH”.' }).waitFor();
    expect(await page.getByRole('button', { name: /^Import/ }).count()).toBe(0);

    // Corrected: checked, imported, and posted in one stock adjustment.
    await file.setInputFiles(
      workbook([
        ['ALS-CND', 'Mandaue', 24, 42.5, 55],
        ['DP-SOY', 'Mandaue', 12, 38, 45],
      ]),
    );
    await page.getByRole('button', { name: 'Check 2 rows' }).click();
    await page.getByText('Ready: 2 new opening balances, 0 updates, 0 rows skipped as already here.').waitFor();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await page.getByRole('heading', { name: 'Imported' }).waitFor();
    await page.getByRole('link', { name: /^stock adjustment SA-/ }).waitFor();

    await page.goto('/stocks?per_page=100');
    await page.getByText(/^List of Stocks - Total \d+/).waitFor();
    const row = (item: string) => page.locator('tbody tr', { hasText: item }).filter({ hasText: 'Mandaue' }).first();
    // On hand, with the Reorder mark where it is at or under the item's reorder level.
    await row('Alaska Condensed Milk 300ml').getByRole('cell', { name: /^24\b/ }).waitFor();
    await row('Datu Puti Soy Sauce 1L').getByRole('cell', { name: /^12\b/ }).waitFor();
    await context.close();
  });
});
