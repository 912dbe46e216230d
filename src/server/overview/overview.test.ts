import { beforeAll, describe, expect, it } from 'vitest';
import { contactTypeId, created, databaseKinds, userWithPermissions } from '../../../tests/support/test-app';
import { aging, openBalance, startBooks } from '../../../tests/support/overview-cards';

/**
 * The overview's cards against figures worked out by hand, on each database. One business gets
 * a small fixed set of documents through the API (dates relative to Manila's today where aging
 * depends on it, fixed in 2025 where months are grouped); a second business gets documents of its
 * own, which never show in the first's figures.
 *
 * Items (all VAT-exempt, so totals are the lines' amounts):
 *   Alpha (pc, reorder 10): purchase ₱20/pc from 2026-01-01, ₱25/pc from T-30, ₱99/pc from T+10 (not yet); received at ₱20
 *   Bravo (pc, reorder 20): purchase ₱120/box, and 1 box = 12 pc → ₱10/pc
 *   Charlie (pc, no reorder level, no purchase price)
 * Received: warehouse Alpha 8, Bravo 24, Charlie 4; branch Alpha 30, Bravo 2 box (24 pc).
 * Invoices from the branch (T = today):
 *   F1 2025-01-15 Alpha 2 × 100 = 200 paid;  F2 2025-01-31 Alpha 1 × 50 = 50 paid;  F3 2025-03-01 Alpha 1 × 100 = 100 paid
 *   I1 T-5 due T+10 Alpha 2 × 100 = 200;  I2 T-40 due T-35 Alpha 1 × 150 = 150, 50 paid;  I3 T-70 no due date Alpha 3 × 100 = 300
 *   I4 T-100 due T-95 Alpha 1 × 80 = 80;  I5 T-5 Alpha 1 × 1000, voided;  I6 T-5 Alpha 1 × 500, trashed
 *   I7 T-2 Bravo 1 box × 60 = 60 paid
 * Bills to the warehouse:
 *   FB1 2025-02-10 Charlie 1 × 40 paid;  B1 T-10 due T+20 100;  B2 T-80 due T-65 300, 100 paid;  B3 T-200 due T-120 50
 *   B4 T-10 700 voided;  B5 T-10 900 voided and trashed
 * On hand after: warehouse Alpha 8, Bravo 24, Charlie 4; branch Alpha 30 − 12 = 18 (I5 came back), Bravo 12.
 */
describe.each(databaseKinds)('overview on %s', (kind) => {
  const { T, day, world, post, ids } = startBooks(kind);

  beforeAll(async () => {
    ids.supplier = (
      await post('/api/contacts', { name: 'Supplier One', contact_type_id: await contactTypeId(world.admin, 'Supplier') })
    ).id;
    ids.customer = (
      await post('/api/contacts', { name: 'Customer One', contact_type_id: await contactTypeId(world.admin, 'Customer') })
    ).id;
    ids.warehouse = (await post('/api/warehouses', { code: 'WH', name: 'Main Warehouse' })).id;
    ids.branch = (await post('/api/branches', { code: 'DT', name: 'Downtown' })).id;
    ids.piece = (await post('/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' })).id;
    ids.box = (await post('/api/unit-of-measurements', { name: 'Box', abbreviation: 'box' })).id;
    const item = (sku: string, name: string, reorder: number | null) =>
      post('/api/items', { sku, name, unit_of_measurement_id: ids.piece, reorder_level: reorder, vat_category: 'exempt' });
    ids.alpha = (await item('A-1', 'Alpha', 10)).id;
    ids.bravo = (await item('B-1', 'Bravo', 20)).id;
    ids.charlie = (await item('C-1', 'Charlie', null)).id;
    await post('/api/conversions', { from_unit_id: ids.box, to_unit_id: ids.piece, factor: 12 });
    const price = (item: number, unit: number, amount: number, effective: string) =>
      post('/api/purchase-item-prices', { item_id: item, unit_of_measurement_id: unit, price: amount, effective_date: effective });
    await price(ids.alpha, ids.piece, 20, '2026-01-01');
    await price(ids.alpha, ids.piece, 25, day(-30));
    await price(ids.alpha, ids.piece, 99, day(10));
    await price(ids.bravo, ids.box, 120, '2026-01-01');

    const line = (item: number, quantity: number, unitPrice: number, unit = ids.piece) => ({
      item_id: item,
      unit_of_measurement_id: unit,
      quantity,
      unit_price: unitPrice,
    });
    await post('/api/receive-orders', {
      contact_id: ids.supplier,
      warehouse_id: ids.warehouse,
      date: '2025-01-01',
      lines: [line(ids.alpha, 8, 20), line(ids.bravo, 24, 10), line(ids.charlie, 4, 5)],
    });
    await post('/api/receive-orders', {
      contact_id: ids.supplier,
      branch_id: ids.branch,
      date: '2025-01-01',
      lines: [line(ids.alpha, 30, 20), line(ids.bravo, 2, 120, ids.box)],
    });

    const invoice = async (date: string, dueDate: string | null, sold: ReturnType<typeof line>, paid = 0) => {
      const header = { contact_id: ids.customer, branch_id: ids.branch, date, due_date: dueDate };
      const made = await post('/api/invoices', { ...header, lines: [sold] });
      if (paid > 0) await post('/api/invoice-payments', { invoice_id: made.id, date, amount: paid, payment_method: 'cash' });
      return made.id as number;
    };
    await invoice('2025-01-15', null, line(ids.alpha, 2, 100), 200);
    await invoice('2025-01-31', null, line(ids.alpha, 1, 50), 50);
    await invoice('2025-03-01', null, line(ids.alpha, 1, 100), 100);
    ids.i1 = await invoice(day(-5), day(10), line(ids.alpha, 2, 100));
    ids.i2 = await invoice(day(-40), day(-35), line(ids.alpha, 1, 150), 50);
    ids.i3 = await invoice(day(-70), null, line(ids.alpha, 3, 100));
    ids.i4 = await invoice(day(-100), day(-95), line(ids.alpha, 1, 80));
    const voided = await invoice(day(-5), null, line(ids.alpha, 1, 1000));
    expect((await world.admin.send('PATCH', `/api/invoices/${voided}/void`)).status).toBe(200);
    ids.i6 = await invoice(day(-5), null, line(ids.alpha, 1, 500));
    await invoice(day(-2), null, line(ids.bravo, 1, 60, ids.box), 60);
    // The API trashes only voided invoices; the overview must still leave out any trashed one.
    await world.test.app.db.updateTable('invoices').set({ deleted_at: new Date().toISOString() }).where('id', '=', ids.i6).execute();

    const bill = async (date: string, dueDate: string | null, bought: ReturnType<typeof line>, paid = 0) => {
      const made = await post('/api/bills', {
        contact_id: ids.supplier,
        warehouse_id: ids.warehouse,
        date,
        due_date: dueDate,
        lines: [bought],
      });
      if (paid > 0) await post('/api/bill-payments', { bill_id: made.id, date, amount: paid, payment_method: 'cash' });
      return made.id as number;
    };
    ids.fb1 = await bill('2025-02-10', null, line(ids.charlie, 1, 40), 40);
    ids.b1 = await bill(day(-10), day(20), line(ids.charlie, 1, 100));
    ids.b2 = await bill(day(-80), day(-65), line(ids.charlie, 3, 100), 100);
    ids.b3 = await bill(day(-200), day(-120), line(ids.charlie, 1, 50));
    ids.b4 = await bill(day(-10), null, line(ids.charlie, 7, 100));
    expect((await world.admin.send('PATCH', `/api/bills/${ids.b4}/void`)).status).toBe(200);
    const trashed = await bill(day(-10), null, line(ids.charlie, 9, 100));
    expect((await world.admin.send('PATCH', `/api/bills/${trashed}/void`)).status).toBe(200);
    expect((await world.admin.send('DELETE', `/api/bills/${trashed}`)).status).toBe(200);

    // Another business of the same admin, with a sale, a bill and low stock of its own; its prices include VAT.
    const other = await created(world.admin, '/api/businesses', { name: 'Other Business', vat_registered: '1', prices_include_vat: true });
    const elsewhere = world.admin.inBusiness(other.id as number);
    const otherTypes = (await elsewhere.send('GET', '/api/contact-types?per_page=100')).body.data as { id: number; name: string }[];
    const contact = await created(elsewhere, '/api/contacts', { name: 'Elsewhere', contact_type_id: otherTypes[0].id });
    const warehouse = await created(elsewhere, '/api/warehouses', { code: 'WH', name: 'Elsewhere Warehouse' });
    const unit = await created(elsewhere, '/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' });
    const otherItem = await created(elsewhere, '/api/items', {
      sku: 'X-1',
      name: 'Xray',
      unit_of_measurement_id: unit.id,
      reorder_level: 50,
    });
    await created(elsewhere, '/api/purchase-item-prices', {
      item_id: otherItem.id,
      unit_of_measurement_id: unit.id,
      price: 1000,
      effective_date: '2025-01-01',
    });
    const otherLine = (quantity: number) => ({ item_id: otherItem.id, unit_of_measurement_id: unit.id, quantity, unit_price: 1000 });
    const header = { contact_id: contact.id, warehouse_id: warehouse.id };
    await created(elsewhere, '/api/receive-orders', { ...header, date: '2025-01-01', lines: [otherLine(5)] });
    await created(elsewhere, '/api/invoices', { ...header, date: day(-5), due_date: day(-200), lines: [otherLine(1)] });
    await created(elsewhere, '/api/bills', { ...header, date: day(-5), due_date: day(-200), lines: [otherLine(1)] });
    ids.otherBusiness = other.id as number;
  });

  /** This business's items are all VAT-exempt: its sales and purchases are exempt sales, with no VAT. */
  const exempt = (amount: number) => ({ vatable_sales: 0, exempt_sales: amount, zero_rated_sales: 0, vat_total: 0 });

  it('totals sales and purchases per day, every day present, without voided or trashed documents', async () => {
    const answer = await world.admin.send('GET', `/api/overview/sales-purchases?from=${day(-10)}&to=${T}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toHaveLength(11);
    const expected = Array.from({ length: 11 }, (_, index) => ({ period: day(index - 10), sales: 0, purchases: 0 }));
    expected[0].purchases = 100; // B1 (B4 voided, B5 voided and trashed)
    expected[5].sales = 200; // I1 (I5 voided, I6 trashed)
    expected[8].sales = 60; // I7
    expect(answer.body).toEqual({
      data: expected,
      totals: { sales: 260, purchases: 100 },
      vat: { sales: exempt(260), purchases: exempt(100) },
    });
  });

  it('groups by month, and defaults to the last 30 days by day', async () => {
    const months = await world.admin.send('GET', '/api/overview/sales-purchases?from=2025-01-01&to=2025-04-30&interval=month');
    expect(months.body).toEqual({
      data: [
        { period: '2025-01', sales: 250, purchases: 0 },
        { period: '2025-02', sales: 0, purchases: 40 },
        { period: '2025-03', sales: 100, purchases: 0 },
        { period: '2025-04', sales: 0, purchases: 0 },
      ],
      totals: { sales: 350, purchases: 40 },
      vat: { sales: exempt(350), purchases: exempt(40) },
    });
    const defaults = await world.admin.send('GET', '/api/overview/sales-purchases');
    expect(defaults.body.data).toHaveLength(30);
    expect(defaults.body.data[0].period).toBe(day(-29));
    expect(defaults.body.data[29].period).toBe(T);
    expect(defaults.body.totals).toEqual({ sales: 260, purchases: 100 });
  });

  it('ages what customers owe and what is owed suppliers, the most overdue first', async () => {
    const receivables = await world.admin.send('GET', '/api/overview/receivables');
    expect(receivables.status).toBe(200);
    expect(receivables.body.data).toEqual({
      total: 680,
      count: 4,
      aging: aging({ '0-30': [200, 1], '31-60': [100, 1], '61-90': [300, 1], '90+': [80, 1] }),
      oldest: [
        openBalance('Customer One', { id: ids.i4, date: day(-100), due_date: day(-95), balance: 80, days_overdue: 95 }),
        openBalance('Customer One', { id: ids.i3, date: day(-70), due_date: null, balance: 300, days_overdue: 70 }),
        openBalance('Customer One', { id: ids.i2, date: day(-40), due_date: day(-35), balance: 100, days_overdue: 35 }),
        openBalance('Customer One', { id: ids.i1, date: day(-5), due_date: day(10), balance: 200, days_overdue: 0 }),
      ],
    });
    expect(receivables.body.data.oldest[0].number).toMatch(/^I-/);

    const payables = await world.admin.send('GET', '/api/overview/payables');
    expect(payables.body.data).toMatchObject({
      total: 350,
      count: 3,
      aging: aging({ '0-30': [100, 1], '31-60': [0, 0], '61-90': [200, 1], '90+': [50, 1] }),
    });
    expect(payables.body.data.oldest.map((row: { id: number; days_overdue: number }) => [row.id, row.days_overdue])).toEqual([
      [ids.b3, 120],
      [ids.b2, 65],
      [ids.b1, 0],
    ]);
  });

  it('values stock at moving-average cost, per base unit, by location: what it was received at, not its price list', async () => {
    const answer = await world.admin.send('GET', '/api/overview/stock-value');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        // Alpha 18 × ₱20 (every one received at ₱20, whatever the price list says since) + Bravo 12 × ₱10 (₱120 a box of 12)
        { location_type: 'branch', location_id: ids.branch, name: 'Downtown', value: 480, items: 2 },
        // Alpha 8 × ₱20 + Bravo 24 × ₱10 + Charlie 4 × ₱5 (received at ₱5, though no purchase price is listed)
        { location_type: 'warehouse', location_id: ids.warehouse, name: 'Main Warehouse', value: 420, items: 3 },
      ],
      total: 900,
    });
  });

  it('lists stocks at or under their reorder level, lowest relative to it first', async () => {
    const answer = await world.admin.send('GET', '/api/overview/low-stock');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        {
          stock_id: expect.any(Number),
          item_id: ids.bravo,
          item: 'Bravo',
          sku: 'B-1',
          location_type: 'branch',
          location_id: ids.branch,
          location: 'Downtown',
          quantity_on_hand: 12,
          reorder_level: 20,
          unit: 'pc',
          // No stock request asks for it.
          open_request: null,
        },
        {
          stock_id: expect.any(Number),
          item_id: ids.alpha,
          item: 'Alpha',
          sku: 'A-1',
          location_type: 'warehouse',
          location_id: ids.warehouse,
          location: 'Main Warehouse',
          quantity_on_hand: 8,
          reorder_level: 10,
          unit: 'pc',
          open_request: null,
        },
      ],
      total: 2,
    });
    const first = await world.admin.send('GET', '/api/overview/low-stock?limit=1');
    expect(first.body.data.map((row: { item: string }) => row.item)).toEqual(['Bravo']);
    expect(first.body.total).toBe(2);
  });

  it('ranks the items sold in a period by amount, quantities in the base unit', async () => {
    const answer = await world.admin.send('GET', `/api/overview/top-items?from=${day(-100)}&to=${T}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        // I1 200 + I2 150 + I3 300 + I4 80; I5 voided and I6 trashed left out
        { item_id: ids.alpha, item: 'Alpha', quantity: 7, amount: 730 },
        // One box of 12 on I7
        { item_id: ids.bravo, item: 'Bravo', quantity: 12, amount: 60 },
      ],
    });
    const one = await world.admin.send('GET', '/api/overview/top-items?from=2025-01-01&to=2025-01-31&limit=1');
    expect(one.body.data).toEqual([{ item_id: ids.alpha, item: 'Alpha', quantity: 3, amount: 250 }]);
  });

  it('lists the newest documents of the kinds the user may view, voided ones with their status, trashed ones not', async () => {
    const billsOnly = await userWithPermissions(world.test, world.businessId, ['view-bills']);
    const answer = await billsOnly.session.send('GET', '/api/overview/recent-documents');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((row: { id: number; status: string }) => [row.id, row.status])).toEqual([
      [ids.b4, 'void'],
      [ids.b3, 'unpaid'],
      [ids.b2, 'partially_paid'],
      [ids.b1, 'unpaid'],
      [ids.fb1, 'paid'],
    ]);
    expect(answer.body.data[2]).toEqual({
      resource: 'bills',
      singular: 'Bill',
      id: ids.b2,
      number: expect.stringMatching(/^B-/),
      date: day(-80),
      contact: 'Supplier One',
      total: 300,
      status: 'partially_paid',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });

    const everything = await world.admin.send('GET', '/api/overview/recent-documents?limit=30');
    const rows = everything.body.data as { resource: string; created_at: string; total: number | null; contact: string | null }[];
    // 2 receive orders, 9 invoices, 5 invoice payments, 5 bills, 2 bill payments (I6 and B5 trashed).
    expect(rows).toHaveLength(23);
    expect(rows.map((row) => row.created_at)).toEqual(
      rows
        .map((row) => row.created_at)
        .toSorted()
        .reverse(),
    );
    expect(new Set(rows.map((row) => row.resource))).toEqual(
      new Set(['receive-orders', 'bills', 'bill-payments', 'invoices', 'invoice-payments']),
    );
    // The newest: B4's void left it where it was; the voided and trashed bill is gone.
    expect(rows[0]).toMatchObject({ resource: 'bills', id: ids.b4 });
    expect(rows.find((row) => row.resource === 'bill-payments')).toMatchObject({ contact: 'Supplier One', total: 100 });

    const none = await userWithPermissions(world.test, world.businessId, ['view-items']);
    expect((await none.session.send('GET', '/api/overview/recent-documents')).body).toEqual({ data: [] });
  });

  it('shows each card only to who may view what it is made of', async () => {
    const invoicesOnly = await userWithPermissions(world.test, world.businessId, ['view-invoices']);
    const sales = await invoicesOnly.session.send('GET', `/api/overview/sales-purchases?from=${day(-2)}&to=${T}`);
    expect(sales.body).toEqual({
      data: [
        { period: day(-2), sales: 60 },
        { period: day(-1), sales: 0 },
        { period: T, sales: 0 },
      ],
      totals: { sales: 60 },
      vat: { sales: exempt(60) },
    });
    expect((await invoicesOnly.session.send('GET', '/api/overview/receivables')).status).toBe(200);
    expect((await invoicesOnly.session.send('GET', '/api/overview/top-items')).status).toBe(200);
    for (const path of ['payables', 'stock-value', 'low-stock']) {
      expect((await invoicesOnly.session.send('GET', `/api/overview/${path}`)).status, path).toBe(403);
    }
    const recent = await invoicesOnly.session.send('GET', '/api/overview/recent-documents?limit=30');
    expect(new Set(recent.body.data.map((row: { resource: string }) => row.resource))).toEqual(new Set(['invoices']));

    const billsOnly = await userWithPermissions(world.test, world.businessId, ['view-bills']);
    const purchases = await billsOnly.session.send('GET', `/api/overview/sales-purchases?from=${day(-10)}&to=${day(-10)}`);
    expect(purchases.body).toEqual({
      data: [{ period: day(-10), purchases: 100 }],
      totals: { purchases: 100 },
      vat: { purchases: exempt(100) },
    });

    const nothing = await userWithPermissions(world.test, world.businessId, []);
    for (const path of ['sales-purchases', 'receivables', 'payables', 'stock-value', 'low-stock', 'top-items']) {
      expect((await nothing.session.send('GET', `/api/overview/${path}`)).status, path).toBe(403);
    }
    // Refused before the query is read, so a bad range still answers 403.
    expect((await nothing.session.send('GET', '/api/overview/sales-purchases?from=nonsense')).status).toBe(403);
  });

  it("counts only the active business's records", async () => {
    const elsewhere = world.admin.inBusiness(ids.otherBusiness);
    const sales = await elsewhere.send('GET', `/api/overview/sales-purchases?from=${day(-5)}&to=${day(-5)}`);
    expect(sales.body.totals).toEqual({ sales: 1000, purchases: 1000 });
    // Its VATable ₱1,000 with VAT in it: ₱892.86 of sales and ₱107.14 of VAT, each side.
    const vatable = { vatable_sales: 892.86, exempt_sales: 0, zero_rated_sales: 0, vat_total: 107.14 };
    expect(sales.body.vat).toEqual({ sales: vatable, purchases: vatable });
    expect((await elsewhere.send('GET', '/api/overview/receivables')).body.data).toMatchObject({ total: 1000, count: 1 });
    // Xray 4 × ₱892.86: received at ₱1,000 with VAT in it, which a VAT-registered business claims back.
    expect((await elsewhere.send('GET', '/api/overview/stock-value')).body).toMatchObject({ total: 3571.43 });
    expect((await elsewhere.send('GET', '/api/overview/low-stock')).body).toMatchObject({ total: 1, data: [{ item: 'Xray' }] });
    expect((await elsewhere.send('GET', '/api/overview/recent-documents')).body.data).toHaveLength(3);
  });

  it('refuses a backwards or too long period and a limit out of range with 422', async () => {
    const refused = async (path: string, field: string, message: string) => {
      const answer = await world.admin.send('GET', path);
      expect(answer.status, path).toBe(422);
      expect(answer.body.errors[field], path).toEqual([message]);
    };
    await refused('/api/overview/sales-purchases?from=2026-03-02&to=2026-03-01', 'from', 'The from date must be on or before the to date.');
    await refused('/api/overview/sales-purchases?from=2025-01-01&to=2026-01-02', 'to', 'A period by day can span at most 366 days.');
    await refused(
      '/api/overview/sales-purchases?from=2015-01-01&to=2025-01-31&interval=month',
      'to',
      'A period by month can span at most 10 years.',
    );
    await refused('/api/overview/sales-purchases?from=2026-13-01', 'from', 'The from field must be a valid date (YYYY-MM-DD).');
    await refused('/api/overview/sales-purchases?to=2026-02-30', 'to', 'The to field must be a valid date (YYYY-MM-DD).');
    await refused('/api/overview/low-stock?limit=ten', 'limit', 'The limit field must be a number.');
    await refused('/api/overview/sales-purchases?interval=week', 'interval', 'The interval field must be day or month.');
    await refused('/api/overview/top-items?limit=21', 'limit', 'The limit field must not be greater than 20.');
    await refused('/api/overview/low-stock?limit=0', 'limit', 'The limit field must be at least 1.');
    await refused('/api/overview/recent-documents?limit=31', 'limit', 'The limit field must not be greater than 30.');
    // At the limits themselves: a leap year's 366 days, and ten years of months.
    expect((await world.admin.send('GET', '/api/overview/sales-purchases?from=2024-01-01&to=2024-12-31')).body.data).toHaveLength(366);
    expect(
      (await world.admin.send('GET', '/api/overview/sales-purchases?from=2015-01-01&to=2024-12-31&interval=month')).body.data,
    ).toHaveLength(120);
  });
});
