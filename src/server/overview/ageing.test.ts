import { beforeAll, describe, expect, it } from 'vitest';
import { AGEING_BUCKETS, ageingBucketOf } from '../../domain/ageing';
import { contactTypeId, databaseKinds, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import { startBooks } from '../../../tests/support/overview-cards';
import { BYTE_ORDER_MARK } from '../resources/csv-export';

/**
 * The receivables and payables ageing against figures worked out by hand, on each database.
 * T = today in Manila; days past due = T − due date (the document's date when it has none).
 * Invoices (VAT-exempt item, so a total is its line's amount):
 *   Ana, at Downtown:  A1 due T       100 (current)     A2 due T−1   200 (1–30)
 *                      A3 due T−30    300 (1–30)        A4 due T−31  400, 150 paid → 250 (31–60)
 *   Ben, at Downtown:  B1 no due date, dated T−61  50 (61–90)       B2 due T−90  60 (61–90)
 *                      B3 due T−91     70 (over 90)     B4 due T+5   80 (current)
 *   Ana, at Uptown:    A5 due T−200  1000 (over 90)
 *   none of these count: A6 paid in full; A7 voided.
 * Bills (at the warehouse): Sam S1 due T−45  500 (31–60).
 */
describe.each(databaseKinds)('receivables and payables ageing on %s', (kind) => {
  const { T, day, world, post, ids } = startBooks(kind);

  beforeAll(async () => {
    const customer = await contactTypeId(world.admin, 'Customer');
    ids.ana = (await post('/api/contacts', { name: 'Ana Store', contact_type_id: customer })).id;
    ids.ben = (await post('/api/contacts', { name: 'Ben, "Sari-sari"', contact_type_id: customer })).id;
    ids.sam = (await post('/api/contacts', { name: 'Sam Supply', contact_type_id: await contactTypeId(world.admin, 'Supplier') })).id;
    ids.downtown = (await post('/api/branches', { code: 'DT', name: 'Downtown' })).id;
    ids.uptown = (await post('/api/branches', { code: 'UT', name: 'Uptown' })).id;
    ids.warehouse = (await post('/api/warehouses', { code: 'WH', name: 'Main Warehouse' })).id;
    const piece = (await post('/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' })).id;
    const item = (await post('/api/items', { sku: 'A-1', name: 'Alpha', unit_of_measurement_id: piece, vat_category: 'exempt' })).id;
    const line = (amount: number) => ({ item_id: item, unit_of_measurement_id: piece, quantity: 1, unit_price: amount });
    for (const branch of [ids.downtown, ids.uptown]) {
      await post('/api/receive-orders', {
        contact_id: ids.sam,
        branch_id: branch,
        date: day(-300),
        lines: [{ ...line(1), quantity: 100 }],
      });
    }
    const invoice = async (contact: number, branch: number, date: string, due: string | null, amount: number, paid = 0) => {
      const made = await post('/api/invoices', { contact_id: contact, branch_id: branch, date, due_date: due, lines: [line(amount)] });
      if (paid > 0) await post('/api/invoice-payments', { invoice_id: made.id, date, amount: paid, payment_method: 'cash' });
      return made.id as number;
    };
    await invoice(ids.ana, ids.downtown, day(-10), day(0), 100);
    await invoice(ids.ana, ids.downtown, day(-10), day(-1), 200);
    await invoice(ids.ana, ids.downtown, day(-40), day(-30), 300);
    await invoice(ids.ana, ids.downtown, day(-40), day(-31), 400, 150);
    await invoice(ids.ben, ids.downtown, day(-61), null, 50);
    await invoice(ids.ben, ids.downtown, day(-100), day(-90), 60);
    await invoice(ids.ben, ids.downtown, day(-100), day(-91), 70);
    await invoice(ids.ben, ids.downtown, day(0), day(5), 80);
    await invoice(ids.ana, ids.uptown, day(-210), day(-200), 1000);
    await invoice(ids.ana, ids.downtown, day(-10), day(-20), 90, 90);
    const voided = await invoice(ids.ana, ids.downtown, day(-10), day(-20), 5000);
    expect((await world.admin.send('PATCH', `/api/invoices/${voided}/void`)).status).toBe(200);
    await post('/api/bills', { contact_id: ids.sam, warehouse_id: ids.warehouse, date: day(-60), due_date: day(-45), lines: [line(500)] });
  });

  const buckets = (current: number, d1: number, d31: number, d61: number, over: number) => ({
    current,
    '1-30': d1,
    '31-60': d31,
    '61-90': d61,
    'over-90': over,
  });

  it('puts each day past due in its bucket, at the edges too', () => {
    expect([-5, 0, 1, 30, 31, 60, 61, 90, 91, 400].map(ageingBucketOf)).toEqual([
      'current',
      'current',
      '1-30',
      '1-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      'over-90',
      'over-90',
    ]);
  });

  it('ages what each customer owes by days past due, the most owed first, paid and voided invoices left out', async () => {
    const answer = await world.admin.send('GET', '/api/overview/receivables/ageing');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      as_of: T,
      data: [
        {
          contact_id: ids.ana,
          contact: 'Ana Store',
          buckets: buckets(100, 500, 250, 0, 1000),
          total: 1850,
          count: 5,
          oldest_due: day(-200),
        },
        {
          contact_id: ids.ben,
          contact: 'Ben, "Sari-sari"',
          buckets: buckets(80, 0, 0, 110, 70),
          total: 260,
          count: 4,
          oldest_due: day(-91),
        },
      ],
      totals: { buckets: buckets(180, 500, 250, 110, 1070), total: 2110, count: 9 },
    });
    const payables = await world.admin.send('GET', '/api/overview/payables/ageing');
    expect(payables.body.data).toEqual([
      { contact_id: ids.sam, contact: 'Sam Supply', buckets: buckets(0, 0, 500, 0, 0), total: 500, count: 1, oldest_due: day(-45) },
    ]);
  });

  it('ages one place when asked, and only the places the user views', async () => {
    const uptown = await world.admin.send('GET', `/api/overview/receivables/ageing?branch_id=${ids.uptown}`);
    expect(uptown.body.data).toEqual([
      { contact_id: ids.ana, contact: 'Ana Store', buckets: buckets(0, 0, 0, 0, 1000), total: 1000, count: 1, oldest_due: day(-200) },
    ]);
    const kept = await userWithPermissions(world.test, world.businessId, ['view-invoices'], {
      all: null,
      grants: [{ type: 'branch', id: ids.downtown, level: 'view' }],
    });
    const seen = await kept.session.send('GET', '/api/overview/receivables/ageing');
    expect(seen.body.totals).toEqual({ buckets: buckets(180, 500, 250, 110, 70), total: 1110, count: 8 });
    const elsewhere = await kept.session.send('GET', `/api/overview/receivables/ageing?branch_id=${ids.uptown}`);
    expect(elsewhere.body).toMatchObject({ data: [], totals: { total: 0, count: 0 } });
    expect((await kept.session.send('GET', '/api/overview/payables/ageing')).status).toBe(403);
    expect((await kept.session.send('GET', '/api/overview/payables/ageing.csv')).status).toBe(403);
  });

  it('takes the ageing away as CSV, names quoted and a total row last', async () => {
    const answer = await world.admin.send('GET', `/api/overview/receivables/ageing.csv?branch_id=${ids.downtown}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="receivables-ageing-branch-${ids.downtown}-${T}.csv"`);
    expect(answer.body).toBe(
      BYTE_ORDER_MARK +
        'Customer,Current,1–30 days,31–60 days,61–90 days,Over 90 days,Total,Unpaid invoices,Oldest due\r\n' +
        `Ana Store,100.00,500.00,250.00,0.00,0.00,850.00,4,${day(-31)}\r\n` +
        `"Ben, ""Sari-sari""",80.00,0.00,0.00,110.00,70.00,260.00,4,${day(-91)}\r\n` +
        'Total,180.00,500.00,250.00,110.00,70.00,1110.00,8,\r\n',
    );
  });

  it('refuses a branch and a warehouse at once, or a place id that is not a whole number, with 422', async () => {
    for (const [query, field] of [
      [`branch_id=${ids.downtown}&warehouse_id=${ids.warehouse}`, 'warehouse_id'],
      ['branch_id=1.5', 'branch_id'],
      ['branch_id=-1', 'branch_id'],
      ['warehouse_id=0', 'warehouse_id'],
      ['warehouse_id=1e3', 'warehouse_id'],
    ]) {
      const answer = await world.admin.send('GET', `/api/overview/receivables/ageing?${query}`);
      expect(answer.status, query).toBe(422);
      expect(Object.keys(answer.body.errors), query).toContain(field);
    }
  });
});

/** The demo data shows every bucket: in each demo business, some customer owes in each of them. */
describe.each(databaseKinds)('the demo’s receivables ageing on %s', (kind) => {
  it('has what customers owe in every bucket, from current to over 90 days', async () => {
    const { test, admin, businesses } = await startDemo(kind);
    try {
      for (const business of businesses) {
        const answer = await admin.inBusiness(business).send('GET', '/api/overview/receivables/ageing');
        expect(answer.status).toBe(200);
        for (const { key } of AGEING_BUCKETS) expect(answer.body.totals.buckets[key], `${key} in business ${business}`).toBeGreaterThan(0);
      }
    } finally {
      await test.close();
    }
  });
});
