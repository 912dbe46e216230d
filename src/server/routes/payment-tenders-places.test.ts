import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';
import { BYTE_ORDER_MARK } from '../resources/csv-export';

/**
 * The tenders taken away for reconciliation follow the caller's places, on each database: a
 * payment's tenders are in the CSV (and its totals by day) only for someone who views the
 * payment's branch or warehouse; someone who views every place gets what a master gets.
 */
describe.each(databaseKinds)('payment tenders exported by place on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  const numbers: Record<string, string> = {};
  const branches: Record<string, number> = {};
  const period = '?from=2031-05-01&to=2031-05-02';

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    const made = async (resource: string, body: Record<string, unknown>) => {
      const answer = await admin.send('POST', `/api/${resource}`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data;
    };
    const customer = await contactOfType(admin, 'Customer');
    const item = await made('items', { sku: 'TENDER-PLACES', name: 'Paid at two branches', unit_of_measurement_id: 1 });
    const line = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1 };
    for (const [name, method] of [
      ['Makati', 'cash'],
      ['Quezon City', 'gcash'],
    ]) {
      const branch_id = (await admin.send('GET', `/api/branches?name=${name}&is_strict=1`)).body.data[0].id;
      branches[name] = branch_id;
      await made('stock-adjustments', { branch_id, date: '2031-04-30', lines: [{ ...line, quantity: 5, reason: 'opening_balance' }] });
      const invoice = await made('invoices', {
        contact_id: customer,
        branch_id,
        date: '2031-05-01',
        lines: [{ ...line, unit_price: 100 }],
      });
      const tender = { method, amount: 40, ...(method === 'gcash' ? { reference: '9012345678904' } : {}) };
      numbers[name] = (await made('invoice-payments', { invoice_id: invoice.id, date: '2031-05-01', tenders: [tender] })).number;
    }
  });
  afterAll(() => test.close());

  it('holds only the tenders of payments at the places the caller views', async () => {
    const makatiOnly = await userWithPermissions(test, businesses[0], ['view-invoice-payments'], {
      all: null,
      grants: [{ type: 'branch', id: branches.Makati, level: 'view' }],
    });
    const csv = await makatiOnly.session.send('GET', `/api/invoice-payments/tenders.csv${period}`);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(`,${numbers.Makati},`);
    expect(csv.body).not.toContain(numbers['Quezon City']);
    expect(csv.body.split('\r\n').filter((row: string) => row.startsWith('2031-'))).toHaveLength(1);
    const summary = await makatiOnly.session.send('GET', `/api/invoice-payments/tenders-by-day.csv${period}`);
    expect(summary.body).toBe(`${BYTE_ORDER_MARK}Date,Method,Count,Total\r\n2031-05-01,Cash,1,40.00\r\n`);

    // No place at all: nothing, though the kind may be viewed.
    const nowhere = await userWithPermissions(test, businesses[0], ['view-invoice-payments'], { all: null, grants: [] });
    const none = await nowhere.session.send('GET', `/api/invoice-payments/tenders-by-day.csv${period}`);
    expect(none.body).toBe(`${BYTE_ORDER_MARK}Date,Method,Count,Total\r\n`);
  });

  it('holds for someone who views every place what it holds for a master', async () => {
    const everywhere = await userWithPermissions(test, businesses[0], ['view-invoice-payments'], { all: 'view', grants: [] });
    for (const path of ['tenders.csv', 'tenders-by-day.csv']) {
      const url = `/api/invoice-payments/${path}${period}`;
      const theirs = (await everywhere.session.send('GET', url)).body;
      expect(theirs).toBe((await admin.send('GET', url)).body);
      if (path === 'tenders.csv') for (const number of Object.values(numbers)) expect(theirs).toContain(number);
    }
    expect(test.errorLines).toEqual([]);
  });
});
