import { describe, expect, it } from 'vitest';
import { startedOnce } from '../../../tests/support/started';
import {
  contactOfType,
  created,
  databaseKinds,
  permissionsOn,
  startDemo,
  userWithPermissions,
  type Session,
} from '../../../tests/support/test-app';
import { todayInManila } from '../../domain/documents';
import { VIEW_COSTS_PERMISSION } from '../../domain/permissions';

/** `n` days after ten days ago. */
function day(n: number): string {
  const date = new Date(`${todayInManila()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 10 + n);
  return date.toISOString().slice(0, 10);
}

/** A CSV answer's lines, after its byte-order mark. */
const csvLines = (text: string) => {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text.slice(1).trimEnd().split('\r\n');
};

describe.each(databaseKinds)('the reports on what goods cost, on %s', (kind) => {
  const started = startedOnce(async () => {
    const demo = await startDemo(kind);
    const { admin } = demo;
    // A branch of the tests' own, so that what it held and sold is theirs alone.
    const branch = (await created(admin, '/api/branches', { code: 'REPORTS', name: 'Reports Branch' })).id as number;
    const brand = (await created(admin, '/api/brands', { name: 'Reported Brand' })).id as number;
    const classification = (await created(admin, '/api/item-classifications', { name: 'Reported Class' })).id as number;
    const unit = (await created(admin, '/api/unit-of-measurements', { name: 'Report Piece', abbreviation: 'rpc' })).id as number;
    const branded = await created(admin, '/api/items', {
      sku: 'REP-A',
      name: 'Reported A',
      description: 'Branded and classified',
      unit_of_measurement_id: unit,
      brand_id: brand,
      item_classification_id: classification,
    });
    const plain = await created(admin, '/api/items', { sku: 'REP-B', name: 'Reported B', unit_of_measurement_id: unit });
    const supplier = await contactOfType(admin, 'Supplier');
    const customer = await contactOfType(admin, 'Customer');
    const lines = (item: number, quantity: number, price: number) => [
      { item_id: item, unit_of_measurement_id: unit, quantity, unit_price: price },
    ];
    const at = { branch_id: branch };
    const business = demo.businesses[0];
    const patched = await admin.send('PATCH', `/api/businesses/${business}`, { prices_include_vat: false, vat_registered: true });
    expect(patched.status).toBe(200);
    await created(admin, '/api/receive-orders', { ...at, contact_id: supplier, date: day(1), lines: lines(branded.id, 10, 100) });
    await created(admin, '/api/receive-orders', { ...at, contact_id: supplier, date: day(2), lines: lines(plain.id, 4, 50) });
    await created(admin, '/api/invoices', { ...at, contact_id: customer, date: day(3), lines: lines(branded.id, 5, 200) });
    await created(admin, '/api/receive-orders', { ...at, contact_id: supplier, date: day(5), lines: lines(branded.id, 10, 130) });
    const sale = await created(admin, '/api/invoices', { ...at, contact_id: customer, date: day(6), lines: lines(plain.id, 2, 80) });
    // One of the two comes back: its ₱80.00 and its ₱50.00 of cost are taken off.
    await created(admin, '/api/sales-returns', {
      invoice_id: sale.id,
      date: day(7),
      settlement: 'credit',
      lines: [{ source_line_id: sale.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'restock' }],
    });
    return { ...demo, branch, branded: branded.id as number, plain: plain.id as number };
  });

  const stockValue = (session: Session, query: string) =>
    session.send('GET', `/api/reports/stock-value?branch_id=${started.branch}&${query}`);

  it('values what a place held at the end of any day at that day’s moving-average cost', async () => {
    const { admin } = started;
    const rowsOn = async (date: string) => {
      const answer = await stockValue(admin, `date=${date}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    expect((await rowsOn(day(0))).data).toEqual([]);
    const second = await rowsOn(day(2));
    expect(second.data).toEqual([
      {
        item_id: started.branded,
        sku: 'REP-A',
        item: 'Reported A',
        description: 'Branded and classified',
        location_type: 'branch',
        location_id: started.branch,
        location: 'Reports Branch',
        quantity: 10,
        unit: 'rpc',
        unit_cost: 100,
        value: 1000,
      },
      expect.objectContaining({ sku: 'REP-B', quantity: 4, unit_cost: 50, value: 200 }),
    ]);
    expect(second).toMatchObject({
      date: day(2),
      places: [{ location_type: 'branch', location_id: started.branch, name: 'Reports Branch', items: 2, value: 1200 }],
      total: 1200,
      uncosted: 0,
      meta: { total: 2, current_page: 1, last_page: 1 },
    });
    // Five sold on day 3 at ₱100.00; ten more in on day 5 at ₱130.00: fifteen at ₱120.00.
    expect((await rowsOn(day(4))).data.map((row: { quantity: number; value: number }) => [row.quantity, row.value])).toEqual([
      [5, 500],
      [4, 200],
    ]);
    const later = await rowsOn(day(7));
    expect(
      later.data.map((row: { quantity: number; unit_cost: number; value: number }) => [row.quantity, row.unit_cost, row.value]),
    ).toEqual([
      [15, 120, 1800],
      [3, 50, 150],
    ]);
    expect(later.total).toBe(1950);
    // A page of one row at a time, the totals those of every row.
    const paged = await stockValue(admin, `date=${day(7)}&per_page=15&page=2`);
    expect(paged.body).toMatchObject({ data: [], total: 1950, meta: { total: 2, current_page: 2, from: null } });
  });

  it('gives the whole list as CSV and as a PDF, each place’s total after its rows, and agrees with the overview’s stock value to the centavo', async () => {
    const { admin } = started;
    const csv = await admin.send('GET', `/api/reports/stock-value.csv?branch_id=${started.branch}&date=${day(7)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="inventory-list-branch-${started.branch}-${day(7)}.csv"`);
    expect(csvLines(csv.body as string)).toEqual([
      'Place,Item code,Item,Description,Quantity,Unit,Unit cost,Total cost',
      'Reports Branch,REP-A,Reported A,Branded and classified,15.000,rpc,120.0000,1800.00',
      'Reports Branch,REP-B,Reported B,,3.000,rpc,50.0000,150.00',
      '"Total, Reports Branch",,,,,,,1950.00',
      'Total,,,,,,,1950.00',
    ]);
    // The same list to print: the PDF's own test reads what it draws.
    const pdf = await admin.send('GET', `/api/reports/stock-value.pdf?branch_id=${started.branch}&date=${day(7)}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="inventory-list-branch-${started.branch}-${day(7)}.pdf"`);
    expect(String(pdf.body).startsWith('%PDF-')).toBe(true);
    // Every place today: the report's places and total are the overview card's.
    const report = (await admin.send('GET', '/api/reports/stock-value')).body;
    const card = (await admin.send('GET', '/api/overview/stock-value')).body;
    expect(report.total).toBe(card.total);
    expect(report.total).toBeGreaterThan(1950);
    const byPlace = (rows: { location_type: string; location_id: number; value: number }[]) =>
      Object.fromEntries(rows.map((row) => [`${row.location_type}:${row.location_id}`, row.value]));
    expect(byPlace(report.places)).toEqual(byPlace(card.data));
  });

  it('gives the gross margin of a period by place, item, brand, classification and user', async () => {
    const { admin } = started;
    const margins = async (by: string) => {
      const answer = await admin.send('GET', `/api/reports/margins?branch_id=${started.branch}&from=${day(1)}&to=${day(7)}&by=${by}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    // A: 5 sold for ₱1,000.00 that cost ₱500.00. B: 2 sold for ₱160.00 at ₱50.00, one back: ₱80.00 against ₱50.00.
    const total = { sales: 1080, cost_of_goods: 550, margin: 530, margin_percent: 49.07 };
    const byItem = await margins('item');
    expect(byItem).toMatchObject({ from: day(1), to: day(7), by: 'item', total, uncosted: 0 });
    expect(byItem.data).toEqual([
      {
        key: `item:${started.branded}`,
        name: 'Reported A',
        code: 'REP-A',
        sales: 1000,
        cost_of_goods: 500,
        margin: 500,
        margin_percent: 50,
      },
      { key: `item:${started.plain}`, name: 'Reported B', code: 'REP-B', sales: 80, cost_of_goods: 50, margin: 30, margin_percent: 37.5 },
    ]);
    expect((await margins('brand')).data.map((row: { name: string; margin: number }) => [row.name, row.margin])).toEqual([
      ['Reported Brand', 500],
      ['No brand', 30],
    ]);
    expect((await margins('classification')).data.map((row: { name: string; margin: number }) => [row.name, row.margin])).toEqual([
      ['Reported Class', 500],
      ['No classification', 30],
    ]);
    const byUser = await margins('user');
    expect(byUser.data).toHaveLength(1);
    expect(byUser.data[0]).toMatchObject({ name: expect.any(String), ...total });
    expect((await margins('place')).data).toEqual([{ key: `branch:${started.branch}`, name: 'Reports Branch', code: null, ...total }]);

    const csv = await admin.send('GET', `/api/reports/margins.csv?branch_id=${started.branch}&from=${day(1)}&to=${day(7)}&by=item`);
    expect(csv.status).toBe(200);
    expect(csvLines(csv.body as string)).toEqual([
      'Item code,Item,Sales,Cost of goods,Margin,Margin %',
      'REP-A,Reported A,1000.00,500.00,500.00,50.00',
      'REP-B,Reported B,80.00,50.00,30.00,37.50',
      ',Total,1080.00,550.00,530.00,49.07',
    ]);
  });

  it('is for those who see costs, and refuses what it cannot read', async () => {
    const { test, admin, businesses } = started;
    const cashier = await test.signIn('cashier@example.com', undefined, businesses[0]);
    const stocksOnly = await userWithPermissions(test, businesses[0], [...permissionsOn(['stocks', 'invoices'], ['view'])]);
    const costs = await userWithPermissions(test, businesses[0], [
      ...permissionsOn(['stocks', 'invoices'], ['view']),
      VIEW_COSTS_PERMISSION,
    ]);
    for (const path of ['stock-value', 'stock-value.csv', 'stock-value.pdf', 'margins', 'margins.csv']) {
      expect((await cashier.send('GET', `/api/reports/${path}`)).status, path).toBe(403);
      expect((await stocksOnly.session.send('GET', `/api/reports/${path}`)).status, path).toBe(403);
      expect((await costs.session.send('GET', `/api/reports/${path}`)).status, path).toBe(200);
    }
    for (const [query, field] of [
      ['stock-value?date=2026-02-30', 'date'],
      ['stock-value?branch_id=1&warehouse_id=1', 'warehouse_id'],
      ['stock-value?per_page=7', 'per_page'],
      ['stock-value?page=0', 'page'],
      ['margins?from=2026-03-02&to=2026-03-01', 'from'],
      ['margins?from=2024-01-01&to=2026-03-01', 'to'],
      ['margins?by=supplier', 'by'],
      ['margins?branch_id=x', 'branch_id'],
    ]) {
      const answer = await admin.send('GET', `/api/reports/${query}`);
      expect(answer.status, query).toBe(422);
      expect(Object.keys(answer.body.errors), query).toEqual([field]);
    }
  });
});
