import { describe, expect, it } from 'vitest';
import { startedOnce } from '../../../tests/support/started';
import { created, databaseKinds, newContact, startWithStockAt } from '../../../tests/support/test-app';
import { todayInManila } from '../../domain/documents';

/**
 * Credit on account, on each database: a return settled to the customer's account puts its total
 * there; later invoices are paid out of it with "Account credit" tenders, never more than it holds
 * however many payments race for it; voiding a payment puts its credit back, and a return whose
 * credit was spent is voided only once those payments are. A refund is money, never account credit.
 */
describe.each(databaseKinds)('credit on account on %s', (kind) => {
  const today = todayInManila();
  /** The first branch, where the kettle is stocked; the customer whose account takes the credit. */
  const world = startedOnce(async () => {
    const start = await startWithStockAt(
      kind,
      'branch',
      { kettle: { sku: 'CRD-1', name: 'Credit Test Kettle', vat_category: 'exempt' } },
      100,
    );
    return { ...start, customerId: await newContact(start.admin, 'Customer', 'Credit Suki') };
  });

  const invoice = (quantity: number, extra: Record<string, unknown> = {}) =>
    created(world.admin, '/api/invoices', {
      contact_id: world.customerId,
      branch_id: world.place.id,
      date: today,
      lines: [{ item_id: world.items.kettle, unit_of_measurement_id: 1, quantity, unit_price: 100 }],
      ...extra,
    });
  const credit = async () => (await world.admin.send('GET', `/api/contacts/${world.customerId}`)).body.data.credit_balance as number;
  const pay = (invoiceId: number, amount: number) =>
    world.admin.send('POST', '/api/invoice-payments', {
      invoice_id: invoiceId,
      date: today,
      tenders: [{ method: 'account_credit', amount }],
    });
  const returnToAccount = async (sold: { id: number; lines: { id: number }[] }, quantity: number) => {
    const answer = await world.admin.send('POST', '/api/sales-returns', {
      invoice_id: sold.id,
      date: today,
      settlement: 'account',
      lines: [{ source_line_id: sold.lines[0].id, quantity, reason: 'changed_mind', disposition: 'restock' }],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data;
  };

  it('keeps a return on the account, pays a later invoice out of it, and gives it back when that payment is voided', async () => {
    const sold = await invoice(3, { payment: { tenders: [{ method: 'cash', amount: 300 }] } });
    const before = await credit();
    const made = await returnToAccount(sold, 2);
    expect(made).toMatchObject({ settlement: 'account', total: 200, amount: 0, refunded: 0 });
    expect(await credit()).toBe(before + 200);
    // The paid invoice is untouched: the money stays with the business, on the customer's account.
    expect((await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data).toMatchObject({ balance: 0, status: 'paid' });

    const later = await invoice(5);
    const more = await pay(later.id, before + 250);
    expect(more.status).toBe(422);
    expect(more.body.errors).toEqual({ tenders: [`Only ₱${(before + 200).toFixed(2)} of credit is on the customer’s account.`] });
    const paid = await world.admin.send('POST', '/api/invoice-payments', {
      invoice_id: later.id,
      date: today,
      tenders: [
        { method: 'account_credit', amount: 150 },
        { method: 'cash', amount: 50 },
      ],
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data).toMatchObject({ amount: 200, payment_method: 'split' });
    expect(await credit()).toBe(before + 50);
    expect((await world.admin.send('GET', `/api/invoices/${later.id}`)).body.data).toMatchObject({
      balance: 300,
      status: 'partially_paid',
    });
    // The statement counts the credit once: when the return gave it, not again when the payment used it.
    const statement = (await world.admin.send('GET', `/api/contacts/${world.customerId}/statement?from=${today}&to=${today}`)).body;
    const credits = (statement.data as { number: string; credit: number }[]).map((row) => [row.number, row.credit]);
    expect(credits).toContainEqual([made.number, 200]);
    expect(credits).toContainEqual([paid.body.data.number, 50]);
    expect(statement.closing_balance).toBe(statement.opening_balance + 300 - 300 - 200 + 500 - 50);

    // The return's credit is spent: it is voided only once the payment that used it is.
    const refused = await world.admin.send('PATCH', `/api/sales-returns/${made.id}/void`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `Sales Return ${made.number} put ₱200.00 on the customer’s account, which holds ₱${(before + 50).toFixed(2)} now: void the payments that used its credit first.`,
    );
    expect((await world.admin.send('PATCH', `/api/invoice-payments/${paid.body.data.id}/void`)).status).toBe(200);
    expect(await credit()).toBe(before + 200);
    expect((await world.admin.send('PATCH', `/api/sales-returns/${made.id}/void`)).status).toBe(200);
    expect(await credit()).toBe(before);
  });

  it('lets only one of eight payments racing for the same credit spend it', async () => {
    const sold = await invoice(1, { payment: { tenders: [{ method: 'cash', amount: 100 }] } });
    await returnToAccount(sold, 1);
    const held = await credit();
    const later = await Promise.all(Array.from({ length: 8 }, () => invoice(1)));
    const answers = await Promise.all(later.map((each) => pay(each.id, held)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    expect(await credit()).toBe(0);
  });

  it('refunds in money only, and refuses a settlement it does not know', async () => {
    const sold = await invoice(1, { payment: { tenders: [{ method: 'cash', amount: 100 }] } });
    const body = {
      invoice_id: sold.id,
      date: today,
      lines: [{ source_line_id: sold.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'restock' }],
    };
    const asCredit = await world.admin.send('POST', '/api/sales-returns', {
      ...body,
      settlement: 'refund',
      tenders: [{ method: 'account_credit', amount: 100 }],
    });
    expect(asCredit.status).toBe(422);
    expect(asCredit.body.errors).toEqual({
      tenders: ['A refund is paid back in money: to keep it on the customer’s account, choose “Credit to the customer’s account”.'],
    });
    // Nobody's account: the walk-in customer's.
    const walkIn = (await world.admin.send('GET', '/api/contacts?name=Walk-in%20customer&is_strict=1')).body.data[0];
    const anyone = await invoice(1, { contact_id: walkIn.id, payment: { tenders: [{ method: 'cash', amount: 100 }] } });
    const kept = await world.admin.send('POST', '/api/sales-returns', {
      ...body,
      invoice_id: anyone.id,
      lines: [{ ...body.lines[0], source_line_id: anyone.lines[0].id }],
      settlement: 'account',
    });
    expect(kept.body.errors).toEqual({
      settlement: ['Walk-in customer is no one in particular, with no account to keep credit on: refund them instead.'],
    });
    const unknown = await world.admin.send('POST', '/api/sales-returns', { ...body, settlement: 'voucher' });
    expect(unknown.body.errors).toEqual({
      settlement: ['The settlement must be credit (credit to the invoice), refund (refund) or account (credit to the customer’s account).'],
    });
  });
});
