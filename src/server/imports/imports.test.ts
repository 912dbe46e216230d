import { describe, expect, it } from 'vitest';
import { databaseKinds, userWithPermissions } from '../../../tests/support/test-app';
import { startImporting } from '../../../tests/support/importing';
import { startedOnce } from '../../../tests/support/started';

/** Imports through the API, on each database: all or nothing, the same file twice, names looked up, opening stock posted. */
describe.each(databaseKinds)('imports on %s', (kind) => {
  const world = startedOnce(() => startImporting(kind), { errorLines: false });

  const send = (what: string, rows: Record<string, unknown>[], options: Record<string, unknown> = {}) =>
    world.admin.send('POST', `/api/imports/${what}`, { rows, ...options });
  const total = async (resource: string) => (await world.admin.send('GET', `/api/${resource}`)).body.meta.total;
  const items = (prefix: string, count: number, extra: Record<string, unknown> = {}) =>
    Array.from({ length: count }, (_, index) => ({
      sku: `${prefix}-${index + 1}`,
      name: `${prefix} item ${index + 1}`,
      unit: world.unit.abbreviation,
      brand: `${prefix} Brand`,
      vat_category: 'yes',
      reorder_level: '12',
      ...extra,
    }));

  it('makes the units a new business does not have yet', async () => {
    const made = await send('items', [{ sku: 'UNT-1', name: 'Sold by the tray', unit: 'tray' }]);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.made).toEqual(['Unit of Measurement tray']);
    expect((await world.admin.send('GET', '/api/items?sku=UNT-1&is_strict=1')).body.data[0].unit_of_measurement).toMatchObject({
      display: 'tray',
    });
  });

  it('imports items, making the brand they name, and the same file again skips or updates them, never twice', async () => {
    const before = await total('items');
    const rows = items('IMP', 3);
    const checked = await send('items', rows, { check_only: true });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.data).toMatchObject({ total: 3, created: 3, updated: 0, skipped: 0, problem_rows: 0, made: ['Brand IMP Brand'] });
    expect(await total('items')).toBe(before);

    const imported = await send('items', rows);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data).toMatchObject({ created: 3, made: ['Brand IMP Brand'] });
    expect(await total('items')).toBe(before + 3);
    const first = (await world.admin.send('GET', '/api/items?sku=IMP-1&is_strict=1')).body.data[0];
    expect(first).toMatchObject({ name: 'IMP item 1', vat_category: 'vatable', reorder_level: 12, brand: { display: 'IMP Brand' } });

    const again = await send('items', rows);
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, skipped: 3, made: [] });
    const renamed = await send('items', [{ ...rows[0], name: 'IMP item one' }], { on_existing: 'update' });
    expect(renamed.body.data).toMatchObject({ created: 0, updated: 1 });
    expect((await world.admin.send('GET', `/api/items/${first.id}`)).body.data).toMatchObject({ name: 'IMP item one', version: 2 });
    expect(await total('items')).toBe(before + 3);
    expect((await world.admin.send('GET', '/api/brands?name=IMP Brand&is_strict=1')).body.meta.total).toBe(1);
  });

  it('writes nothing when a row has a problem, and names each such row of the file', async () => {
    const before = await total('items');
    const rows = [
      ...items('BAD', 3),
      { sku: 'BAD-4', name: 'Bad four', unit: 'a unit nobody ever heard of', vat_category: 'maybe', reorder_level: 'ten' },
    ];
    rows[1] = { ...rows[1], sku: 'BAD-1' };
    const refused = await send('items', rows);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('2 rows have problems: nothing was imported.');
    expect(refused.body.errors['rows.3']).toEqual(['SKU BAD-1 is on row 2 too.']);
    expect(refused.body.errors['rows.5']).toEqual(
      expect.arrayContaining([
        'Unit: no unit is named “a unit nobody ever heard of”, and a new one cannot be named so: the abbreviation field must not be greater than 20 characters.',
        'VAT: “maybe” is none of VATable, VAT-exempt, zero-rated (or yes, no).',
        'Reorder level: “ten” is not a number.',
      ]),
    );
    expect(await total('items')).toBe(before);
    expect((await world.admin.send('GET', '/api/brands?name=BAD Brand&is_strict=1')).body.meta.total).toBe(0);
    expect((await send('items', [])).status).toBe(422);
    expect((await world.admin.send('POST', '/api/imports/widgets', { rows: [{ a: 1 }] })).status).toBe(422);
  });

  it('imports contacts by their type, and prices by item SKU, supplier or branch, unit and date', async () => {
    const contacts = [
      { name: 'Import Supplier Co.', type: 'Supplier', tin: '123-456-789-000', credit_limit: '₱50,000.00' },
      { name: 'Import Customer', type: 'customer', mobile: '0917 555 0101' },
    ];
    const imported = await send('contacts', contacts);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data.created).toBe(2);
    expect((await send('contacts', contacts)).body.data).toMatchObject({ created: 0, skipped: 2 });
    expect((await send('contacts', [{ name: 'Nobody', type: 'Friend' }])).body.errors['rows.2']).toEqual([
      'Type: no contact type is named “Friend”.',
    ]);

    await send('items', items('PRC', 1));
    const prices = [{ sku: 'PRC-1', supplier: 'Import Supplier Co.', unit: world.unit.name, price: '9.75', effective_date: '2026-12-01' }];
    const priced = await send('purchase-prices', prices);
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.data.created).toBe(1);
    expect((await send('purchase-prices', [{ ...prices[0], price: '10.25' }], { on_existing: 'update' })).body.data.updated).toBe(1);
    const item = (await world.admin.send('GET', '/api/items?sku=PRC-1&is_strict=1')).body.data[0];
    const listed = (await world.admin.send('GET', `/api/purchase-item-prices?item_id=${item.id}`)).body.data;
    expect(listed.map((price: { price: number }) => price.price)).toEqual([10.25]);
    const sale = await send('sale-prices', [{ sku: 'PRC-1', unit: world.unit.abbreviation, price: '15', effective_date: '2026-12-01' }]);
    expect(sale.body.data.created).toBe(1);
    expect(
      (await send('sale-prices', [{ sku: 'NONE', unit: 'x', price: 'abc', effective_date: '1/12/2026' }])).body.errors['rows.2'],
    ).toEqual(expect.arrayContaining(['Item SKU: no item has the SKU “NONE”.', 'Price: “abc” is not an amount.']));
  });

  it('posts opening stock in one adjustment per place, and again only the difference, never twice', async () => {
    await send('items', items('OPN', 2));
    const row = (sku: string, quantity: string) => ({ sku, place: world.warehouse.name, quantity, unit_cost: '8.50' });
    const onHand = async (sku: string) => {
      const item = (await world.admin.send('GET', `/api/items?sku=${sku}&is_strict=1`)).body.data[0];
      const stock = (
        await world.admin.send(
          'GET',
          `/api/stocks?item_id=${item.id}&location_type=warehouse&location_id=${world.warehouse.id}&is_strict=1`,
        )
      ).body.data[0];
      return stock?.quantity_on_hand ?? 0;
    };
    const posted = await send('opening-stock', [row('OPN-1', '48'), row('OPN-2', '12.5')]);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data).toMatchObject({ created: 2, adjustments: [{ number: expect.stringMatching(/^SA-/) }] });
    expect(await onHand('OPN-1')).toBe(48);
    expect(await onHand('OPN-2')).toBe(12.5);
    const adjustment = (await world.admin.send('GET', `/api/stock-adjustments/${posted.body.data.adjustments[0].id}`)).body.data;
    // Each line takes its unit cost as the adjustment's input, and moves no money.
    expect(adjustment.lines.map((line: Record<string, unknown>) => [line.quantity, line.reason, line.unit_price, line.amount])).toEqual([
      [48, 'opening_balance', 8.5, 0],
      [12.5, 'opening_balance', 8.5, 0],
    ]);

    expect((await send('opening-stock', [row('OPN-1', '48')])).body.data).toMatchObject({ created: 0, skipped: 1, adjustments: [] });
    const corrected = await send('opening-stock', [row('OPN-1', '50'), row('OPN-2', '12.5')], { on_existing: 'update' });
    expect(corrected.body.data).toMatchObject({ created: 1, unchanged: 1, skipped: 0 });
    expect(await onHand('OPN-1')).toBe(50);
    const refused = await send('opening-stock', [{ sku: 'OPN-1', place: 'Nowhere', quantity: '0' }]);
    expect(refused.body.errors['rows.2']).toEqual([
      'Warehouse or branch: none is named “Nowhere”.',
      'Quantity: “0” is not a quantity above 0.',
    ]);
  });

  it('makes and changes an item as its form does: the same history, the same counts', async () => {
    const brand = (await world.admin.send('POST', '/api/brands', { name: 'Form Or File Brand' })).body.data;
    const history = async (id: number) =>
      (await world.admin.send('GET', `/api/activity?resource=items&record_id=${id}`)).body.data.map(
        ({ action, summary, changes }: Record<string, unknown>) => ({
          action,
          summary,
          changes: { ...(changes as object), sku: undefined },
        }),
      );
    const before = await total('items');
    const form = await world.admin.send('POST', '/api/items', {
      sku: 'HIS-FORM',
      name: 'Same either way',
      unit_of_measurement_id: world.unit.id,
      brand_id: brand.id,
      vat_category: 'exempt',
      sc_pwd_discount: true,
      reorder_level: 6,
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const row = { sku: 'HIS-FILE', name: 'Same either way', unit: world.unit.abbreviation, brand: brand.name, vat_category: 'exempt' };
    expect((await send('items', [{ ...row, sc_pwd_discount: 'yes', reorder_level: '6' }])).status).toBe(200);
    const file = (await world.admin.send('GET', '/api/items?sku=HIS-FILE&is_strict=1')).body.data[0];
    expect(await total('items')).toBe(before + 2);
    expect(await history(file.id)).toEqual(await history(form.body.data.id));

    expect(
      (await world.admin.send('PATCH', `/api/items/${form.body.data.id}`, { name: 'Renamed either way', reorder_level: 12 })).status,
    ).toBe(200);
    const renamed = await send('items', [{ sku: 'HIS-FILE', name: 'Renamed either way', reorder_level: '12' }], { on_existing: 'update' });
    expect(renamed.body.data).toMatchObject({ updated: 1 });
    const changed = await history(file.id);
    expect(changed).toEqual(await history(form.body.data.id));
    expect(changed[0]).toMatchObject({
      action: 'updated',
      changes: { name: { to: 'Renamed either way' }, reorder_level: { from: 6, to: 12 } },
    });
    expect(await total('items')).toBe(before + 2);
  });

  it('rolls the whole import back for one refused row: no record, brand, history entry or count of it stays', async () => {
    const activity = async () => (await world.admin.send('GET', '/api/activity')).body.meta.total;
    const [itemsBefore, brandsBefore, activityBefore] = [await total('items'), await total('brands'), await activity()];
    const rows = [...items('RBK', 1200), { sku: 'RBK-1', name: 'The first SKU again', unit: world.unit.abbreviation }];
    const refused = await send('items', rows);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ 'rows.1202': ['SKU RBK-1 is on row 2 too.'] });
    expect([await total('items'), await total('brands'), await activity()]).toEqual([itemsBefore, brandsBefore, activityBefore]);
    expect((await world.admin.send('GET', '/api/items?sku=RBK-1200&is_strict=1')).body.meta.total).toBe(0);
  });

  it('needs the permission to create what it imports, and to update it when it updates', async () => {
    const { session, grant } = await userWithPermissions(world.test, world.businesses[0], ['view-items']);
    const rows = items('PRM', 1);
    expect((await session.send('POST', '/api/imports/items', { rows })).status).toBe(403);
    await grant(['view-items', 'create-items']);
    expect((await session.send('POST', '/api/imports/items', { rows, check_only: true })).status).toBe(200);
    expect((await session.send('POST', '/api/imports/items', { rows, on_existing: 'update' })).status).toBe(403);
    expect((await session.send('POST', '/api/imports/opening-stock', { rows: [{ sku: 'x' }] })).status).toBe(403);
  });
});
