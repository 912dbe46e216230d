import { mkdirSync, writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountInWords } from '../../src/domain/amount-in-words';
import { todayInManila } from '../../src/domain/documents';
import { formatPesos, pesosToCentavos } from '../../src/domain/money';
import { chromiumAvailable, PHONE, seriousViolations, signedIn, startE2E, type E2E } from './browser';

/** Where the screenshots and PDFs go, to be looked at (outside the repository). */
const SHOTS = process.env.PRINT_SHOTS_DIR ?? '/tmp/bodega-print';
/** CSS pixels in a millimetre (96 to the inch). */
const PX_PER_MM = 96 / 25.4;

type ApiRecord = Record<string, unknown> & { id: number; number: string; lines: Record<string, unknown>[] };

/** A document's printed copy, A4 and on an 80 mm receipt, chosen as it prints. */
describe.skipIf(!chromiumAvailable)('printed documents in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

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
      async send(method: 'POST' | 'PATCH', path: string, data: unknown = {}, version?: number) {
        const answer = await context.request.fetch(path, {
          method,
          data,
          headers: { ...headers, ...(version !== undefined && { 'If-Match': `"${version}"` }) },
        });
        expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
        return (await answer.json()).data;
      },
    };
  }

  async function openDocument(page: Page, resource: string, id: number, heading: RegExp) {
    await page.goto(`/${resource}/${id}`);
    await page.getByRole('heading', { name: heading }).waitFor();
    await page.getByRole('button', { name: 'Print A4' }).waitFor();
    // The copy's particulars come with the session's businesses and the document's contact.
    await page.locator('[data-printout]').getByText(/TIN: /).first().waitFor({ state: 'attached' });
  }

  /** Chooses a paper as the user does, the browser's own print dialog left out (nothing could close it here). */
  async function printAs(page: Page, button: 'Print A4' | 'Print receipt (80 mm)') {
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => {
      window.dispatchEvent(new Event('afterprint'));
      document.documentElement.removeAttribute('data-printed');
      window.print = () => document.documentElement.setAttribute('data-printed', '');
    });
    await page.getByRole('button', { name: button }).click();
    // The print is counted by the server first (a reprint says so): the paper comes once it answers.
    await page.locator('html[data-printed]').waitFor({ state: 'attached' });
    await page.emulateMedia({ media: 'print' });
  }

  /** The PDF Chromium prints with the page's own @page size: each page's width and height in mm. */
  async function pdfPages(page: Page, name: string): Promise<{ width: number; height: number }[]> {
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    writeFileSync(`${SHOTS}/${name}.pdf`, pdf);
    return [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/g)].map((box) => ({
      width: ((Number(box[3]) - Number(box[1])) * 25.4) / 72,
      height: ((Number(box[4]) - Number(box[2])) * 25.4) / 72,
    }));
  }

  /** Every amount of money on the copy has two decimals. */
  async function moneyOnPaper(page: Page): Promise<string[]> {
    const text = await page.locator('[data-printout]').innerText();
    return text.match(/-?₱[\d,]+(?:\.\d+)?/g) ?? [];
  }

  /** What the copy must say of an invoice's figures, as the server answered them, on either paper. */
  async function expectFigures(page: Page, invoice: ApiRecord) {
    const printout = page.locator('[data-printout]');
    const text = await printout.innerText();
    await printout.getByRole('heading', { name: 'SALES INVOICE' }).waitFor();
    const number = printout.getByText(invoice.number, { exact: true });
    expect(await number.isVisible()).toBe(true);
    expect(text).toContain(`No. ${invoice.number}`);
    const money = await moneyOnPaper(page);
    expect(money.length).toBeGreaterThan(5);
    for (const amount of money) expect(amount).toMatch(/^-?₱[\d,]+\.\d{2}$/);
    expect(text).toContain(formatPesos(Number(invoice.total)));
    expect(text).toContain(amountInWords(pesosToCentavos(Number(invoice.total))));
    for (const [field, label] of [
      ['vatable_sales', 'VATable sales'],
      ['exempt_sales', 'VAT-exempt sales'],
      ['zero_rated_sales', 'Zero-rated sales'],
      ['vat_total', 'VAT (12%)'],
    ] as const) {
      if (typeof invoice[field] === 'number')
        expect(text).toMatch(
          new RegExp(`${label.replace(/[()]/g, '\\$&')}\\s+${formatPesos(Number(invoice[field])).replace(/[.$]/g, '\\$&')}`),
        );
    }
    expect(text).toMatch(/TOTAL AMOUNT DUE/);
    // Nothing claims what the product is not.
    expect(text).not.toMatch(/accredit|official receipt|PTU|\bATP\b|permit to use/i);
  }

  it('prints an invoice as an A4 page and as an 80 mm receipt, chosen as it prints', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const rest = await api(context, page);
    const [listed] = await rest.get('/api/invoices?per_page=15&order_by=desc&order_by_field_name=number');
    const invoice: ApiRecord = await rest.get(`/api/invoices/${listed.id}`);
    await openDocument(page, 'invoices', invoice.id, /^Invoice I-/);

    // On screen: the lines tagged by VAT category, and the totals laid out as an invoice does.
    const lines = page.getByRole('region', { name: 'Lines' });
    await lines.getByText('VATable sales').waitFor();
    await lines.getByText(/^V: VATable · E: VAT-exempt · Z: Zero-rated/).waitFor();
    await page.screenshot({ path: `${SHOTS}/invoice-tablet.png`, fullPage: true });
    await page.screenshot({ path: `${SHOTS}/invoice-tablet-top.png` });
    await lines.screenshot({ path: `${SHOTS}/invoice-tablet-lines.png` });
    expect(await seriousViolations(page)).toEqual([]);

    // A4: a whole page, the lines in a table, the particulars in two columns.
    await printAs(page, 'Print A4');
    expect(await page.evaluate(() => document.documentElement.dataset.print)).toBe('a4');
    expect(await page.locator('#print-page').textContent()).toContain('size: A4');
    const printout = page.locator('[data-printout]');
    await printout.waitFor();
    // The first print of it is the original; the server counted it.
    expect(await printout.locator('[data-reprint]').count()).toBe(0);
    // Only the copy prints: not the title, the buttons, the details or the screen's lines.
    expect(await page.getByRole('heading', { name: /^Invoice I-/ }).isVisible()).toBe(false);
    expect(await page.getByRole('toolbar', { name: 'Actions' }).isVisible()).toBe(false);
    expect(await lines.isVisible()).toBe(false);
    expect(await printout.locator('table').isVisible()).toBe(true);
    // The receipt's list of lines is hidden (the first list: the payment's tenders are listed after it).
    expect(await printout.locator('ul').first().isVisible()).toBe(false);
    await expectFigures(page, invoice);
    // The number is prominent: large and bold, beside the title.
    const numberStyle = await printout.getByText(invoice.number, { exact: true }).evaluate((element) => ({
      size: parseFloat(getComputedStyle(element).fontSize),
      weight: Number(getComputedStyle(element).fontWeight),
    }));
    expect(numberStyle.size).toBeGreaterThanOrEqual(18);
    expect(numberStyle.weight).toBeGreaterThanOrEqual(700);
    // The customer's particulars — or, sold to a walk-in (the demo's latest sale), blank lines for them — and the document's own, side by side.
    const [customerBox, factsBox] = await Promise.all([
      printout.getByText(/^(Customer|Sold to):/).boundingBox(),
      printout.getByText('Reference number:').boundingBox(),
    ]);
    expect(Math.abs(customerBox!.y - factsBox!.y)).toBeLessThan(4);
    expect(factsBox!.x).toBeGreaterThan(customerBox!.x + 200);
    await page.setViewportSize({ width: Math.round(210 * PX_PER_MM), height: Math.round(297 * PX_PER_MM) });
    await page.screenshot({ path: `${SHOTS}/invoice-a4-print.png`, fullPage: true });
    const a4 = await pdfPages(page, 'invoice-a4');
    expect(a4.length).toBeGreaterThanOrEqual(1);
    expect(a4[0].width).toBeCloseTo(210, 0);
    expect(a4[0].height).toBeCloseTo(297, 0);

    // 80 mm: one narrow column of small type, the page as long as the receipt.
    await page.setViewportSize({ width: 1024, height: 768 });
    await printAs(page, 'Print receipt (80 mm)');
    expect(await page.evaluate(() => document.documentElement.dataset.print)).toBe('receipt');
    // A second print is a reprint, and says so.
    expect(await printout.locator('[data-reprint]').innerText()).toMatch(/^REPRINT\nReprinted /);
    expect((await rest.get(`/api/invoices/${invoice.id}`)).prints).toBe(2);
    const rule = await page.locator('#print-page').textContent();
    const length = Number(rule?.match(/size: 80mm (\d+)mm/)?.[1]);
    expect(length).toBeGreaterThan(60);
    const box = await printout.boundingBox();
    // 80 mm (302 px) less 3 mm margins each side: 74 mm, 280 px.
    expect(Math.abs(box!.width - 74 * PX_PER_MM)).toBeLessThan(2);
    expect(box!.height / PX_PER_MM + 6).toBeLessThanOrEqual(length);
    expect(await printout.locator('table').isVisible()).toBe(false);
    expect(await printout.locator('ul').first().isVisible()).toBe(true);
    const receiptStyle = await printout.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    expect(receiptStyle).toBeGreaterThanOrEqual(10);
    expect(receiptStyle).toBeLessThanOrEqual(12.5);
    expect(await printout.getByRole('heading', { name: 'SALES INVOICE' }).evaluate((element) => getComputedStyle(element).textAlign)).toBe(
      'center',
    );
    await expectFigures(page, invoice);
    // Each line: its item, then quantity × unit price and its amount.
    const first = invoice.lines[0];
    const firstRow = printout.locator('li').first();
    expect(await firstRow.innerText()).toContain(`× ${formatPesos(Number(first.unit_price))}`);
    await page.setViewportSize({ width: Math.round(80 * PX_PER_MM), height: 900 });
    await page.screenshot({ path: `${SHOTS}/invoice-receipt-print.png`, fullPage: true });
    const receipt = await pdfPages(page, 'invoice-receipt');
    expect(receipt).toHaveLength(1);
    expect(receipt[0].width).toBeCloseTo(80, 0);
    expect(Math.round(receipt[0].height)).toBe(length);

    // Once printed, the page is as it was.
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    expect(await page.evaluate(() => document.documentElement.dataset.print)).toBeUndefined();
    expect(await page.locator('#print-page').count()).toBe(0);
    await context.close();

    // A phone sees the same invoice, and the same buttons.
    const phone = await signedIn(e2e, 'admin@example.com', PHONE);
    await openDocument(phone.page, 'invoices', invoice.id, /^Invoice I-/);
    await phone.page.getByRole('button', { name: 'Print receipt (80 mm)' }).waitFor();
    await phone.page.getByRole('region', { name: 'Lines' }).getByText('VATable sales').waitFor();
    await phone.page.screenshot({ path: `${SHOTS}/invoice-phone.png`, fullPage: true });
    await phone.page.screenshot({ path: `${SHOTS}/invoice-phone-top.png` });
    await phone.page.getByRole('region', { name: 'Lines' }).screenshot({ path: `${SHOTS}/invoice-phone-lines.png` });
    await phone.context.close();
  });

  it('prints VOID across a voided invoice, its number kept, on either paper', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const rest = await api(context, page);
    const unpaid: ApiRecord[] = await rest.get('/api/invoices?per_page=15&status=unpaid');
    const voided: ApiRecord = await rest.send('PATCH', `/api/invoices/${unpaid[0].id}/void`);
    expect(voided.status).toBe('void');
    await openDocument(page, 'invoices', voided.id, /^Invoice I-/);
    const printout = page.locator('[data-printout]');
    for (const [button, name] of [
      ['Print A4', 'void-a4'],
      ['Print receipt (80 mm)', 'void-receipt'],
    ] as const) {
      await printAs(page, button);
      expect(await printout.getByText('VOID', { exact: true }).isVisible()).toBe(true);
      expect(await printout.getByText(voided.number, { exact: true }).isVisible()).toBe(true);
      await page.setViewportSize({ width: Math.round((button === 'Print A4' ? 210 : 80) * PX_PER_MM), height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-print.png`, fullPage: true });
      await page.setViewportSize({ width: 1024, height: 768 });
    }
    await context.close();
  });

  it('prints a VAT-inclusive sale to a senior citizen: the VAT taken off, the 20 %, and a line for their signature', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const rest = await api(context, page);
    const businessId = Number(await page.evaluate(() => localStorage.getItem('business_id')));
    const business = await rest.get(`/api/businesses/${businessId}`);
    await rest.send('PATCH', `/api/businesses/${businessId}`, { prices_include_vat: true }, business.version);
    // A sale like the demo's, from its warehouse to its customer: one line a senior's discount applies to, one it does not.
    // The first of several lines (the demo's oldest debts are of one line each).
    let model: ApiRecord | undefined;
    for (const listed of await rest.get('/api/invoices?per_page=15&order_by=asc&order_by_field_name=number')) {
      model = await rest.get(`/api/invoices/${listed.id}`);
      if (model!.lines.length >= 2) break;
    }
    if (!model) throw new Error('No demo invoice of several lines.');
    const [qualifying, other] = model.lines;
    const item = await rest.get(`/api/items/${Number(qualifying.item_id)}`);
    await rest.send('PATCH', `/api/items/${item.id}`, { sc_pwd_discount: true }, item.version);
    const created: ApiRecord = await rest.send('POST', '/api/invoices', {
      contact_id: model.contact_id,
      warehouse_id: model.warehouse_id,
      branch_id: model.branch_id,
      date: model.date,
      buyer_discount: 'senior',
      buyer_discount_name: 'Lola Basyang',
      buyer_discount_id_number: 'OSCA-2026-0042',
      lines: [qualifying, other].map((line) => ({
        item_id: line.item_id,
        unit_of_measurement_id: line.unit_of_measurement_id,
        quantity: 1,
        unit_price: 112,
      })),
    });
    const invoice: ApiRecord = await rest.get(`/api/invoices/${created.id}`);
    expect(invoice.prices_include_vat).toBe(true);
    expect(Number(invoice.sc_pwd_discount)).toBeGreaterThan(0);

    await openDocument(page, 'invoices', invoice.id, /^Invoice I-/);
    await page.getByRole('region', { name: 'Lines' }).getByText('Total sales (VAT inclusive)').waitFor();
    await page.screenshot({ path: `${SHOTS}/sc-invoice-tablet.png`, fullPage: true });
    const printout = page.locator('[data-printout]');
    for (const [button, name] of [
      ['Print A4', 'sc-invoice-a4'],
      ['Print receipt (80 mm)', 'sc-invoice-receipt'],
    ] as const) {
      await printAs(page, button);
      await expectFigures(page, invoice);
      const text = await printout.innerText();
      expect(text).toMatch(
        new RegExp(`Total sales \\(VAT inclusive\\)\\s+${formatPesos(Number(invoice.subtotal)).replace(/[.]/g, '\\.')}`),
      );
      expect(text).toMatch(new RegExp(`Less: VAT\\s+${formatPesos(Number(invoice.less_vat)).replace(/[.]/g, '\\.')}`));
      expect(text).toMatch(
        new RegExp(`Less: SC/PWD discount \\(20%\\)\\s+${formatPesos(Number(invoice.sc_pwd_discount)).replace(/[.]/g, '\\.')}`),
      );
      expect(text).toContain('Senior citizen: Lola Basyang, ID No. OSCA-2026-0042');
      expect(text).toContain('Signature of the senior citizen');
      expect(text).toContain('(SC/PWD)');
      expect(text).toContain('SC/PWD: senior citizen / PWD 20% discount');
      // The qualifying line's amount is what the senior pays for it: net of VAT, less 20 %.
      const scLine = invoice.lines.find((line) => line.sc_pwd === true)!;
      expect(text).toContain(formatPesos(Number(scLine.amount)));
      await page.setViewportSize({ width: Math.round((button === 'Print A4' ? 210 : 80) * PX_PER_MM), height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-print.png`, fullPage: true });
      await page.setViewportSize({ width: 1024, height: 768 });
    }
    await context.close();
  });

  it('prints how a counter sale was paid, when and by which cashier, with blank lines for a walk-in buyer, on either paper', async () => {
    // The branch cashier, on a phone: a sale to the walk-in customer today, paid ₱100.00 in cash and the rest by GCash.
    const { context, page } = await signedIn(e2e, 'cashier@example.com', PHONE);
    const rest = await api(context, page);
    const [counterSale]: ApiRecord[] = await rest.get('/api/invoices?per_page=15&order_by=desc&order_by_field_name=number');
    const walkIn = await rest.get(`/api/contacts/${Number(counterSale.contact_id)}`);
    expect(walkIn.name).toBe('Walk-in customer');
    const soldLines = counterSale.lines.filter((line) => line.vat_category !== null).slice(-2);
    const sold: ApiRecord = await rest.send('POST', '/api/invoices', {
      contact_id: walkIn.id,
      branch_id: counterSale.branch_id,
      date: todayInManila(),
      lines: soldLines.map((line) => ({ item_id: line.item_id, unit_of_measurement_id: line.unit_of_measurement_id, quantity: 2 })),
    });
    const total = Number(sold.total);
    expect(total).toBeGreaterThan(100);
    const gcash = Math.round((total - 100) * 100) / 100;
    const reference = `90123${String(Date.now()).slice(-8)}`;
    const payment = await rest.send('POST', '/api/invoice-payments', {
      invoice_id: sold.id,
      date: todayInManila(),
      tenders: [
        { method: 'cash', amount: 100 },
        { method: 'gcash', amount: gcash, reference },
      ],
    });
    const invoice: ApiRecord = await rest.get(`/api/invoices/${sold.id}`);
    expect(invoice.status).toBe('paid');

    await openDocument(page, 'invoices', invoice.id, /^Invoice I-/);
    const printout = page.locator('[data-printout]');
    for (const [button, name] of [
      ['Print receipt (80 mm)', 'counter-sale-receipt'],
      ['Print A4', 'counter-sale-a4'],
    ] as const) {
      await printAs(page, button);
      // Laid out on the paper's width, as it prints.
      await page.setViewportSize({ width: Math.round((button === 'Print A4' ? 210 : 80) * PX_PER_MM), height: 900 });
      await expectFigures(page, invoice);
      const text = await printout.innerText();
      // How it was paid: the payment's number, then each tender with its reference and amount.
      expect(text).toContain(`Payment ${String(payment.number)}`);
      expect(text).toMatch(new RegExp(`Cash\\s+${formatPesos(100).replace('.', '\\.')}`));
      expect(text).toMatch(new RegExp(`GCash · Ref ${reference}\\s+${formatPesos(gcash).replace('.', '\\.')}`));
      expect(text).not.toContain('Balance due');
      // When, on Manila's clock, and by whom.
      expect(text).toMatch(/Time: \d{1,2}:\d{2}\s[AP]M/);
      expect(text).toContain('Cashier: Branch Cashier');
      // Blank lines for the buyer to be written on, wide enough to write on, in place of "Walk-in customer".
      expect(text).not.toContain('Walk-in customer');
      for (const label of ['Sold to:', 'Address:', 'TIN:']) {
        const blank = printout.locator('p', { has: page.getByText(label, { exact: true }) }).locator('[data-blank]');
        expect(await blank.isVisible(), label).toBe(true);
        const box = await blank.boundingBox();
        expect(box!.width / PX_PER_MM, label).toBeGreaterThan(40);
        expect(await blank.evaluate((element) => getComputedStyle(element).borderBottomStyle)).toBe('solid');
      }
      // The tenders stay within the paper: nothing wider than the copy.
      const copyBox = await printout.boundingBox();
      const paidBox = await printout.getByLabel('Payment', { exact: true }).boundingBox();
      expect(paidBox!.x + paidBox!.width).toBeLessThanOrEqual(copyBox!.x + copyBox!.width + 1);
      await page.screenshot({ path: `${SHOTS}/${name}-print.png`, fullPage: true });
      await page.setViewportSize(PHONE);
    }
    await context.close();

    // A named customer's invoice, paid by GCash: their name, address and TIN as the contact has them, and no blank lines.
    const admin = await signedIn(e2e, 'admin@example.com');
    const adminApi = await api(admin.context, admin.page);
    const paidInvoices: ApiRecord[] = await adminApi.get('/api/invoices?per_page=50&status=paid&order_by=asc&order_by_field_name=number');
    const wholesale = paidInvoices.find((candidate) => candidate.warehouse_id !== null)!;
    const customer = await adminApi.get(`/api/contacts/${Number(wholesale.contact_id)}`);
    await openDocument(admin.page, 'invoices', wholesale.id, /^Invoice I-/);
    await printAs(admin.page, 'Print receipt (80 mm)');
    const named = admin.page.locator('[data-printout]');
    const text = await named.innerText();
    expect(text).toContain(`Customer: ${String(customer.name)}`);
    expect(text).not.toContain('Sold to');
    expect(await named.locator('[data-blank]').count()).toBe(0);
    expect(text).toMatch(/GCash · Ref \d{13}/);
    await admin.context.close();
  });

  it('prints other documents under their own names: an order, a payment, a transfer', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const rest = await api(context, page);
    const printout = page.locator('[data-printout]');
    for (const [resource, heading, title] of [
      ['purchase-orders', /^Purchase Order PO-/, 'PURCHASE ORDER'],
      ['invoice-payments', /^Invoice Payment /, 'INVOICE PAYMENT'],
      ['stock-transfers', /^Stock Transfer /, 'STOCK TRANSFER'],
    ] as const) {
      const [listed] = await rest.get(`/api/${resource}?per_page=15`);
      const document: ApiRecord = await rest.get(`/api/${resource}/${listed.id}`);
      await page.goto(`/${resource}/${document.id}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.getByRole('button', { name: 'Print A4' }).waitFor();
      await printAs(page, resource === 'stock-transfers' ? 'Print A4' : 'Print receipt (80 mm)');
      await printout.getByRole('heading', { name: title }).waitFor();
      expect(await printout.getByText(document.number, { exact: true }).isVisible()).toBe(true);
      for (const amount of await moneyOnPaper(page)) expect(amount).toMatch(/^-?₱[\d,]+\.\d{2}$/);
      const text = await printout.innerText();
      if (resource === 'invoice-payments') {
        expect(text).toMatch(new RegExp(`AMOUNT\\s+${formatPesos(Number(document.amount)).replace('.', '\\.')}`));
        expect(text).toContain(amountInWords(pesosToCentavos(Number(document.amount))));
      }
      if (resource === 'purchase-orders') expect(text).toContain(formatPesos(Number(document.total)));
      if (resource === 'stock-transfers') expect(text).not.toMatch(/₱/);
      expect(text).not.toMatch(/SALES INVOICE|accredit|official receipt|PTU|\bATP\b/i);
      const wide = resource === 'stock-transfers' ? 210 : 80;
      await page.setViewportSize({ width: Math.round(wide * PX_PER_MM), height: 900 });
      await page.screenshot({ path: `${SHOTS}/${resource}-${wide === 80 ? 'receipt' : 'a4'}-print.png`, fullPage: true });
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.emulateMedia({ media: 'screen' });
    }
    await context.close();
  });
  it('prints a return on an 80 mm receipt as its memorandum, naming the invoice or bill it comes from', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const rest = await api(context, page);
    const printout = page.locator('[data-printout]');
    // The demo's return of a paid sale; and goods sent back from a bill still owed, made here.
    const [sold] = await rest.get('/api/sales-returns?per_page=15');
    const [owing] = await rest.get('/api/bills?per_page=15&status=unpaid');
    const bill: ApiRecord = await rest.get(`/api/bills/${owing.id}`);
    const sent: ApiRecord = await rest.send('POST', '/api/purchase-returns', {
      bill_id: bill.id,
      date: todayInManila(),
      settlement: 'credit',
      lines: [{ source_line_id: bill.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'from_stock' }],
    });
    for (const [resource, id, heading, title, source, total] of [
      ['sales-returns', sold.id, /^Sales Return SRN-/, 'CREDIT MEMORANDUM', 'Invoice', 'TOTAL AMOUNT CREDITED'],
      ['purchase-returns', sent.id, /^Purchase Return PRN-/, 'DEBIT MEMORANDUM', 'Bill', 'TOTAL AMOUNT DEBITED'],
    ] as const) {
      const document: ApiRecord = await rest.get(`/api/${resource}/${id}`);
      await page.goto(`/${resource}/${id}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.locator('[data-printout]').getByText(/TIN: /).first().waitFor({ state: 'attached' });
      await printAs(page, 'Print receipt (80 mm)');
      await printout.getByRole('heading', { name: title }).waitFor();
      expect(await printout.getByText(document.number, { exact: true }).isVisible()).toBe(true);
      const text = await printout.innerText();
      // The original document, by number and date, as a memorandum names it.
      const sourceField = resource === 'sales-returns' ? 'invoice' : 'bill';
      expect(text).toMatch(new RegExp(`${source}:\\s+${String((document[sourceField] as { display?: string } | null)?.display)}\\n`));
      expect(text).toMatch(new RegExp(`${source} date:`));
      // Each line says why it came back or went back.
      expect(text).toMatch(/ · (Damaged|Wrong item|Expired|Changed mind|Over-delivered|Other)/);
      expect(text).toMatch(new RegExp(`${total}\\s+${formatPesos(Number(document.total)).replace(/[.$]/g, '\\$&')}`));
      for (const amount of await moneyOnPaper(page)) expect(amount).toMatch(/^-?₱[\d,]+\.\d{2}$/);
      expect(text).not.toMatch(/SALES INVOICE|TOTAL AMOUNT DUE|accredit|official receipt|PTU|\bATP\b/i);
      // One narrow column, one page as long as the memorandum.
      const box = await printout.boundingBox();
      expect(Math.abs(box!.width - 74 * PX_PER_MM)).toBeLessThan(2);
      await page.setViewportSize({ width: Math.round(80 * PX_PER_MM), height: 900 });
      await page.screenshot({ path: `${SHOTS}/${resource}-receipt-print.png`, fullPage: true });
      const pages = await pdfPages(page, `${resource}-receipt`);
      expect(pages).toHaveLength(1);
      expect(pages[0].width).toBeCloseTo(80, 0);
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.emulateMedia({ media: 'screen' });
    }
    await context.close();
  });
});
