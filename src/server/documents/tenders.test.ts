import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, rowCount, startSellingDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { SellingDemo, Session, TestApp } from '../../../tests/support/test-app';
import { auditAfterEach } from '../../../tests/support/audited';
import { oneLineAtBranch } from '../../../tests/support/one-line';
import { formatPesos } from '../../domain/money';
import { BYTE_ORDER_MARK } from '../resources/csv-export';
import type { Db } from '../db/scope';

/**
 * Payments as people pay, on each database: a payment of one or more tenders (cash, GCash, a
 * check …), each with what traces it; its amount what they come to, never more than the balance,
 * even when many race; a body of one amount and method as clients sent it before; voids that keep
 * the tenders; and the tenders of a period taken away as CSV for reconciliation.
 */
describe.each(databaseKinds)('payment tenders on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let db: Db;
  let businesses: [number, number];
  let customer: { id: number; name: string };
  let branchId: number;
  let item: SellingDemo['item'];

  beforeAll(async () => {
    ({ test, admin, businesses, branchId, item } = await startSellingDemo(kind, { sku: 'TENDER-1', name: 'Tender Test Coffee 3-in-1' }));
    db = test.app.db;
    const customerId = await contactOfType(admin, 'Customer');
    customer = (await admin.send('GET', `/api/contacts/${customerId}`)).body.data;
  });
  afterAll(() => test.close());
  auditAfterEach(() => test);

  /** A new unpaid invoice of one unit at `unitPrice` (under ₱1,000: no buyer's particulars asked). */
  const invoice = async (unitPrice = 100): Promise<{ id: number; number: string; total: number; balance: number }> => {
    const sold = await admin.send('POST', '/api/invoices', oneLineAtBranch(customer.id, branchId, '2026-11-10', item, 1, unitPrice));
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    return sold.body.data;
  };
  const pay = (body: Record<string, unknown>) => admin.send('POST', '/api/invoice-payments', { date: '2026-11-11', ...body });
  const invoiceOf = async (id: number) => (await admin.send('GET', `/api/invoices/${id}`)).body.data;
  const rows = async () => ({
    payments: await rowCount(db, 'invoice_payments'),
    tenders: await rowCount(db, 'payment_tenders'),
  });
  /** Pesos to the centavo. */
  const pesos = (value: number) => Math.round(value * 100) / 100;
  const none = { reference: null, bank: null, check_number: null, check_date: null, received: null };

  it('settles an invoice in two tenders, cash and GCash, and reads them back with the payment', async () => {
    const sold = await invoice();
    const cash = Math.floor(sold.total / 2);
    const gcash = pesos(sold.total - cash);
    const paid = await pay({
      invoice_id: sold.id,
      tenders: [
        { method: 'cash', amount: cash },
        { method: 'gcash', amount: gcash, reference: ' 9012345678901 ' },
      ],
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const tenders = [
      { method: 'cash', amount: cash, ...none },
      { method: 'gcash', amount: gcash, ...none, reference: '9012345678901' },
    ];
    expect(paid.body.data).toMatchObject({ amount: sold.total, payment_method: 'split', status: 'posted', tenders });
    expect(await invoiceOf(sold.id)).toMatchObject({ amount_paid: sold.total, balance: 0, status: 'paid' });

    expect((await admin.send('GET', `/api/invoice-payments/${paid.body.data.id}`)).body.data.tenders).toEqual(tenders);
    const listed = await admin.send('GET', `/api/invoice-payments?invoice_id=${sold.id}&payment_method=split`);
    expect(listed.body.data.map((row: { tenders: unknown }) => row.tenders)).toEqual([tenders]);
  });

  it('asks each method for what traces it, refuses what it does not take, and writes nothing', async () => {
    const sold = await invoice();
    const before = await rows();
    const refused = await pay({
      invoice_id: sold.id,
      tenders: [
        { method: 'gcash', amount: 1 },
        { method: 'maya', amount: 1, reference: '  ' },
        { method: 'qrph', amount: 1 },
        { method: 'bank_transfer', amount: 1 },
        { method: 'card', amount: 1 },
        { method: 'cash', amount: 1, reference: 'OR-1' },
        { method: 'bitcoin', amount: 1 },
        { method: 'cash', amount: 0 },
        { method: 'cash', amount: -5 },
        { method: 'cash', amount: 0.001 },
        { amount: 1 },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      'tenders.0.reference': ['The reference number is required for GCash.'],
      'tenders.1.reference': ['The reference number is required for Maya.'],
      'tenders.2.reference': ['The reference number is required for other QR Ph.'],
      'tenders.3.reference': ['The reference number is required for a bank transfer.'],
      'tenders.4.reference': ['The approval code is required for a card.'],
      'tenders.5.reference': ['Cash takes no reference number.'],
      'tenders.6.method': ['The method must be one of: cash, GCash, Maya, other QR Ph, bank transfer, check, card, account credit.'],
      'tenders.7.amount': ['The amount must be greater than 0.'],
      'tenders.8.amount': ['The amount must be greater than 0.'],
      'tenders.9.amount': ['The amount must be greater than 0.'],
      'tenders.10.method': ['The method field is required.'],
    });
    expect((await pay({ invoice_id: sold.id, tenders: [] })).body.errors).toEqual({ tenders: ['A payment needs at least one tender.'] });
    expect((await pay({ invoice_id: sold.id })).body.errors).toEqual({ tenders: ['A payment needs at least one tender.'] });
    expect((await pay({ invoice_id: sold.id, tenders: 'cash' })).body.errors).toEqual({ tenders: ['The tenders field must be a list.'] });
    const many = Array.from({ length: 21 }, () => ({ method: 'cash', amount: 1 }));
    expect((await pay({ invoice_id: sold.id, tenders: many })).body.errors).toEqual({
      tenders: ['A payment can have at most 20 tenders.'],
    });
    expect(await rows()).toEqual(before);
    expect(await invoiceOf(sold.id)).toMatchObject({ amount_paid: 0, balance: sold.total, status: 'unpaid' });
  });

  it('takes a check with its bank, number and date, and nothing less', async () => {
    const sold = await invoice();
    const refused = await pay({ invoice_id: sold.id, tenders: [{ method: 'check', amount: 10, reference: '123' }] });
    expect(refused.body.errors).toEqual({
      'tenders.0.reference': ['A check takes no reference number.'],
      'tenders.0.bank': ['The bank is required for a check.'],
      'tenders.0.check_number': ['The check number is required for a check.'],
      'tenders.0.check_date': ['The check date is required for a check.'],
    });
    const misdated = await pay({
      invoice_id: sold.id,
      tenders: [{ method: 'check', amount: 10, bank: 'BDO', check_number: '0001234', check_date: '2026-02-30' }],
    });
    expect(misdated.body.errors).toEqual({ 'tenders.0.check_date': ['The check date field must be a valid date (YYYY-MM-DD).'] });

    const check = { method: 'check', amount: 10, reference: null, bank: 'BDO', check_number: '0001234', check_date: '2026-11-30' };
    const paid = await pay({ invoice_id: sold.id, tenders: [check] });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data).toMatchObject({ amount: 10, payment_method: 'check', tenders: [check] });
  });

  it('refuses tenders that come to more than the balance, or an amount and method other than theirs', async () => {
    const sold = await invoice();
    const before = await rows();
    const over = await pay({
      invoice_id: sold.id,
      tenders: [
        { method: 'cash', amount: sold.total },
        { method: 'gcash', amount: 0.01, reference: '9012345678902' },
      ],
    });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({
      tenders: [
        `The tenders come to ${formatPesos(pesos(sold.total + 0.01))}, which may not be greater than the invoice’s balance of ${formatPesos(sold.total)}.`,
      ],
    });
    const disagreeing = await pay({ invoice_id: sold.id, amount: 5, payment_method: 'split', tenders: [{ method: 'cash', amount: 4 }] });
    expect(disagreeing.body.errors).toEqual({
      amount: ['The amount must be what the tenders come to, ₱4.00.'],
      payment_method: ['The payment method of these tenders is cash.'],
    });
    expect(await rows()).toEqual(before);
    // Given with them and agreeing, as the form sends them, they are taken.
    const agreeing = await pay({ invoice_id: sold.id, amount: 4, payment_method: 'cash', tenders: [{ method: 'cash', amount: 4 }] });
    expect(agreeing.status, JSON.stringify(agreeing.body)).toBe(201);
  });

  it('takes a body of one amount and method, as clients sent it before tenders, as one tender', async () => {
    const sold = await invoice();
    const cash = await pay({ invoice_id: sold.id, amount: 10, payment_method: 'cash', payment_reference: 'OR-0042' });
    expect(cash.status, JSON.stringify(cash.body)).toBe(201);
    expect(cash.body.data).toMatchObject({
      amount: 10,
      payment_method: 'cash',
      payment_reference: 'OR-0042',
      tenders: [{ method: 'cash', amount: 10, ...none }],
    });
    const gcash = await pay({ invoice_id: sold.id, amount: 5, payment_method: 'gcash', payment_reference: '9012345678903' });
    expect(gcash.body.data.tenders).toEqual([{ method: 'gcash', amount: 5, ...none, reference: '9012345678903' }]);
    // A check's reference is its number; such a body has no bank nor date to give.
    const check = await pay({ invoice_id: sold.id, amount: 5, payment_method: 'check', payment_reference: '0007788' });
    expect(check.body.data.tenders).toEqual([{ method: 'check', amount: 5, ...none, check_number: '0007788' }]);

    const before = await rows();
    expect((await pay({ invoice_id: sold.id, amount: 5, payment_method: 'maya' })).body.errors).toEqual({
      payment_reference: ['The reference number is required for Maya.'],
    });
    expect((await pay({ invoice_id: sold.id, amount: 5, payment_method: 'split' })).body.errors).toEqual({
      payment_method: ['A split tender is sent as its tenders.'],
    });
    expect((await pay({ invoice_id: sold.id, payment_method: 'cash' })).body.errors).toEqual({ amount: ['The amount field is required.'] });
    expect((await pay({ invoice_id: sold.id, amount: 5 })).body.errors).toEqual({
      payment_method: ['The payment method field is required.'],
    });
    expect((await pay({ invoice_id: sold.id, amount: 5, payment_method: 'barter' })).body.errors).toEqual({
      payment_method: ['The selected payment method is invalid.'],
    });
    expect((await pay({ invoice_id: sold.id, amount: 0, payment_method: 'cash' })).body.errors).toEqual({
      amount: ['The amount must be greater than 0.'],
    });
    expect(await rows()).toEqual(before);
    expect(await invoiceOf(sold.id)).toMatchObject({ amount_paid: 20 });
  });

  it('voids a payment: what it paid is owed again, and its tenders are kept as they were', async () => {
    const sold = await invoice();
    const tenders = [
      { method: 'card', amount: 20, ...none, reference: 'APPR-556677' },
      { method: 'qrph', amount: pesos(sold.total - 20), ...none, reference: 'QRPH-000111' },
    ];
    const paid = (await pay({ invoice_id: sold.id, tenders })).body.data;
    expect(await invoiceOf(sold.id)).toMatchObject({ balance: 0, status: 'paid' });
    const voided = await admin.send('PATCH', `/api/invoice-payments/${paid.id}/void`);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.data).toMatchObject({ status: 'void', amount: sold.total, payment_method: 'split', tenders });
    expect(await invoiceOf(sold.id)).toMatchObject({ amount_paid: 0, balance: sold.total, status: 'unpaid' });
    expect((await admin.send('PATCH', `/api/invoice-payments/${paid.id}/void`)).status).toBe(409);
    // Void, it may go to the trash and be deleted for good, its tenders with it.
    expect((await admin.send('DELETE', `/api/invoice-payments/${paid.id}`)).status).toBe(200);
    expect((await admin.send('DELETE', `/api/invoice-payments/${paid.id}/force-delete`)).status).toBe(204);
    const left = await db
      .selectFrom('payment_tenders')
      .select('id')
      .where('payment_type', '=', 'invoice-payment')
      .where('payment_id', '=', paid.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('keeps its tenders, amount and method once made; its own reference and notes may change', async () => {
    const sold = await invoice();
    const paid = (await pay({ invoice_id: sold.id, tenders: [{ method: 'cash', amount: 5 }] })).body.data;
    const fixed = await admin.send('PATCH', `/api/invoice-payments/${paid.id}`, {
      tenders: [{ method: 'cash', amount: 6 }],
      amount: 6,
      payment_method: 'gcash',
    });
    expect(fixed.status).toBe(422);
    expect(fixed.body.errors).toEqual({
      tenders: ['The tenders cannot change once this invoice payment is made.'],
      amount: ['The amount cannot change once this invoice payment is made.'],
      payment_method: ['The payment method cannot change once this invoice payment is made.'],
    });
    const edited = await admin.send('PATCH', `/api/invoice-payments/${paid.id}`, { payment_reference: 'OR-7', notes: 'Counter 2' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ payment_reference: 'OR-7', amount: 5, tenders: [{ method: 'cash', amount: 5, ...none }] });
  });

  it('never overpays when many split payments race for one balance, through two server instances', async () => {
    const sold = await invoice(300);
    // Each a third of all but ₱1 of the balance, to the centavo: three fit, leaving it owing, and the others would overpay.
    const third = Math.floor(((sold.total - 1) * 100) / 3) / 100;
    const cash = Math.floor(third / 2);
    const body = (index: number) => ({
      invoice_id: sold.id,
      tenders: [
        { method: 'cash', amount: cash },
        { method: 'maya', amount: pesos(third - cash), reference: `MAYA-RACE-${index}` },
      ],
    });
    const twin = kind === 'postgres' ? await test.secondInstance() : undefined;
    const through = twin ? twin.on(admin) : admin;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? admin : through).send('POST', '/api/invoice-payments', { date: '2026-11-11', ...body(index) }),
      ),
    );
    await twin?.close();
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 422, 422, 422]);
    expect(await invoiceOf(sold.id)).toMatchObject({ amount_paid: pesos(third * 3), balance: pesos(sold.total - third * 3) });
    const made = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.data.id);
    const kept = await db
      .selectFrom('payment_tenders')
      .select('payment_id')
      .where('payment_type', '=', 'invoice-payment')
      .where('payment_id', 'in', made)
      .execute();
    expect(kept).toHaveLength(6);
  });

  it("comes through the outbox's batch as a create body, applied once however often it is sent", async () => {
    const sold = await invoice();
    const change = {
      method: 'POST',
      path: '/api/invoice-payments',
      body: {
        invoice_id: sold.id,
        date: '2026-11-12',
        amount: sold.total,
        payment_method: 'split',
        tenders: [
          { method: 'cash', amount: 50 },
          { method: 'bank_transfer', amount: pesos(sold.total - 50), reference: 'INSTAPAY-778899' },
        ],
      },
      business_id: businesses[0],
      idempotency_key: `tenders-${kind}`,
    };
    const first = await admin.send('POST', '/api/batch', { changes: [change] });
    const again = await admin.send('POST', '/api/batch', { changes: [change] });
    expect(first.body.data[0].status, JSON.stringify(first.body)).toBe(201);
    expect(again.body.data[0]).toMatchObject({ status: 201, replayed: true });
    expect(again.body.data[0].body.data.id).toBe(first.body.data[0].body.data.id);
    const made = await admin.send('GET', `/api/invoice-payments?invoice_id=${sold.id}`);
    expect(made.body.data).toHaveLength(1);
    expect(made.body.data[0].tenders.map((tender: { method: string }) => tender.method)).toEqual(['cash', 'bank_transfer']);
  });

  it('exports the tenders of a period, one row each, and their totals by day and method', async () => {
    const [a, b, c] = [await invoice(), await invoice(), await invoice()];
    const made = async (body: Record<string, unknown>) => {
      const answer = await pay(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data as { id: number; number: string };
    };
    const first = await made({
      invoice_id: a.id,
      date: '2031-03-01',
      tenders: [
        { method: 'cash', amount: 10, received: 20 },
        { method: 'gcash', amount: 5.5, reference: '9012345678904' },
      ],
    });
    const second = await made({
      invoice_id: b.id,
      date: '2031-03-01',
      tenders: [{ method: 'check', amount: 20, bank: 'Metrobank, Quezon Ave.', check_number: '0000456', check_date: '2031-02-28' }],
    });
    const third = await made({ invoice_id: c.id, date: '2031-03-02', tenders: [{ method: 'maya', amount: 7, reference: '=1+1' }] });
    const cash = await made({ invoice_id: c.id, date: '2031-03-02', tenders: [{ method: 'cash', amount: 3 }] });
    // A voided payment is no money taken in.
    expect((await admin.send('PATCH', `/api/invoice-payments/${cash.id}/void`)).status).toBe(200);
    // Nor is one of another day.
    await made({ invoice_id: c.id, date: '2031-03-03', tenders: [{ method: 'cash', amount: 1 }] });

    const csv = await admin.send('GET', '/api/invoice-payments/tenders.csv?from=2031-03-01&to=2031-03-02');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="invoice-payments-tenders-2031-03-01-to-2031-03-02.csv"');
    const party = customer.name.includes(',') ? `"${customer.name}"` : customer.name;
    expect(csv.body).toBe(
      BYTE_ORDER_MARK +
        [
          'Date,Payment number,Invoice number,Customer,Method,Reference,Bank,Check number,Check date,Amount,Cash received',
          `2031-03-01,${first.number},${a.number},${party},Cash,,,,,10.00,20.00`,
          `2031-03-01,${first.number},${a.number},${party},GCash,9012345678904,,,,5.50,`,
          `2031-03-01,${second.number},${b.number},${party},Check,,"Metrobank, Quezon Ave.",0000456,2031-02-28,20.00,`,
          // What a spreadsheet would run as a formula is kept as text.
          `2031-03-02,${third.number},${c.number},${party},Maya,'=1+1,,,,7.00,`,
          '',
        ].join('\r\n'),
    );

    const summary = await admin.send('GET', '/api/invoice-payments/tenders-by-day.csv?from=2031-03-01&to=2031-03-02');
    expect(summary.status).toBe(200);
    expect(summary.body).toBe(
      BYTE_ORDER_MARK +
        [
          'Date,Method,Count,Total',
          '2031-03-01,Cash,1,10.00',
          '2031-03-01,GCash,1,5.50',
          '2031-03-01,Check,1,20.00',
          '2031-03-02,Maya,1,7.00',
          '',
        ].join('\r\n'),
    );
    const bills = await admin.send('GET', '/api/bill-payments/tenders.csv?from=2031-03-01&to=2031-03-02');
    expect(bills.body).toBe(
      `${BYTE_ORDER_MARK}Date,Payment number,Bill number,Supplier,Method,Reference,Bank,Check number,Check date,Amount,Cash received\r\n`,
    );
    // Another business sees none of them.
    const elsewhere = await admin
      .inBusiness(businesses[1])
      .send('GET', '/api/invoice-payments/tenders-by-day.csv?from=2031-03-01&to=2031-03-02');
    expect(elsewhere.body).toBe(`${BYTE_ORDER_MARK}Date,Method,Count,Total\r\n`);
  });

  it('asks for a period it can answer, and only of who may view that kind of payment', async () => {
    const period = (query: string) => admin.send('GET', `/api/invoice-payments/tenders.csv${query}`);
    expect((await period('?from=2031-03-02&to=2031-03-01')).body.errors).toEqual({
      from: ['The from date must be on or before the to date.'],
    });
    expect((await period('?from=yesterday')).body.errors).toEqual({ from: ['The from field must be a valid date (YYYY-MM-DD).'] });
    expect((await period('?from=2030-01-01&to=2031-03-01')).body.errors).toEqual({ to: ['A period can span at most 366 days.'] });
    const today = await period('');
    expect(today.status).toBe(200);
    expect(today.headers['content-disposition']).toMatch(/tenders-(\d{4}-\d{2}-\d{2})-to-\1\.csv"$/);

    const { session } = await userWithPermissions(test, businesses[0], ['view-invoice-payments']);
    expect((await session.send('GET', '/api/invoice-payments/tenders-by-day.csv')).status).toBe(200);
    expect((await session.send('GET', '/api/bill-payments/tenders.csv')).status).toBe(403);
    expect((await session.send('GET', '/api/bill-payments/tenders-by-day.csv')).status).toBe(403);
  });

  it('takes every tender away in the whole-business zip, one row each, voided payments’ too', async () => {
    const sold = await invoice();
    const paid = (
      await pay({
        invoice_id: sold.id,
        tenders: [
          { method: 'cash', amount: 1.25, received: 2 },
          { method: 'check', amount: 2, bank: 'Landbank', check_number: '0099', check_date: '2026-11-09' },
        ],
      })
    ).body.data;
    expect((await admin.send('PATCH', `/api/invoice-payments/${paid.id}/void`)).status).toBe(200);
    const answer = await test.app.inject({
      method: 'GET',
      url: '/api/businesses/export.zip',
      headers: { cookie: admin.cookie, 'business-id': String(businesses[0]) },
    });
    expect(answer.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(answer.rawPayload));
    const lines = strFromU8(files['invoice-payments-tenders.csv'])
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Payment ID,Payment number,Tender,Method,Amount,Reference,Bank,Check number,Check date,Cash received');
    expect(lines.filter((line) => line.startsWith(`${paid.id},`))).toEqual([
      `${paid.id},${paid.number},1,Cash,1.25,,,,,2.00`,
      `${paid.id},${paid.number},2,Check,2.00,,Landbank,0099,2026-11-09,`,
    ]);
    const kept = Number(
      (
        await db
          .selectFrom('payment_tenders')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('payment_type', '=', 'invoice-payment')
          .where('business_id', '=', businesses[0])
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(lines).toHaveLength(kept + 1);
    expect(strFromU8(files['README.txt'])).toContain('invoice-payments-tenders.csv');
    expect(strFromU8(files['bill-payments-tenders.csv'])).toMatch(/^\uFEFF?Payment ID,/);
  });

  it('gave each payment made before tenders one tender: its method, amount and reference (a check’s as its number)', async () => {
    // The migration again, over what this suite made: every payment not split is as one made before.
    const { up } = await import('../db/migrations/2026-11-26-16-payment-tenders');
    await db.schema.dropTable('payment_tenders').execute();
    await up(db as never);
    const backfilled = await db
      .selectFrom('invoice_payments as payment')
      .innerJoin('payment_tenders as tender', (join) =>
        join.onRef('tender.payment_id', '=', 'payment.id').on('tender.payment_type', '=', 'invoice-payment'),
      )
      .select([
        'payment.amount as paid',
        'payment.payment_method',
        'payment.payment_reference',
        'tender.position',
        'tender.method',
        'tender.amount',
        'tender.reference',
        'tender.check_number',
      ])
      .where('payment.payment_method', '<>', 'split')
      .execute();
    expect(backfilled.length).toBeGreaterThan(10);
    for (const row of backfilled) {
      expect(row).toMatchObject({ position: 0, method: row.payment_method, amount: row.paid });
      expect(row.reference).toBe(['cash', 'check'].includes(row.payment_method) ? null : row.payment_reference);
      expect(row.check_number).toBe(row.payment_method === 'check' ? row.payment_reference : null);
    }
    const bills = await db.selectFrom('payment_tenders').select('id').where('payment_type', '=', 'bill-payment').execute();
    const billPayments = await db.selectFrom('bill_payments').select('id').execute();
    expect(bills).toHaveLength(billPayments.length);
  });
});
