import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import { chromiumAvailable, PHONE, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * Goods back from a sale, in Chromium on a phone and a tablet: from the invoice's "Return goods",
 * one item comes back damaged and is restocked, the customer refunded part in cash and the rest by
 * GCash; the return is saved, numbered, shows its lines and tenders, and the invoice what came back.
 */
describe.skipIf(!chromiumAvailable).each([
  ['phone', PHONE],
  ['tablet', TABLET],
] as const)('a sales return in Chromium, on a %s', { timeout: 120_000 }, (size, viewport) => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  it('takes one item back from a paid invoice, restocks it and refunds it in cash and GCash', async () => {
    // A sale paid in full (the demo's first round of invoices).
    const invoice = await e2e.app.db
      .selectFrom('invoices')
      .select(['id', 'number', 'warehouse_id'])
      .where('status', '=', 'paid')
      .where('warehouse_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const [sold] = await e2e.app.db
      .selectFrom('document_lines')
      .innerJoin('items', 'items.id', 'document_lines.item_id')
      .select(['document_lines.id', 'document_lines.item_id', 'items.name'])
      .where('document_type', '=', 'invoice')
      .where('document_id', '=', invoice.id)
      .orderBy('position')
      .execute();
    const onHand = async () =>
      Number(
        (
          await e2e.app.db
            .selectFrom('stocks')
            .select('quantity_on_hand')
            .where('item_id', '=', sold.item_id)
            .where('location_type', '=', 'warehouse')
            .where('location_id', '=', invoice.warehouse_id!)
            .executeTakeFirstOrThrow()
        ).quantity_on_hand,
      );
    const before = await onHand();

    const { context, page } = await signedIn(e2e, 'admin@example.com', viewport);
    await page.goto(`/invoices/${invoice.id}`);
    await page.getByRole('link', { name: 'Return goods' }).click();
    await page.getByRole('heading', { name: 'Create Sales Return' }).waitFor();
    await page.getByText('Type how many come back of each line').waitFor();
    await page.locator('#line-0-quantity').fill('1');
    await page.locator('#line-0-reason').selectOption('damaged');
    await page.getByRole('radio', { name: 'Refund' }).check();
    // What one comes back at, with its VAT, as the server will figure it: the refund due.
    const due = (await page.locator('dt:has-text("Refund due") + dd').textContent())!.trim();
    expect(due).toMatch(/^₱[\d,]+\.\d\d$/);
    const pesos = Number(due.replace(/[₱,]/g, ''));
    const cash = Math.floor(pesos / 2);
    await page.locator('#tender-0-amount').fill(String(cash));
    await page.getByRole('button', { name: 'Add tender' }).click();
    await page.locator('#tender-1-method').selectOption('gcash');
    expect(Number(await page.locator('#tender-1-amount').inputValue())).toBeCloseTo(pesos - cash, 2);
    await page.locator('#tender-1-reference').fill('9012345678901');
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-form-${size}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save Sales Return' }).click();

    await page.getByRole('heading', { name: /^Sales Return SRN-/ }).waitFor();
    await page.getByText('Damaged').first().waitFor();
    await page.getByText('Back in stock').first().waitFor();
    // It names the invoice it takes the goods back from, with the invoice's date.
    await page.locator('dt:has-text("Invoice date") + dd').waitFor();
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-view-${size}.png`, fullPage: true });
    const made = await e2e.app.db
      .selectFrom('sales_returns')
      .select(['id', 'total', 'refunded', 'amount', 'settlement'])
      .where('invoice_id', '=', invoice.id)
      // The newest: the demo already took goods back from this sale.
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect({ ...made, total: Number(made.total), refunded: Number(made.refunded), amount: Number(made.amount) }).toMatchObject({
      settlement: 'refund',
      total: Math.round(pesos * 100),
      refunded: Math.round(pesos * 100),
      amount: 0,
    });
    const tenders = await e2e.app.db
      .selectFrom('payment_tenders')
      .select(['method', 'amount'])
      .where('payment_type', '=', 'sales-return')
      .where('payment_id', '=', made.id)
      .orderBy('position')
      .execute();
    expect(tenders.map((tender) => tender.method)).toEqual(['cash', 'gcash']);
    expect(await onHand()).toBe(before + 1000);
    await context.close();
  });
});
