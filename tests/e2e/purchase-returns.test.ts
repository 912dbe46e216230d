import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import { chromiumAvailable, PHONE, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * Goods sent back to a supplier, in Chromium on a tablet and a phone, by the purchasing clerk: from
 * a bill still owed, "Return goods", one unit goes back damaged out of the warehouse's stock and
 * is taken off the bill; the return is saved, numbered, names the bill and its date, its copy
 * prints as the DEBIT MEMORANDUM, and the bill owes that much less.
 */
describe.skipIf(!chromiumAvailable).each([
  ['tablet', TABLET],
  ['phone', PHONE],
] as const)('a purchase return in Chromium, on a %s', { timeout: 120_000 }, (size, viewport) => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  it('sends one unit back from a bill, out of stock, and takes it off the bill', async () => {
    const db = e2e.app.db;
    const bill = await db
      .selectFrom('bills')
      .select(['id', 'number', 'balance', 'warehouse_id'])
      .where('status', 'in', ['unpaid', 'partially_paid'])
      .where('warehouse_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const line = await db
      .selectFrom('document_lines')
      .select(['item_id'])
      .where('document_type', '=', 'bill')
      .where('document_id', '=', bill.id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    const onHand = async () =>
      Number(
        (
          await db
            .selectFrom('stocks')
            .select('quantity_on_hand')
            .where('item_id', '=', line.item_id)
            .where('location_type', '=', 'warehouse')
            .where('location_id', '=', bill.warehouse_id!)
            .executeTakeFirstOrThrow()
        ).quantity_on_hand,
      );
    const before = await onHand();

    const { context, page } = await signedIn(e2e, 'purchasing@example.com', viewport);
    await page.goto(`/bills/${bill.id}`);
    await page.getByRole('link', { name: 'Return goods' }).click();
    await page.getByRole('heading', { name: 'Create Purchase Return' }).waitFor();
    await page.getByText('Type how many go back of each line').waitFor();
    await page.locator('#line-0-quantity').fill('1');
    await page.locator('#line-0-reason').selectOption('damaged');
    expect(await page.locator('#line-0-disposition').inputValue()).toBe('from_stock');
    expect(await page.getByRole('radio', { name: 'Off the bill' }).isChecked()).toBe(true);
    const total = (await page.locator('dt:has-text("Total amount debited") + dd').first().textContent())!.trim();
    expect(total).toMatch(/^₱[\d,]+\.\d\d$/);
    await page.getByText(`${total} comes off what is still owed to the supplier on the bill.`).waitFor();
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/purchase-return-form-${size}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save Purchase Return' }).click();

    await page.getByRole('heading', { name: /^Purchase Return PRN-/ }).waitFor();
    await page.getByText('From stock').first().waitFor();
    await page.locator('dt:has-text("Bill date") + dd').waitFor();
    await page.locator('[data-printout]').getByText('DEBIT MEMORANDUM', { exact: true }).waitFor({ state: 'attached' });
    await page.locator('[data-printout]').getByText(bill.number).first().waitFor({ state: 'attached' });
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/purchase-return-view-${size}.png`, fullPage: true });

    const made = await db
      .selectFrom('purchase_returns')
      .select(['total', 'amount', 'settlement'])
      .where('bill_id', '=', bill.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const centavos = Math.round(Number(total.replace(/[₱,]/g, '')) * 100);
    expect({ total: Number(made.total), amount: Number(made.amount), settlement: made.settlement }).toEqual({
      total: centavos,
      amount: centavos,
      settlement: 'credit',
    });
    const after = await db.selectFrom('bills').select('balance').where('id', '=', bill.id).executeTakeFirstOrThrow();
    expect(Number(after.balance)).toBe(Number(bill.balance) - centavos);
    expect(await onHand()).toBe(before - 1000);
    await context.close();
  });
});
