import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPesos } from '../../src/domain/money';
import { PERMISSION_PREFIXES, permissionName } from '../../src/domain/permissions';
import { chromiumAvailable, PASSWORD, PHONE, seriousViolations, signedIn, startE2E, TABLET, type E2E } from './browser';

interface Unpaid {
  data: { total: number; count: number; aging: { bucket: string; amount: number; count: number }[] };
}

const CARDS = [
  'Sales and purchases',
  'Receivables',
  'Payables',
  'Stock value',
  'Top items by sales',
  'Low stock',
  'Recent documents',
  'Gross margin',
  'Returns by reason',
];

/** The overview dashboard in Chromium: every card for the admin, only the permitted ones for others. */
describe.skipIf(!chromiumAvailable)('overview in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  /** Every API answer the page gets, to prove it never asks for what it may not see. */
  function apiAnswers(page: Page): Response[] {
    const answers: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/')) answers.push(response);
    });
    return answers;
  }

  const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
  /**
   * The next answer of a card, read as it arrives: the page open before a navigation may still be
   * loading the same card, and its answer has no body once the page is left, so that one is passed over.
   */
  const overviewAnswer = async (page: Page, card: string) => {
    let body: unknown;
    await page.waitForResponse(async (response) => {
      if (new URL(response.url()).pathname !== `/api/overview/${card}` || !response.ok()) return false;
      try {
        body = await response.json();
        return true;
      } catch {
        return false;
      }
    });
    return { json: async () => body };
  };

  it('shows the admin every card, with charts and the server’s figures, and keeps the period in the URL', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const answers = apiAnswers(page);
    const salesAnswer = overviewAnswer(page, 'sales-purchases');
    const receivablesAnswer = overviewAnswer(page, 'receivables');
    const payablesAnswer = overviewAnswer(page, 'payables');
    const stockAnswer = overviewAnswer(page, 'stock-value');
    await page.goto('/overview');
    await page.getByRole('heading', { name: 'Magandang araw, Administrator' }).waitFor();
    for (const title of CARDS) await card(page, title).waitFor();

    const sales = (await (await salesAnswer).json()) as { data: unknown[]; totals: { sales: number; purchases: number } };
    expect(sales.data).toHaveLength(30);
    // The demo business sold and bought within the last 30 days.
    expect(sales.totals.sales).toBeGreaterThan(0);
    expect(sales.totals.purchases).toBeGreaterThan(0);
    const salesCard = card(page, 'Sales and purchases');
    await salesCard.locator('dd').getByText(formatPesos(sales.totals.sales), { exact: true }).waitFor();
    await salesCard.locator('dd').getByText(formatPesos(sales.totals.purchases), { exact: true }).waitFor();
    // Both series drawn: a bar per day and series, the empty days' bars of zero height.
    await salesCard.locator('[data-chart-bar]:visible').first().waitFor();
    expect(await salesCard.locator('[data-chart-bar="sales"]').count()).toBe(30);
    expect(await salesCard.locator('[data-chart-bar="purchases"]').count()).toBe(30);
    // Screen readers get the same figures as a table: one row a day.
    expect(await salesCard.locator('table tbody tr').count()).toBe(30);

    for (const [title, answer, noun] of [
      ['Receivables', receivablesAnswer, 'invoice'],
      ['Payables', payablesAnswer, 'bill'],
    ] as const) {
      const unpaid = ((await (await answer).json()) as Unpaid).data;
      expect(unpaid.count).toBeGreaterThan(0);
      // The buckets split the whole total between them.
      expect(unpaid.aging.reduce((sum, bucket) => sum + Math.round(bucket.amount * 100), 0)).toBe(Math.round(unpaid.total * 100));
      // The total heads the card; a bucket holding all of it shows the same figure below.
      await card(page, title).getByText(formatPesos(unpaid.total), { exact: true }).first().waitFor();
      await card(page, title).getByText(`on ${unpaid.count} unpaid ${noun}s`).waitFor();
    }
    const oldestInvoice = card(page, 'Receivables').getByRole('listitem').first().getByRole('link');
    expect(await oldestInvoice.getAttribute('href')).toMatch(/^\/invoices\/\d+$/);
    // Each side's card leads to its ageing by party.
    expect(await card(page, 'Receivables').getByRole('link', { name: 'By customer' }).getAttribute('href')).toBe('/receivables');
    expect(await card(page, 'Payables').getByRole('link', { name: 'By supplier' }).getAttribute('href')).toBe('/payables');

    for (const title of ['Stock value', 'Top items by sales']) {
      await card(page, title).locator('[data-chart-bar]:visible').first().waitFor();
      expect(await card(page, title).locator('table tbody tr').count()).toBeGreaterThan(0);
    }
    const stock = (await (await stockAnswer).json()) as { data: unknown[]; total: number };
    expect(stock.total).toBeGreaterThan(0);
    await card(page, 'Stock value').getByText(formatPesos(stock.total), { exact: true }).first().waitFor();
    expect(await card(page, 'Stock value').locator('table tbody tr').count()).toBe(stock.data.length);

    const restock = card(page, 'Low stock')
      .getByRole('link', { name: /^(Request stock|Order): / })
      .first();
    // Saving what it starts opens the new document: nothing leads back here.
    expect(await restock.getAttribute('href')).toMatch(/^\/(stock-requests|purchase-orders)\/create\?restock=\d+$/);
    const recent = card(page, 'Recent documents').getByRole('link').first();
    expect(await recent.getAttribute('href')).toMatch(/^\/[a-z-]+\/\d+$/);

    expect(await seriousViolations(page)).toEqual([]);

    const monthly = page.waitForResponse((response) => response.url().includes('interval=month') && response.ok());
    await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Last 12 months' }).click();
    await page.waitForURL(/\/overview\?period=12m$/);
    await monthly;
    await card(page, 'Sales and purchases').getByText('Last 12 months', { exact: true }).waitFor();
    await expect.poll(() => salesCard.locator('table tbody tr').count()).toBe(12);
    await expect(page.getByRole('button', { name: 'Last 12 months' }).getAttribute('aria-pressed')).resolves.toBe('true');

    // Opened from a link, the period holds. This last week the demo business only sold over the
    // Makati counter, to a senior citizen: her medicine and the rice VAT-exempt, the soap VATable.
    const weekAnswer = overviewAnswer(page, 'sales-purchases');
    await page.goto('/overview?period=7d');
    const week = (await (await weekAnswer).json()) as { totals: { sales: number; purchases: number }; vat: { sales: unknown } };
    expect(week.totals).toEqual({ sales: 498.8, purchases: 0 });
    expect(week.vat.sales).toEqual({ vatable_sales: 90, exempt_sales: 398, zero_rated_sales: 0, vat_total: 10.8 });
    await salesCard.locator('dd').getByText('VATable ₱90.00 · exempt ₱398.00 · VAT ₱10.80', { exact: true }).waitFor();
    await card(page, 'Top items by sales').getByRole('rowheader', { name: 'Dinorado Rice 1kg' }).waitFor();
    await expect(page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).resolves.toBe('true');

    expect(answers.filter((answer) => answer.status() >= 400).map((answer) => `${answer.status()} ${answer.url()}`)).toEqual([]);
    await context.close();
  });

  interface LowStockRow {
    location_type: string;
    item: string;
    location: string;
    quantity_on_hand: number;
    reorder_level: number;
    open_request: { id: number; number: string } | null;
  }

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as const) {
    it(`lets branch staff request a low stock on a ${device}, opens the request, and then shows it in place of a second one`, async () => {
      const { context, page } = await signedIn(e2e, 'branch@example.com', viewport);
      const lowAnswer = overviewAnswer(page, 'low-stock');
      await page.goto('/overview');
      const low = ((await (await lowAnswer).json()) as { data: LowStockRow[] }).data;
      // Their branch's stocks only; one nobody has asked for yet (the other device's run asked for one).
      expect(new Set(low.map((row) => row.location))).toEqual(new Set(['Makati']));
      const stock = low.find((row) => row.open_request === null);
      if (!stock) throw new Error('The demo data has no low stock at Makati left to request');

      await card(page, 'Low stock')
        .getByRole('link', { name: `Request stock: ${stock.item} at ${stock.location}` })
        .click();
      await page.waitForURL(/\/stock-requests\/create\?restock=\d+$/);
      await page.getByText(`To restock ${stock.item} at ${stock.location}`).waitFor();
      // Their one branch, said rather than asked; the item and what brings it to twice its reorder level.
      await expect.poll(() => page.getByLabel(/^To location/).textContent()).toContain('Makati');
      await expect(page.getByRole('combobox', { name: 'Item' }).inputValue()).resolves.toBe(stock.item);
      await expect(page.getByLabel('Quantity').inputValue()).resolves.toBe(String(2 * stock.reorder_level - stock.quantity_on_hand));

      // Where from is the requester's to say; saving opens the request, numbered.
      await page.getByRole('combobox', { name: /^From\s*\*?$/ }).click();
      await page.getByRole('option', { name: 'Warehouse', exact: true }).press('Enter');
      await page.getByRole('combobox', { name: 'From location' }).fill('Valenzuela');
      await page.getByRole('option', { name: 'Valenzuela Central' }).click();
      await page.getByRole('button', { name: 'Save Stock Request' }).click();
      await page.waitForURL(/\/stock-requests\/\d+$/);
      const requestPath = new URL(page.url()).pathname;
      const heading = page.getByRole('heading', { name: /^Stock Request SR-\d{8}-W\d{5}-\d{8}$/ });
      await heading.waitFor();
      const number = (await heading.textContent())!.replace(/^Stock Request /, '');
      await page.getByText('Stock Request created successfully.').waitFor();

      // Back on the overview, the stock shows its request, and no second one is offered.
      await page.goto('/overview');
      const requested = card(page, 'Low stock').getByRole('link', { name: `Requested — ${number}: ${stock.item} at ${stock.location}` });
      await requested.waitFor();
      expect(
        await card(page, 'Low stock')
          .getByRole('link', { name: `Request stock: ${stock.item} at ${stock.location}` })
          .count(),
      ).toBe(0);
      expect(await requested.getAttribute('href')).toBe(requestPath);

      // The list says where the goods come from and which branch asks, within the screen.
      await page.goto('/stock-requests');
      if (viewport.width < 768) {
        const request = page
          .getByRole('region', { name: /^List of Stock Requests/ })
          .getByRole('listitem')
          .filter({ hasText: number });
        expect(await request.textContent()).toMatch(/Valenzuela Central\s*→\s*(to\s*)?Makati/);
      } else {
        const row = page.locator('tbody tr', { hasText: number });
        const from = row.getByRole('cell', { name: 'Valenzuela Central', exact: true });
        const to = row.getByRole('cell', { name: 'Makati', exact: true });
        await to.waitFor();
        const [fromBox, toBox] = [await from.boundingBox(), await to.boundingBox()];
        expect(fromBox!.x).toBeLessThan(toBox!.x);
        expect(toBox!.x + toBox!.width).toBeLessThanOrEqual(viewport.width);
      }
      await context.close();
    });

    it(`offers warehouse staff on a ${device} no request for a branch's stock`, async () => {
      const { context, page } = await signedIn(e2e, 'warehouse@example.com', viewport);
      const lowAnswer = overviewAnswer(page, 'low-stock');
      await page.goto('/overview');
      const low = ((await (await lowAnswer).json()) as { data: LowStockRow[] }).data;
      // They view the branches, so the branches' low stocks show to them …
      expect(low.some((row) => row.location_type === 'branch')).toBe(true);
      await card(page, 'Low stock').getByRole('link', { name: 'All stocks' }).waitFor();
      await card(page, 'Low stock').getByRole('link').nth(1).waitFor();
      // … but only the branch asks for its stock, and they buy nothing for their warehouse.
      expect(
        await card(page, 'Low stock')
          .getByRole('link', { name: /^(Request stock|Order): / })
          .count(),
      ).toBe(0);
      await context.close();
    });
  }

  it('hides the cards of what a user may not view, and never asks the server for them', async () => {
    const admin = await signedIn(e2e, 'admin@example.com');
    const businessId = await admin.page.evaluate(() => localStorage.getItem('business_id'));
    const headers = { 'X-Requested-With': 'XMLHttpRequest', 'Business-ID': String(businessId) };
    const withheld = ['invoices', 'bills', 'stocks'];
    const names = PERMISSION_PREFIXES.filter((prefix) => !withheld.includes(prefix)).map((prefix) => permissionName('view', prefix));
    const permissionIds = (await e2e.app.db.selectFrom('permissions').select('id').where('name', 'in', names).execute()).map((row) =>
      Number(row.id),
    );
    const role = await admin.context.request.post('/api/roles', { data: { name: 'Viewer without money or stock' }, headers });
    expect(role.status()).toBe(201);
    const roleId = ((await role.json()) as { data: { id: number } }).data.id;
    const assigned = await admin.context.request.put(`/api/roles/${roleId}/permissions`, {
      data: { permission_ids: permissionIds },
      headers,
    });
    expect(assigned.status()).toBe(200);
    const user = await admin.context.request.post('/api/users', {
      data: { name: 'Limited Viewer', email: 'limited@example.com', password: PASSWORD, role_ids: [roleId] },
      headers,
    });
    expect(user.status()).toBe(201);
    await admin.context.close();

    const { context, page } = await signedIn(e2e, 'limited@example.com', PHONE);
    const answers = apiAnswers(page);
    const recentAnswer = overviewAnswer(page, 'recent-documents');
    await page.goto('/overview');
    await card(page, 'Recent documents').waitFor();
    const recent = (await (await recentAnswer).json()) as { data: { resource: string }[] };
    expect(recent.data.length).toBeGreaterThan(0);
    expect(recent.data.filter((document) => withheld.includes(document.resource))).toEqual([]);
    await card(page, 'Recent documents').getByRole('link').first().waitFor();

    for (const title of CARDS.filter((title) => title !== 'Recent documents')) {
      expect(await card(page, title).count(), title).toBe(0);
    }
    expect(await page.getByRole('group', { name: 'Period' }).count()).toBe(0);
    expect(answers.filter((answer) => answer.status() >= 400).map((answer) => `${answer.status()} ${answer.url()}`)).toEqual([]);
    // Which cards were asked for (the page open before the navigation may have asked too, for the same).
    const asked = new Set(answers.map((answer) => new URL(answer.url()).pathname).filter((path) => path.startsWith('/api/overview/')));
    expect([...asked]).toEqual(['/api/overview/recent-documents']);
    await context.close();
  });

  it('shows a cashier the sales without the purchases', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', PHONE);
    const answers = apiAnswers(page);
    await page.goto('/overview');
    const salesCard = card(page, 'Sales');
    await salesCard.locator('[data-chart-bar]:visible').first().waitFor();
    expect(await salesCard.locator('[data-chart-bar="purchases"]').count()).toBe(0);
    expect(await salesCard.getByText('Purchases').count()).toBe(0);
    await card(page, 'Receivables').waitFor();
    await card(page, 'Stock value').waitFor();
    // A cashier may not start a stock request or a purchase order.
    expect(
      await card(page, 'Low stock')
        .getByRole('link', { name: /^(Request stock|Order): / })
        .count(),
    ).toBe(0);
    expect(await card(page, 'Payables').count()).toBe(0);
    // Nor see what the goods cost.
    expect(await card(page, 'Gross margin').count()).toBe(0);
    expect(answers.filter((answer) => answer.status() >= 400).map((answer) => `${answer.status()} ${answer.url()}`)).toEqual([]);
    await context.close();
  });

  /** How many overview answers the signed-in admin's offline store holds. */
  const savedOverviewCards = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const opened = indexedDB.open('bodega-user-1');
          opened.onerror = () => reject(opened.error);
          opened.onsuccess = () => {
            const keys = opened.result.transaction('answers').objectStore('answers').getAllKeys();
            keys.onsuccess = () => {
              resolve(keys.result.filter((key) => String(key).includes('|overview|')).length);
              opened.result.close();
            };
          };
        }),
    );

  it('shows the cards saved on this device when offline, and says from when', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const receivablesAnswer = overviewAnswer(page, 'receivables');
    await page.goto('/overview');
    const receivables = ((await (await receivablesAnswer).json()) as Unpaid).data;
    await card(page, 'Receivables').getByText(formatPesos(receivables.total), { exact: true }).first().waitFor();
    await card(page, 'Sales and purchases').locator('[data-chart-bar]:visible').first().waitFor();
    // Each card's answer is kept as it arrives, the session a moment later; leaving the page
    // before that would lose them.
    await expect.poll(() => savedOverviewCards(page)).toBe(CARDS.length);
    await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));

    await context.setOffline(true);
    await page.goto('/overview');
    await page.getByText(/^Offline — showing data saved at /).waitFor();
    await card(page, 'Receivables').getByText(formatPesos(receivables.total), { exact: true }).first().waitFor();
    await card(page, 'Sales and purchases').locator('[data-chart-bar]:visible').first().waitFor();
    // A period never opened here says so, and the other cards stay.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await card(page, 'Sales and purchases')
      .getByText(/not available offline/)
      .waitFor();
    await card(page, 'Receivables').getByText(formatPesos(receivables.total), { exact: true }).first().waitFor();
    await context.setOffline(false);
    await context.close();
  });
});
