import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPesos } from '../../src/domain/money';
import { chromiumAvailable, PHONE, seriousViolations, signedIn, startE2E, type E2E } from './browser';

interface Ageing {
  data: { contact_id: number | null; contact: string | null; total: number }[];
}

interface Statement {
  from: string;
  to: string;
  customer: { id: number; name: string };
  data: { resource: string; id: number; kind: string; number: string; balance: number }[];
  closing_balance: number;
}

/** Where the screenshots and the PDFs go, to be looked at (outside the repository). */
const SHOTS = process.env.SCREENSHOTS ?? '/tmp/bodega-statement';
/** A4, in millimetres. */
const A4 = { width: 210, height: 297 };

/** A customer's statement of account in Chromium: from the receivables ageing, on a tablet and a phone, printed and downloaded. */
describe.skipIf(!chromiumAvailable)('statements of account in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const answerOf = <T>(page: Page, path: RegExp) =>
    page
      .waitForResponse((response) => path.test(new URL(response.url()).pathname) && response.ok())
      .then((response) => response.json() as Promise<T>);

  it('follows a customer from the receivables to their statement, whose closing balance is what the ageing says they owe', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const ageing = answerOf<Ageing>(page, /^\/api\/overview\/receivables\/ageing$/);
    await page.goto('/receivables');
    const owed = (await ageing).data.find((row) => row.contact_id !== null && row.contact === 'Bayanihan Cooperative')!;
    expect(owed).toBeDefined();

    const answer = answerOf<Statement>(page, new RegExp(`^/api/contacts/${owed.contact_id}/statement$`));
    const link = page.getByRole('table').getByRole('link', { name: `Statement of account of ${owed.contact}` });
    await link.waitFor();
    await page.screenshot({ path: `${SHOTS}/receivables-tablet.png`, fullPage: true });
    await link.click();
    await page.waitForURL(`**/contacts/${owed.contact_id}/statement`);
    const statement = await answer;
    await page.getByRole('heading', { name: 'Statement of account', level: 1 }).waitFor();

    // Every document of the period is a row, with the balance after it; the closing balance is what the ageing row owes.
    expect(statement.data.length).toBeGreaterThan(0);
    const table = page.getByRole('table');
    for (const row of statement.data) {
      const shown = table.getByRole('row').filter({ has: page.getByRole('link', { name: `${row.kind} ${row.number}`, exact: true }) });
      await shown.getByText(formatPesos(row.balance), { exact: true }).waitFor();
    }
    expect(statement.closing_balance).toBe(owed.total);
    await expect.poll(() => page.getByTestId('closing-balance').textContent()).toBe(formatPesos(owed.total));
    await table
      .getByRole('row', { name: /^Closing balance/ })
      .getByText(formatPesos(owed.total), { exact: true })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/statement-tablet.png`, fullPage: true });

    // The PDF: named for the customer and the period.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`statement-bayanihan-cooperative-${statement.from}-${statement.to}.pdf`);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    writeFileSync(`${SHOTS}/statement-download.pdf`, pdf);

    // Print: the printed copy alone, on A4.
    await page.evaluate(() => {
      window.print = () => document.documentElement.setAttribute('data-printed', '');
    });
    await page.getByRole('button', { name: 'Print' }).click();
    await page.locator('html[data-printed][data-print="a4"]').waitFor({ state: 'attached' });
    await page.emulateMedia({ media: 'print' });
    const printout = page.locator('[data-printout]');
    await printout.getByRole('heading', { name: 'STATEMENT OF ACCOUNT' }).waitFor();
    expect(await printout.innerText()).toContain(formatPesos(owed.total));
    expect(await page.getByRole('button', { name: 'Download PDF' }).isVisible()).toBe(false);
    const printed = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    writeFileSync(`${SHOTS}/statement-printed.pdf`, printed);
    const [box] = [...printed.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/g)];
    expect(Math.round(((Number(box[3]) - Number(box[1])) * 25.4) / 72)).toBe(A4.width);
    expect(Math.round(((Number(box[4]) - Number(box[2])) * 25.4) / 72)).toBe(A4.height);
    await page.emulateMedia({ media: 'screen' });

    // The customer's own view leads to the same statement.
    await page.goto(`/contacts/${owed.contact_id}`);
    await page.getByRole('link', { name: 'Statement of Account' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/contact-tablet.png` });
    await page.getByRole('link', { name: 'Statement of Account' }).click();
    await page.waitForURL(`**/contacts/${owed.contact_id}/statement`);
    await expect.poll(() => page.getByTestId('closing-balance').textContent()).toBe(formatPesos(owed.total));
    await context.close();
  });

  it('shows a phone a card per document, and neither the screen nor its link to whoever may not read every kind of it', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com', PHONE);
    const ageing = answerOf<Ageing>(page, /^\/api\/overview\/receivables\/ageing$/);
    await page.goto('/receivables');
    const owed = (await ageing).data.find((row) => row.contact_id !== null)!;
    const answer = answerOf<Statement>(page, new RegExp(`^/api/contacts/${owed.contact_id}/statement$`));
    const link = page
      .getByRole('list', { name: 'Receivables by customer' })
      .getByRole('link', { name: `Statement of account of ${owed.contact}` });
    await link.waitFor();
    await page.screenshot({ path: `${SHOTS}/receivables-phone.png`, fullPage: true });
    await link.click();
    const statement = await answer;
    const cards = page.getByRole('list', { name: 'Documents' });
    await cards.getByRole('listitem').first().waitFor();
    expect(await cards.getByRole('listitem').count()).toBe(statement.data.length);
    await expect.poll(() => page.getByTestId('closing-balance').textContent()).toBe(formatPesos(owed.total));
    // Nothing is cut off: the page is no wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/statement-phone.png`, fullPage: true });
    await context.close();

    // A cashier views invoices but not credit memoranda: no statement for them.
    const cashier = await signedIn(e2e, 'cashier@example.com', PHONE);
    const theirs = answerOf<Ageing>(cashier.page, /^\/api\/overview\/receivables\/ageing$/);
    await cashier.page.goto('/receivables');
    const seen = await theirs;
    await cashier.page.getByRole('heading', { name: 'Receivables', level: 1 }).waitFor();
    if (seen.data[0]) await cashier.page.getByText(formatPesos(seen.data[0].total), { exact: true }).first().waitFor();
    expect(await cashier.page.getByRole('link', { name: /^Statement of account of/ }).count()).toBe(0);
    await cashier.page.goto(`/contacts/${owed.contact_id}/statement`);
    await cashier.page.getByRole('heading', { name: 'You do not have permission to view this page.' }).waitFor();
    await cashier.context.close();
  });
});
