import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { overPaid } from '../../../tests/support/settlement';
import { oneLineAtBranch } from '../../../tests/support/one-line';
import type { Db } from '../db/scope';
import { ledgerDiscrepancies } from './ledger';

/**
 * Sales through the API, on each database: quotation → invoice (stock out, never below zero,
 * even under many invoices at once) → payments, and voids that put goods and money back.
 */
describe.each(databaseKinds)('sales on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let db: Db;
  let customerId: number;
  let branchId: number;
  let item: { id: number; name: string; sku: string; unit_of_measurement_id: number };

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    db = test.app.db;
    customerId = await contactOfType(admin, 'Customer');
    const supplierId = await contactOfType(admin, 'Supplier');
    branchId = (await admin.send('GET', '/api/branches?limit=1&order_by=asc')).body.data[0].id;
    // A new item, so the stock at the branch is known exactly: 10, received here.
    const created = await admin.send('POST', '/api/items', {
      sku: 'SALE-TEST',
      name: 'Test Sardines 155g',
      unit_of_measurement_id: 1,
      vat_category: 'vatable',
    });
    expect(created.status).toBe(201);
    item = created.body.data;
    const received = await admin.send('POST', '/api/receive-orders', oneLineAtBranch(supplierId, branchId, '2026-11-01', item, 10, 20));
    expect(received.status, JSON.stringify(received.body)).toBe(201);
  });
  afterAll(() => test.close());

  afterEach(async () => {
    expect(await ledgerDiscrepancies(db)).toEqual([]);
    const negative = await db.selectFrom('stocks').select('id').where('quantity_on_hand', '<', 0).execute();
    expect(negative).toEqual([]);
    expect(await overPaid(db, 'invoices')).toEqual([]);
  });

  const onHand = async () =>
    (await admin.send('GET', `/api/stocks?item_id=${item.id}&location_type=branch&location_id=${branchId}&is_strict=1`)).body.data[0]
      .quantity_on_hand;
  const invoice = (quantity: number, extra: Record<string, unknown> = {}) =>
    admin.send('POST', '/api/invoices', { ...oneLineAtBranch(customerId, branchId, '2026-11-10', item, quantity, 35), ...extra });

  it('invoices a quotation, takes the goods out of stock, and voiding puts them back', async () => {
    const quotation = await admin.send('POST', '/api/quotations', {
      contact_id: customerId,
      branch_id: branchId,
      date: '2026-11-09',
      valid_until: '2026-11-30',
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 3, unit_price: 35 }],
    });
    expect(quotation.status, JSON.stringify(quotation.body)).toBe(201);
    expect(quotation.body.data.number).toMatch(new RegExp(`^Q-20261109-B${String(branchId).padStart(5, '0')}-\\d{8}$`));
    const before = await onHand();

    const sold = await invoice(3, { quotation_id: quotation.body.data.id });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    // 3 × ₱35 = ₱105, plus 12 % VAT = ₱117.6.
    expect(sold.body.data).toMatchObject({ total: 117.6, balance: 117.6, status: 'unpaid' });
    expect(await onHand()).toBe(before - 3);
    expect((await admin.send('GET', `/api/quotations/${quotation.body.data.id}`)).body.data.status).toBe('invoiced');
    expect((await invoice(1, { quotation_id: quotation.body.data.id })).status).toBe(409);

    expect((await admin.send('PATCH', `/api/invoices/${sold.body.data.id}/void`)).status).toBe(200);
    expect(await onHand()).toBe(before);
    expect((await admin.send('GET', `/api/quotations/${quotation.body.data.id}`)).body.data.status).toBe('open');
  });

  it('refuses to sell more than is on hand, naming the item, and changes nothing', async () => {
    const before = await onHand();
    const branch = (await admin.send('GET', `/api/branches/${branchId}`)).body.data;
    const refused = await invoice(before + 1);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `Not enough ${item.name} (${item.sku}) in stock at ${branch.name}: ${before} on hand, ${before + 1} needed.`,
    );
    expect(await onHand()).toBe(before);
    const invoicesAfter = await admin.send('GET', `/api/invoices?contact_id=${customerId}&is_strict=1&per_page=100`);
    expect(invoicesAfter.body.data.every((row: { total: number }) => row.total !== (before + 1) * 35 * 1.12)).toBe(true);
  });

  it('takes payments up to the balance; an invoice with payments is not voided', async () => {
    const sold = await invoice(1);
    const pay = (amount: number) =>
      admin.send('POST', '/api/invoice-payments', { invoice_id: sold.body.data.id, date: '2026-11-11', amount, payment_method: 'cash' });
    expect((await pay(30)).status).toBe(201);
    expect((await admin.send('GET', `/api/invoices/${sold.body.data.id}`)).body.data).toMatchObject({
      status: 'partially_paid',
      balance: 9.2,
    });
    expect((await pay(9.21)).status).toBe(422);
    expect((await admin.send('PATCH', `/api/invoices/${sold.body.data.id}/void`)).status).toBe(409);
    const rest = await pay(9.2);
    expect(rest.body.data.number).toMatch(/^IP-20261111-B/);
    expect((await admin.send('GET', `/api/invoices/${sold.body.data.id}`)).body.data.status).toBe('paid');
  });

  it('takes a credit memorandum off an invoice’s balance, for a reason, and voiding it puts it back', async () => {
    const sold = (await invoice(1)).body.data; // ₱39.2
    const memo = (amount: number) =>
      admin.send('POST', '/api/credit-memoranda', { invoice_id: sold.id, date: '2026-11-12', amount, reason: 'Dented cans' });
    expect((await memo(40)).status).toBe(422);
    const credited = await memo(9.2);
    expect(credited.status, JSON.stringify(credited.body)).toBe(201);
    expect(credited.body.data).toMatchObject({
      number: expect.stringMatching(/^CM-20261112-B/),
      contact_id: customerId,
      reason: 'Dented cans',
    });
    expect((await admin.send('GET', `/api/invoices/${sold.id}`)).body.data).toMatchObject({
      amount_paid: 0,
      amount_adjusted: 9.2,
      balance: 30,
      status: 'partially_paid',
    });
    expect((await admin.send('PATCH', `/api/invoices/${sold.id}/void`)).status).toBe(409);
    expect((await admin.send('PATCH', `/api/credit-memoranda/${credited.body.data.id}/void`)).status).toBe(200);
    expect((await admin.send('GET', `/api/invoices/${sold.id}`)).body.data).toMatchObject({
      amount_adjusted: 0,
      balance: 39.2,
      status: 'unpaid',
    });
    expect((await admin.send('PATCH', `/api/invoices/${sold.id}/void`)).status).toBe(200);
  });

  it('edits an invoice’s notes and due date, and nothing that moved stock or money', async () => {
    const sold = (await invoice(1)).body.data;
    // A read costs what the sale moved (its answer was given before, and the follow-up comes later).
    const read = (await admin.send('GET', `/api/invoices/${sold.id}`)).body.data;
    const fixed = await admin.send(
      'PATCH',
      `/api/invoices/${sold.id}`,
      { notes: 'Deliver on Monday', due_date: '2026-12-01', date: '2026-01-01', contact_id: customerId + 1, lines: [] },
      { 'if-match': `"${sold.version}"` },
    );
    expect(fixed.status).toBe(422);
    expect(Object.keys(fixed.body.errors).sort()).toEqual(['contact_id', 'date', 'lines']);
    const edited = await admin.send(
      'PATCH',
      `/api/invoices/${sold.id}`,
      { notes: 'Deliver on Monday', due_date: '2026-12-01' },
      { 'if-match': `"${sold.version}"` },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ notes: 'Deliver on Monday', due_date: '2026-12-01', date: sold.date, contact_id: customerId });
    // Its lines as a read gives them, costs and all.
    expect(edited.body.data.lines).toEqual(read.lines);
    const costless = (lines: Record<string, unknown>[]) => lines.map((line) => ({ ...line, cost: undefined, margin: undefined }));
    expect(costless(edited.body.data.lines)).toEqual(costless(sold.lines));
    expect((await admin.send('PATCH', `/api/quotations/${sold.id}`, { notes: 'x' })).status).toBe(404);
  });

  it('never oversells when many invoices race for the last units, through two server instances', async () => {
    const available = await onHand();
    // On PostgreSQL, half the invoices go through a second server on the same database.
    const twin = kind === 'postgres' ? await test.secondInstance() : undefined;
    const through = twin ? twin.on(admin) : admin;
    const answers = await Promise.all(
      Array.from({ length: available + 4 }, (_, index) =>
        (index % 2 === 0 ? admin : through).send('POST', '/api/invoices', oneLineAtBranch(customerId, branchId, '2026-11-10', item, 1, 35)),
      ),
    );
    await twin?.close();
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(available);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
    expect(await onHand()).toBe(0);
    const numbers = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.data.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
