import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceAccess } from '../../domain/places';
import { databaseKinds, firstOf, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';
import { auditAfterEach } from '../../../tests/support/audited';

/**
 * Imports follow the user's places, on each database: a row writing at a place (opening stock at a
 * warehouse or branch, a sale price for a branch) needs `operate` there, a price for every branch
 * needs every place, and a place the user does not view is only said not to be theirs. The check
 * refuses exactly the rows the import refuses.
 */
describe.each(databaseKinds)('imports at the user’s places on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  let clerk: Session;
  const places: Record<string, number> = {};

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    for (const resource of ['branches', 'warehouses']) {
      for (const place of (await admin.send('GET', `/api/${resource}`)).body.data) places[place.name] = place.id;
    }
    const unit = await firstOf(admin, 'unit-of-measurements');
    const made = await admin.send('POST', '/api/imports/items', {
      rows: ['PLC-1', 'PLC-2'].map((sku) => ({ sku, name: `Placed ${sku}`, unit: unit.abbreviation })),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // Operates at Makati and Valenzuela Central, views Quezon City; Cebu and Mandaue are not theirs.
    const access: PlaceAccess = {
      all: null,
      grants: [
        { type: 'branch', id: places.Makati, level: 'operate' },
        { type: 'branch', id: places['Quezon City'], level: 'view' },
        { type: 'warehouse', id: places['Valenzuela Central'], level: 'operate' },
      ],
    };
    const permissions = ['create-stock-adjustments', 'create-sale-item-prices', 'update-sale-item-prices', 'view-sale-item-prices'];
    ({ session: clerk } = await userWithPermissions(test, businesses[0], permissions, access));
  });
  afterAll(() => test.close());
  auditAfterEach(() => test);

  /** The check and the import of the same rows: the check's problems by row, and the import's answer. */
  const checkAndImport = async (what: string, rows: Record<string, unknown>[], options: Record<string, unknown> = {}) => {
    const checked = await clerk.send('POST', `/api/imports/${what}`, { rows, ...options, check_only: true });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const imported = await clerk.send('POST', `/api/imports/${what}`, { rows, ...options });
    const problems = Object.fromEntries(
      (checked.body.data.problems as { row: number; messages: string[] }[]).map((problem) => [`rows.${problem.row}`, problem.messages]),
    );
    return { checked: checked.body.data, problems, imported };
  };
  const adjustments = async () => (await admin.send('GET', '/api/stock-adjustments')).body.meta.total;
  const salePrices = async () => (await admin.send('GET', '/api/sale-item-prices')).body.meta.total;

  it('posts opening stock only where the user operates, refusing each other row by its place, in the check as in the import', async () => {
    const before = await adjustments();
    const row = (sku: string, place: string) => ({ sku, place, quantity: '10', unit_cost: '5' });
    const rows = [
      row('PLC-1', 'Makati'),
      row('PLC-1', 'Quezon City'),
      row('PLC-1', 'Cebu'),
      row('PLC-2', 'WH-CEB'),
      row('PLC-2', 'Valenzuela Central'),
    ];
    const { checked, problems, imported } = await checkAndImport('opening-stock', rows);
    const expected = {
      'rows.3': ['Warehouse or branch: you do not operate at “Quezon City”; only someone who operates there posts its opening stock.'],
      'rows.4': ['Warehouse or branch: “Cebu” is not one of your places.'],
      'rows.5': ['Warehouse or branch: “WH-CEB” is not one of your places.'],
    };
    expect(problems).toEqual(expected);
    expect(checked).toMatchObject({ total: 5, problem_rows: 3 });
    expect(imported.status).toBe(422);
    expect(imported.body.message).toBe('3 rows have problems: nothing was imported.');
    expect(imported.body.errors).toEqual(expected);
    expect(await adjustments()).toBe(before);

    // The rows at their own places go in, one adjustment per place.
    const { checked: ready, imported: posted } = await checkAndImport('opening-stock', [rows[0], rows[4]]);
    expect(ready).toMatchObject({ created: 2, problem_rows: 0 });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data).toMatchObject({ created: 2, problem_rows: 0 });
    expect(posted.body.data.adjustments).toHaveLength(2);
    expect(await adjustments()).toBe(before + 2);
  });

  it('tells nothing more of a place the user does not view, not even that it was opened there before', async () => {
    // Cebu has an opening balance of PLC-1 already, posted by the admin.
    expect(
      (await admin.send('POST', '/api/imports/opening-stock', { rows: [{ sku: 'PLC-1', place: 'Cebu', quantity: '40' }] })).status,
    ).toBe(200);
    // To bring it down to 1 would take 39 away, and a different unit would not do: neither is said.
    const other = (await admin.send('POST', '/api/unit-of-measurements', { name: 'Placed box', abbreviation: 'plbx' })).body.data;
    for (const row of [
      { sku: 'PLC-1', place: 'Cebu', quantity: '1' },
      { sku: 'PLC-1', place: 'Cebu', quantity: '1', unit: other.abbreviation },
    ]) {
      const { problems, imported } = await checkAndImport('opening-stock', [row], { on_existing: 'update' });
      expect(problems).toEqual(imported.body.errors);
      expect(problems['rows.2'].filter((message: string) => message.startsWith('Warehouse or branch'))).toEqual([
        'Warehouse or branch: “Cebu” is not one of your places.',
      ]);
      expect(JSON.stringify(problems)).not.toMatch(/on hand|opening balance here/);
    }
    // Skipped or not, a refused row is a problem rather than a count.
    const skipped = await checkAndImport('opening-stock', [{ sku: 'PLC-1', place: 'Cebu', quantity: '40' }]);
    expect(skipped.checked).toMatchObject({ skipped: 0, unchanged: 0, problem_rows: 1 });
    expect(skipped.imported.status).toBe(422);
  });

  it('imports a sale price only for a branch the user operates at, and one for every branch only with every place', async () => {
    const before = await salePrices();
    const unit = (await admin.send('GET', '/api/items?sku=PLC-1&is_strict=1')).body.data[0].unit_of_measurement.display;
    const row = (sku: string, branch: string) => ({ sku, branch, unit, price: '12.50', effective_date: '2031-01-01' });
    const rows = [row('PLC-1', 'MKT'), row('PLC-1', 'Quezon City'), row('PLC-1', 'CEB'), row('PLC-2', '')];
    const { problems, imported } = await checkAndImport('sale-prices', rows);
    const expected = {
      'rows.3': ['Branch: you do not operate at “Quezon City”; only someone who operates there imports its prices.'],
      'rows.4': ['Branch: “CEB” is not one of your places.'],
      'rows.5': [
        'Branch: left blank, it is a sale item price for every branch, which only someone who operates at every place may import.',
      ],
    };
    expect(problems).toEqual(expected);
    expect(imported.status).toBe(422);
    expect(imported.body.errors).toEqual(expected);
    expect(await salePrices()).toBe(before);

    const { checked, imported: priced } = await checkAndImport('sale-prices', [rows[0]]);
    expect(checked).toMatchObject({ created: 1, problem_rows: 0 });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(await salePrices()).toBe(before + 1);

    // An update of a price kept at a branch they only view is refused the same way, and changes nothing.
    expect((await admin.send('POST', '/api/imports/sale-prices', { rows: [rows[1]] })).status).toBe(200);
    const update = await checkAndImport('sale-prices', [{ ...rows[1], price: '99' }], { on_existing: 'update' });
    expect(update.problems).toEqual({ 'rows.2': expected['rows.3'] });
    expect(update.imported.body.errors).toEqual({ 'rows.2': expected['rows.3'] });
    const kept = await admin.send('GET', `/api/sale-item-prices?branch_id=${places['Quezon City']}&is_strict=1`);
    expect(kept.body.data.map((price: { price: number }) => price.price)).toEqual([12.5]);

    // Someone holding every place to operate imports a price for every branch.
    const everywhere = await userWithPermissions(test, businesses[0], ['create-sale-item-prices'], { all: 'operate', grants: [] });
    const all = await everywhere.session.send('POST', '/api/imports/sale-prices', { rows: [rows[3]] });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.created).toBe(1);
  });
});
