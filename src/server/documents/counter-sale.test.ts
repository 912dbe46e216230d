import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  created,
  databaseKinds,
  startDemo,
  stockUp,
  userWithPermissions,
  type Session,
  type TestApp,
} from '../../../tests/support/test-app';
import { auditAfterEach } from '../../../tests/support/audited';
import { todayInManila } from '../../domain/documents';
import { pesosToCentavos } from '../../domain/money';
import { changeDue } from '../../domain/tenders';
import { isWalkInName, WALK_IN_NAME } from '../../domain/walk-in';
import type { Db } from '../db/scope';

/**
 * A sale at the counter, on each database: the invoice and its payment made as one change
 * (`payment` in the invoice's create), all or nothing, applied once however often the outbox
 * sends it, even at once; cash received and the change; and the walk-in customer it goes to,
 * which every business has — given when it is made, and to those made before by a migration.
 */
describe.each(databaseKinds)('a counter sale on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let cashier: Session;
  let db: Db;
  let businesses: [number, number];
  let walkIn: { id: number; name: string; contact_type_id: number };
  let branchId: number;
  let item: { id: number; unit_of_measurement_id: number };
  const today = todayInManila();
  /** One unit of the item: VAT-exempt, so the invoice comes to its price. */
  const PRICE = 87.5;

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    db = test.app.db;
    cashier = await test.signIn('cashier@example.com', undefined, businesses[0]);
    const places = (await admin.send('GET', '/api/places')).body.data as { type: string; id: number; name: string }[];
    branchId = places.find((place) => place.name === 'Makati')!.id;
    const found = (await admin.send('GET', '/api/contacts?name=walk-in')).body.data;
    expect(found).toHaveLength(1);
    walkIn = found[0];
    item = await created(admin, '/api/items', {
      sku: 'COUNTER-1',
      name: 'Counter Test Rice 1kg',
      unit_of_measurement_id: 1,
      vat_category: 'exempt',
    });
    await stockUp(admin, { type: 'branch', id: branchId }, item, 500);
  });
  afterAll(() => test.close());

  auditAfterEach(() => test);

  /** The invoice of one unit to the walk-in customer at Makati, today, with `payment` if given. */
  const saleBody = (payment?: unknown, extra: Record<string, unknown> = {}) => ({
    contact_id: walkIn.id,
    branch_id: branchId,
    date: today,
    lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, unit_price: PRICE }],
    ...(payment === undefined ? {} : { payment }),
    ...extra,
  });
  const sell = (payment?: unknown, session: Session = cashier, headers?: Record<string, string>) =>
    session.send('POST', '/api/invoices', saleBody(payment), headers);
  const count = async (table: 'invoices' | 'invoice_payments' | 'payment_tenders' | 'stock_movements') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = async () => ({
    invoices: await count('invoices'),
    payments: await count('invoice_payments'),
    tenders: await count('payment_tenders'),
    movements: await count('stock_movements'),
  });
  const none = { reference: null, bank: null, check_number: null, check_date: null, received: null };
  const history = async (resource: string, recordId: number) =>
    (await db.selectFrom('activity_log').select('action').where('resource', '=', resource).where('record_id', '=', recordId).execute()).map(
      (entry) => entry.action,
    );

  it('makes the invoice and its cash payment as one, keeping the cash received for the change', async () => {
    const sold = await sell({ tenders: [{ method: 'cash', amount: PRICE, received: 100 }], payment_reference: 'OR-0001' });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    const invoice = sold.body.data;
    const tender = { method: 'cash', amount: PRICE, ...none, received: 100 };
    expect(invoice).toMatchObject({ total: PRICE, amount_paid: PRICE, balance: 0, status: 'paid', contact: { display: WALK_IN_NAME } });
    expect(invoice.payments).toEqual([
      { id: expect.any(Number), number: expect.stringMatching(/^IP-/), date: today, amount: PRICE, tenders: [tender] },
    ]);

    const payment = (await admin.send('GET', `/api/invoice-payments/${invoice.payments[0].id}`)).body.data;
    expect(payment).toMatchObject({
      invoice_id: invoice.id,
      date: today,
      branch_id: branchId,
      amount: PRICE,
      payment_method: 'cash',
      payment_reference: 'OR-0001',
      status: 'posted',
      tenders: [tender],
    });
    expect(changeDue({ amount: pesosToCentavos(tender.amount), received: pesosToCentavos(tender.received) })).toBe(1_250);
    // Each with its own history entry, as if made one after the other.
    expect(await history('invoices', invoice.id)).toEqual(['created']);
    expect(await history('invoice-payments', payment.id)).toEqual(['created']);
    expect((await cashier.send('GET', `/api/invoices/${invoice.id}`)).body.data).toEqual(invoice);
  });

  it('takes a split of GCash with its reference and cash, or a part of the total, and keeps the tenders in order', async () => {
    const split = await sell({
      tenders: [
        { method: 'gcash', amount: 50, reference: '9012345678901' },
        { method: 'cash', amount: 37.5, received: 40 },
      ],
    });
    expect(split.status, JSON.stringify(split.body)).toBe(201);
    expect(split.body.data).toMatchObject({ balance: 0, status: 'paid' });
    const [payment] = split.body.data.payments;
    expect(payment.tenders).toEqual([
      { method: 'gcash', amount: 50, ...none, reference: '9012345678901' },
      { method: 'cash', amount: 37.5, ...none, received: 40 },
    ]);
    expect((await admin.send('GET', `/api/invoice-payments/${payment.id}`)).body.data.payment_method).toBe('split');

    const part = await sell({ tenders: [{ method: 'cash', amount: 50 }] });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body.data).toMatchObject({ amount_paid: 50, balance: 37.5, status: 'partially_paid' });
    expect(part.body.data.payments[0].tenders).toEqual([{ method: 'cash', amount: 50, ...none }]);
  });

  it('refuses tenders that come to more than the total, and makes nothing: no invoice, payment nor stock movement', async () => {
    const before = await counts();
    const over = await sell({
      tenders: [
        { method: 'cash', amount: PRICE },
        { method: 'gcash', amount: 0.01, reference: '9012345678902' },
      ],
    });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({
      'payment.tenders': ['The tenders come to ₱87.51, which may not be greater than the invoice’s balance of ₱87.50.'],
    });
    expect(await counts()).toEqual(before);
  });

  it('says what is wrong with the payment under payment.…, and makes nothing', async () => {
    const before = await counts();
    const refused = async (payment: unknown) => {
      const answer = await sell(payment);
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      return answer.body.errors;
    };
    expect(await refused({ tenders: [{ method: 'gcash', amount: PRICE }] })).toEqual({
      'payment.tenders.0.reference': ['The reference number is required for GCash.'],
    });
    expect(await refused({ tenders: [{ method: 'cash', amount: PRICE, received: 50 }] })).toEqual({
      'payment.tenders.0.received': ['The cash received must be at least the amount, ₱87.50.'],
    });
    expect(await refused({ tenders: [{ method: 'gcash', amount: PRICE, reference: '9012345678903', received: 100 }] })).toEqual({
      'payment.tenders.0.received': ['GCash takes no cash received.'],
    });
    expect(await refused({ tenders: [] })).toEqual({ 'payment.tenders': ['A payment needs at least one tender.'] });
    expect(await refused({})).toEqual({ 'payment.tenders': ['The tenders field is required.'] });
    expect(await refused({ tenders: [{ method: 'cash', amount: PRICE }], payment_reference: 'x'.repeat(101) })).toEqual({
      'payment.payment_reference': [expect.stringMatching(/payment reference/i)],
    });
    expect(await counts()).toEqual(before);
  });

  it('needs create-invoice-payments as well to take the payment, and makes nothing without it', async () => {
    const { session, grant } = await userWithPermissions(test, businesses[0], ['view-invoices', 'create-invoices']);
    const before = await counts();
    const refused = await sell({ tenders: [{ method: 'cash', amount: PRICE }] }, session);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Taking the payment with the invoice needs permission to create invoice payments as well as invoices.',
    );
    expect(await counts()).toEqual(before);
    // The invoice alone is theirs to make; with the payment's permission, the sale too.
    expect((await sell(undefined, session)).status).toBe(201);
    await grant(['view-invoices', 'create-invoices', 'create-invoice-payments']);
    const paid = await sell({ tenders: [{ method: 'cash', amount: PRICE }] }, session);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data).toMatchObject({ status: 'paid', balance: 0 });
  });

  it('is applied once however often it is sent with its Idempotency-Key', async () => {
    const before = await counts();
    const key = { 'idempotency-key': `counter-once-${kind}` };
    const payment = { tenders: [{ method: 'cash', amount: PRICE, received: 100 }] };
    const first = await sell(payment, cashier, key);
    const again = await sell(payment, cashier, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await counts()).toEqual({
      invoices: before.invoices + 1,
      payments: before.payments + 1,
      tenders: before.tenders + 1,
      movements: before.movements + 1,
    });
  });

  it('is applied once when the same change arrives many times at once, through two server instances', async () => {
    const before = await counts();
    const key = { 'idempotency-key': `counter-racing-${kind}` };
    const payment = {
      tenders: [
        { method: 'maya', amount: 40, reference: 'MAYA-COUNTER-1' },
        { method: 'cash', amount: 47.5, received: 50 },
      ],
    };
    const twin = kind === 'postgres' ? await test.secondInstance() : undefined;
    const through = twin ? twin.on(cashier) : cashier;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => sell(payment, index % 2 === 0 ? cashier : through, key)));
    await twin?.close();
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(await counts()).toEqual({
      invoices: before.invoices + 1,
      payments: before.payments + 1,
      tenders: before.tenders + 2,
      movements: before.movements + 1,
    });
    const made = await admin.send('GET', `/api/invoice-payments?invoice_id=${answers[0].body.data.id}`);
    expect(made.body.data).toHaveLength(1);
  });

  it("takes its invoice's number from the device's block, and its payment's from the payments' series", async () => {
    const block = await cashier.send('POST', '/api/number-blocks', {
      resource: 'invoices',
      place: { type: 'branch', id: branchId },
      size: 2,
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    const numbered = { block_id: block.body.data.id, sequence: block.body.data.first };
    const sold = await cashier.send('POST', '/api/invoices', saleBody({ tenders: [{ method: 'cash', amount: PRICE }] }, { numbered }));
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.data.number).toBe(block.body.data.numbers.first);
    expect(sold.body.data).toMatchObject({ status: 'paid', payments: [{ number: expect.stringMatching(/^IP-/) }] });
    // A number given once is given once, with or without a payment.
    const again = await cashier.send('POST', '/api/invoices', saleBody({ tenders: [{ method: 'cash', amount: PRICE }] }, { numbered }));
    expect(again.status).toBe(409);
  });

  it('is described in the API document: the payment the create takes, and the cash received of each tender read', async () => {
    const docs = (await test.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const create = docs.paths['/api/invoices'].post;
    const payment = create.requestBody.content['application/json'].schema.properties.payment;
    expect(payment.description).toContain('create-invoice-payments');
    const tenders = JSON.stringify(payment);
    expect(tenders).toContain('"received"');
    const answer = JSON.stringify(create.responses['201']);
    expect(answer).toContain('what the customer handed over');
  });

  it("keeps a bill payment's cash received too", async () => {
    const bill = (await admin.send('GET', '/api/bills?status=unpaid&limit=1')).body.data[0];
    const paid = await admin.send('POST', '/api/bill-payments', {
      bill_id: bill.id,
      date: today,
      tenders: [{ method: 'cash', amount: 1, received: 5 }],
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.tenders).toEqual([{ method: 'cash', amount: 1, ...none, received: 5 }]);
  });

  it('gives every business a walk-in customer: a new one when it is made, one made before by the migration', async () => {
    const walkIns = async (businessId: number) =>
      ((await admin.inBusiness(businessId).send('GET', '/api/contacts?name=walk&per_page=100')).body.data as (typeof walkIn)[]).filter(
        (contact) => isWalkInName(contact.name),
      );
    const contactsTotal = async (businessId: number) =>
      (await admin.inBusiness(businessId).send('GET', '/api/contacts?limit=1')).body.meta.total as number;
    const customerType = async (businessId: number) =>
      (await admin.inBusiness(businessId).send('GET', '/api/contact-types?name=Customer&is_strict=1')).body.data[0];
    const newBusiness = async (name: string) => {
      const made = await admin.send('POST', '/api/businesses', { name });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.data.id as number;
    };

    // The demo's counter sells to the one its business was given: the seeder made no second.
    expect(await walkIns(businesses[0])).toEqual([walkIn]);
    expect(await walkIns(businesses[1])).toHaveLength(1);

    const fresh = await newBusiness('Counter Test Store');
    const [given] = await walkIns(fresh);
    expect(given).toMatchObject({ name: WALK_IN_NAME, contact_type_id: (await customerType(fresh)).id });
    expect(await contactsTotal(fresh)).toBe(1);

    // Businesses as they were before: one without a walk-in customer, one whose walk-in has a name
    // of its own, one that keeps no Customer type.
    const without = await newBusiness('Before Walk-ins');
    const named = await newBusiness('Named Walk-in');
    const typeless = await newBusiness('No Customers Here');
    const forget = async (businessId: number) => {
      const [contact] = await walkIns(businessId);
      await db.deleteFrom('contacts').where('id', '=', contact.id).execute();
      await db
        .updateTable('resource_counts')
        .set({ active: 0 })
        .where('business_id', '=', businessId)
        .where('resource', '=', 'contacts')
        .execute();
    };
    await forget(without);
    await forget(typeless);
    const [own] = await walkIns(named);
    expect((await admin.inBusiness(named).send('PATCH', `/api/contacts/${own.id}`, { name: 'WALK IN regulars' })).status).toBe(200);
    const type = await customerType(typeless);
    expect((await admin.inBusiness(typeless).send('PATCH', `/api/contact-types/${type.id}`, { name: 'Clients' })).status).toBe(200);

    const { up } = await import('../db/migrations/2026-11-30-02-walk-in-customers');
    await up(db as never);
    const [added] = await walkIns(without);
    expect(added).toMatchObject({ name: WALK_IN_NAME, contact_type_id: (await customerType(without)).id });
    expect(await contactsTotal(without)).toBe(1);
    expect((await walkIns(named)).map((contact) => contact.name)).toEqual(['WALK IN regulars']);
    expect(await walkIns(typeless)).toEqual([]);
    expect(await contactsTotal(typeless)).toBe(0);
    for (const businessId of [...businesses, fresh]) expect(await walkIns(businessId)).toHaveLength(1);
  });
});
