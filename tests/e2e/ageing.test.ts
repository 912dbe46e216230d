import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGEING_BUCKETS } from '../../src/domain/ageing';
import { formatPesos } from '../../src/domain/money';
import { chromiumAvailable, PHONE, seriousViolations, signedIn, startE2E, type E2E } from './browser';

interface Ageing {
  data: { contact: string | null; total: number }[];
  totals: { buckets: Record<string, number>; total: number; count: number };
}

const SCREENSHOTS = process.env.SCREENSHOTS;

/** Receivables and payables by days past due, in Chromium: reached from the overview, kept to a place, taken away as CSV. */
describe.skipIf(!chromiumAvailable)('receivables and payables ageing in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const ageingAnswer = (page: Page, side: string, query = '') =>
    page
      .waitForResponse((response) => {
        const url = new URL(response.url());
        return url.pathname === `/api/overview/${side}/ageing` && url.search === query && response.ok();
      })
      .then((response) => response.json() as Promise<Ageing>);

  it('opens from the receivables card, shows each customer and the totals, keeps a branch in the URL and exports it', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/overview');
    const answer = ageingAnswer(page, 'receivables');
    await page.getByRole('region', { name: 'Receivables', exact: true }).getByRole('link', { name: 'By customer' }).click();
    await page.waitForURL('**/receivables');
    const all = await answer;
    await page.getByRole('heading', { name: 'Receivables', level: 1 }).waitFor();
    expect(all.totals.count).toBeGreaterThan(0);
    const table = page.getByRole('table');
    for (const { label } of AGEING_BUCKETS) await table.getByRole('columnheader', { name: label }).waitFor();
    const first = all.data[0];
    const row = table.getByRole('row').filter({ hasText: first.contact ?? 'No customer' });
    await row.getByText(formatPesos(first.total), { exact: true }).waitFor();
    await table
      .getByRole('row', { name: /^Total/ })
      .getByText(formatPesos(all.totals.total), { exact: true })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/receivables-tablet.png`, fullPage: true });

    // One place: the URL names it, so a reload keeps it.
    await page.getByLabel('Place').click();
    const place = page.getByRole('option').nth(1);
    const placeName = (await place.textContent())!;
    const placed = page.waitForResponse(
      (response) =>
        /^\/api\/overview\/receivables\/ageing$/.test(new URL(response.url()).pathname) && new URL(response.url()).search !== '',
    );
    await place.click();
    const query = new URL((await placed).url()).search;
    expect(query).toMatch(/^\?(branch|warehouse)_id=\d+$/);
    await page.waitForURL(`**/receivables${query}`);
    const atPlace = (await (await placed).json()) as Ageing;
    const reloaded = ageingAnswer(page, 'receivables', query);
    await page.reload();
    expect((await reloaded).totals).toEqual(atPlace.totals);
    await expect.poll(() => page.getByLabel('Place').textContent()).toBe(placeName);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^receivables-ageing-${query.slice(1).replace('_id=', '-')}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('\uFEFFCustomer,Current,1–30 days,31–60 days,61–90 days,Over 90 days,Total,Unpaid invoices,Oldest due');
    expect(csv.at(-2)).toMatch(new RegExp(`^Total,.*,${atPlace.totals.total.toFixed(2)},${atPlace.totals.count},$`));

    // A customer's name opens their invoices at that place, the longest due first.
    const customer = atPlace.data.find((row) => row.contact !== null);
    if (customer) {
      await table.getByRole('link', { name: customer.contact!, exact: true }).click();
      await page.waitForURL(/\/invoices\?/);
      const search = new URL(page.url()).searchParams;
      expect(search.get('contact_id')).toMatch(/^\d+$/);
      expect(`?${query.slice(1)}`).toBe(
        `?${[...search]
          .filter(([name]) => name.endsWith('_id') && name !== 'contact_id')
          .map(([n, v]) => `${n}=${v}`)
          .join('&')}`,
      );
      expect(search.get('order_by_field_name')).toBe('due_date');
      await page.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
      await page.getByRole('cell', { name: customer.contact!, exact: true }).first().waitFor();
    }
    await context.close();
  });

  it('shows a phone a card per supplier, and hides the screen from whoever may not view bills', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com', PHONE);
    const answer = ageingAnswer(page, 'payables');
    await page.goto('/payables');
    const payables = await answer;
    await page.getByRole('heading', { name: 'Payables', level: 1 }).waitFor();
    const cards = page.getByRole('list', { name: 'Payables by supplier' });
    if (payables.data.length > 0) {
      await cards
        .getByRole('link', { name: new RegExp(formatPesos(payables.data[0].total).replace(/[.$]/g, '\\$&')) })
        .first()
        .waitFor();
    } else {
      await cards.getByText('No unpaid bills.').waitFor();
    }
    // Nothing is cut off: the page is no wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/payables-phone.png`, fullPage: true });
    await context.close();

    const cashier = await signedIn(e2e, 'cashier@example.com', PHONE);
    await cashier.page.goto('/payables');
    await cashier.page.getByRole('heading', { name: 'You do not have permission to view this page.' }).waitFor();
    await cashier.context.close();
  });
});
