import { mkdirSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInManila } from '../../src/domain/documents';
import { chromiumAvailable, PHONE, signedIn, startE2E, TABLET, type E2E } from './browser';

/** Where the screenshots go, to be looked at (outside the repository). */
const SHOTS = process.env.FLOOR_SHOTS_DIR ?? '/tmp/shots';

/**
 * What the floor sees on a phone and a tablet: an invoice's lines with long item names, whole at
 * 390 px (item, quantity, amount and VAT; the price under the item), and a blind count, counted
 * without what is expected until its counting is finished.
 */
describe.skipIf(!chromiumAvailable)('floor screens in Chromium', { timeout: 240_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  /** The API, as the signed-in user, in the active business. */
  async function api(context: BrowserContext, page: Page) {
    const businessId = String(await page.evaluate(() => localStorage.getItem('business_id')));
    const headers = { 'X-Requested-With': 'XMLHttpRequest', 'Business-ID': businessId };
    return {
      async get(path: string) {
        const answer = await context.request.get(path, { headers });
        expect(answer.status(), path).toBe(200);
        return (await answer.json()).data;
      },
      async send(method: 'POST' | 'PATCH', path: string, data: unknown = {}) {
        const answer = await context.request.fetch(path, { method, data, headers });
        expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
        return (await answer.json()).data;
      },
    };
  }

  /** How far an element reaches past its box sideways (its own scrolling), and past the window. */
  const overflow = (element: Locator) =>
    element.evaluate((node) => ({
      scrolls: node.scrollWidth - node.clientWidth,
      pastWindow: Math.max(0, node.getBoundingClientRect().right - window.innerWidth),
      page: document.documentElement.scrollWidth - window.innerWidth,
    }));
  const nothingCutOff = { scrolls: 0, pastWindow: 0, page: 0 };

  it('shows an invoice’s lines with long item names whole on a phone: item, quantity, amount and VAT', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com', PHONE);
    const rest = await api(context, page);
    const [unit] = await rest.get('/api/unit-of-measurements?limit=1&order_by=asc');
    const [branch] = await rest.get('/api/branches?limit=1&order_by=asc');
    const contactOf = async (type: string) => {
      const [kind] = await rest.get(`/api/contact-types?name=${type}&is_strict=1&limit=1`);
      return (await rest.get(`/api/contacts?contact_type_id=${kind.id}&limit=1&order_by=asc`))[0].id;
    };
    const names = [
      'Lucky Me! Pancit Canton Chilimansi Flavor Instant Noodles Family Pack 6 × 80g',
      'Datu Puti Premium Sukang Iloko Cane Vinegar with Garlic and Chili Refill Pouch 1L',
    ];
    const items = [];
    for (const [at, name] of names.entries()) {
      items.push(
        await rest.send('POST', '/api/items', {
          sku: `LONG-${at}`,
          name,
          unit_of_measurement_id: unit.id,
          vat_category: at === 0 ? 'vatable' : 'exempt',
        }),
      );
    }
    // Received at the branch first: an invoice takes what it sells out of stock there.
    await rest.send('POST', '/api/receive-orders', {
      contact_id: await contactOf('Supplier'),
      branch_id: branch.id,
      date: todayInManila(),
      lines: items.map((item) => ({ item_id: item.id, unit_of_measurement_id: unit.id, quantity: 1200, unit_price: 20 })),
    });
    const invoice = await rest.send('POST', '/api/invoices', {
      contact_id: await contactOf('Customer'),
      branch_id: branch.id,
      date: todayInManila(),
      lines: items.map((item, at) => ({
        item_id: item.id,
        unit_of_measurement_id: unit.id,
        quantity: at === 0 ? 1150 : 3,
        unit_price: at === 0 ? 14.87 : 45.5,
        discount_percent: at === 0 ? 5 : 0,
      })),
    });

    await page.goto(`/invoices/${invoice.id}`);
    const lines = page.getByRole('region', { name: 'Lines' });
    await lines.getByText(names[0]).waitFor();
    const table = lines.locator('[data-slot="table-container"]');
    expect(await overflow(table)).toEqual(nothingCutOff);
    // The four columns a phone keeps, each inside the window; the price and discount under the item.
    const headers = await lines
      .getByRole('columnheader')
      .evaluateAll((cells) =>
        cells
          .filter((cell) => (cell as HTMLElement).offsetParent !== null)
          .map((cell) => ({ name: (cell as HTMLElement).innerText, right: cell.getBoundingClientRect().right })),
      );
    expect(headers.map((header) => header.name)).toEqual(['Item', 'Qty', 'Amount', 'VAT']);
    for (const header of headers) expect(header.right, String(header.name)).toBeLessThanOrEqual(PHONE.width);
    const first = lines.getByRole('row', { name: new RegExp(names[0].slice(0, 20)) });
    await first.getByText('each · 5% off').waitFor();
    const cells = await first
      .getByRole('cell')
      .evaluateAll((shown) =>
        shown.filter((cell) => (cell as HTMLElement).offsetParent !== null).map((cell) => cell.getBoundingClientRect().right),
      );
    expect(cells).toHaveLength(4);
    for (const right of cells) expect(right).toBeLessThanOrEqual(PHONE.width);
    await lines.screenshot({ path: `${SHOTS}/invoice-lines-phone.png` });
    await page.screenshot({ path: `${SHOTS}/invoice-view-phone.png`, fullPage: true });

    // A purchase order keeps its lines whole too, with what was received under each quantity.
    const [order] = await rest.get('/api/purchase-orders?limit=1&order_by=asc');
    await page.goto(`/purchase-orders/${order.id}`);
    await page.getByRole('region', { name: 'Lines' }).getByRole('columnheader', { name: 'Item' }).waitFor();
    expect(await overflow(page.getByRole('region', { name: 'Lines' }).locator('[data-slot="table-container"]'))).toEqual(nothingCutOff);

    // On a tablet every column has room.
    await page.setViewportSize(TABLET);
    await page.goto(`/invoices/${invoice.id}`);
    await lines.getByText(names[0]).waitFor();
    await lines.getByRole('columnheader', { name: 'Unit price' }).waitFor();
    expect(await lines.getByTestId('line-price').first().isVisible()).toBe(false);
    expect(await overflow(table)).toEqual(nothingCutOff);
    await page.screenshot({ path: `${SHOTS}/invoice-view-tablet.png`, fullPage: true });
    await context.close();
  });

  it('counts blind on a phone: no expected or difference until counting is finished, then posts', async () => {
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', PHONE);
    const rest = await api(context, page);

    // Chosen when the count is started.
    await page.goto('/stock-counts/create');
    await expect.poll(() => page.getByLabel(/^Warehouse/).textContent()).toContain('Valenzuela Central');
    await page.getByRole('combobox', { name: /^Items counted/ }).click();
    await page.getByRole('option', { name: 'Every item' }).click();
    await page.getByRole('checkbox', { name: /^Blind count/ }).check();
    await page.getByRole('button', { name: 'Save Stock Count' }).click();
    await page.getByRole('heading', { name: /^Stock Count SC-/ }).waitFor();
    const countId = Number(new URL(page.url()).pathname.split('/').pop());
    const [item] = await rest.get(`/api/items?name=${encodeURIComponent('Datu Puti Soy Sauce 1L')}&is_strict=1&limit=1`);
    await rest.send('POST', `/api/stock-counts/${countId}/entries`, { item_id: item.id, quantity: 5 });
    await page.reload();

    const sheet = page.getByRole('region', { name: 'Count', exact: true });
    await sheet
      .getByText(/^1 of \d+ items counted · a blind count: what is expected and what differs show once counting is finished$/)
      .waitFor();
    const headings = () => sheet.getByRole('columnheader').allTextContents();
    expect(await headings()).toEqual(['Item', 'Counted', 'Take off']);
    expect(await sheet.getByRole('option', { name: 'Differences' }).count()).toBe(0);
    expect(await sheet.getByRole('button', { name: /Post count/ }).count()).toBe(0);
    expect(await overflow(sheet.locator('[data-slot="table-container"]'))).toEqual(nothingCutOff);
    await page.screenshot({ path: `${SHOTS}/count-sheet-blind-phone.png` });
    await page.setViewportSize(TABLET);
    await page.screenshot({ path: `${SHOTS}/count-sheet-blind-tablet.png` });
    expect(await headings()).toEqual(['Item', 'Counted', 'Take off']);

    // Finished: what was expected and what differs show, then it is posted.
    await sheet.getByRole('button', { name: 'Finish counting' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Finish Counting' }).click();
    await page.getByText('Counting finished: its differences show, and it can be posted.').first().waitFor();
    await sheet.getByRole('columnheader', { name: 'Difference' }).waitFor();
    expect(await headings()).toEqual(['Item', 'Expected', 'Moved since', 'On hand', 'Counted', 'Difference', 'Value']);
    await page.screenshot({ path: `${SHOTS}/count-sheet-counted-tablet.png` });
    await page.setViewportSize(PHONE);
    expect(await overflow(sheet.locator('[data-slot="table-container"]'))).toEqual(nothingCutOff);
    await page.screenshot({ path: `${SHOTS}/count-sheet-counted-phone.png` });
    await sheet.getByRole('button', { name: /Post count/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Post Stock Count' }).click();
    await page.getByText('Stock count posted: its differences are in a stock adjustment.').first().waitFor();
    expect((await rest.get(`/api/stock-counts/${countId}`)).status).toBe('posted');
    await context.close();
  });
});
