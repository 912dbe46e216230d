import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseKinds, userWithPermissions } from '../../../tests/support/test-app';
import { startImporting } from '../../../tests/support/importing';
import { startedOnce } from '../../../tests/support/started';

/**
 * Imports are writes like any other: the same file sent at once from several tabs applies once
 * (on PostgreSQL, where the requests truly run together), every value is checked by the form's
 * rules, an update changes only what the file gives, and a check refuses, row by row, exactly what
 * the import would refuse.
 */
describe.each(databaseKinds)('import safety on %s', (kind) => {
  const world = startedOnce(() => startImporting(kind), { errorLines: false });

  /** Each send with a key of its own, as two tabs or a re-click with a new key would. */
  const send = (what: string, rows: Record<string, unknown>[], options: Record<string, unknown> = {}, session = world.admin) =>
    session.send('POST', `/api/imports/${what}`, { rows, ...options }, { 'idempotency-key': randomUUID() });
  const item = (sku: string, extra: Record<string, unknown> = {}) => ({
    sku,
    name: `Item ${sku}`,
    unit: world.unit.abbreviation,
    ...extra,
  });
  const itemBySku = async (sku: string) => (await world.admin.send('GET', `/api/items?sku=${sku}&is_strict=1`)).body.data[0];
  const onHand = async (sku: string) => {
    const found = await itemBySku(sku);
    const stock = (
      await world.admin.send('GET', `/api/stocks?item_id=${found.id}&location_type=warehouse&location_id=${world.warehouse.id}&is_strict=1`)
    ).body.data[0];
    return stock?.quantity_on_hand ?? 0;
  };
  const openingLines = async (sku: string) => {
    const found = await itemBySku(sku);
    return world.test.app.db
      .selectFrom('document_lines')
      .select(['base_quantity'])
      .where('document_type', '=', 'stock-adjustment')
      .where('reason', '=', 'opening_balance')
      .where('item_id', '=', found.id)
      .execute();
  };

  it('posts the same opening stock sent twice, or four times, at once only once', async () => {
    expect((await send('items', [item('PAR-1'), item('PAR-2')])).status).toBe(200);
    const rows = [{ sku: 'PAR-1', place: world.warehouse.name, quantity: '10' }];
    const twice = await Promise.all([send('opening-stock', rows), send('opening-stock', rows)]);
    expect(twice.map((answer) => answer.status)).toEqual([200, 200]);
    expect(twice.map((answer) => answer.body.data.created).sort()).toEqual([0, 1]);
    expect(await onHand('PAR-1')).toBe(10);

    const four = [{ sku: 'PAR-2', place: world.warehouse.name, quantity: '10' }];
    await Promise.all([1, 2, 3, 4].map(() => send('opening-stock', four)));
    expect(await onHand('PAR-2')).toBe(10);
    expect(await openingLines('PAR-2')).toHaveLength(1);
  });

  it('corrects an opening balance sent four times at once to one of the quantities sent, its lines adding up to it', async () => {
    expect((await send('items', [item('PAR-3')])).status).toBe(200);
    await send('opening-stock', [{ sku: 'PAR-3', place: world.warehouse.name, quantity: '10' }]);
    const answers = await Promise.all(
      ['20', '30', '40', '50'].map((quantity) =>
        send('opening-stock', [{ sku: 'PAR-3', place: world.warehouse.name, quantity }], { on_existing: 'update' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const held = await onHand('PAR-3');
    expect([20, 30, 40, 50]).toContain(held);
    const lines = await openingLines('PAR-3');
    expect(lines.reduce((total, line) => total + Number(line.base_quantity), 0) / 1000).toBe(held);
  });

  it('writes contacts, purchase prices and sale prices sent four times at once only once', async () => {
    await send('items', [item('PAR-4')]);
    const contact = [{ name: 'Parallel Supplier Inc.', type: 'Supplier' }];
    await Promise.all([1, 2, 3, 4].map(() => send('contacts', contact)));
    expect((await world.admin.send('GET', '/api/contacts?name=Parallel Supplier Inc.&is_strict=1')).body.meta.total).toBe(1);

    const purchase = [
      { sku: 'PAR-4', supplier: 'Parallel Supplier Inc.', unit: world.unit.name, price: '9.75', effective_date: '2026-12-01' },
    ];
    const sale = [{ sku: 'PAR-4', unit: world.unit.name, price: '15', effective_date: '2026-12-01' }];
    await Promise.all([1, 2, 3, 4].flatMap(() => [send('purchase-prices', purchase), send('sale-prices', sale)]));
    const id = (await itemBySku('PAR-4')).id;
    expect((await world.admin.send('GET', `/api/purchase-item-prices?item_id=${id}`)).body.meta.total).toBe(1);
    expect((await world.admin.send('GET', `/api/sale-item-prices?item_id=${id}`)).body.meta.total).toBe(1);

    const items = [item('PAR-5'), item('PAR-6')];
    await Promise.all([1, 2, 3, 4].map(() => send('items', items)));
    expect((await world.admin.send('GET', '/api/items?q=PAR-5')).body.meta.total).toBe(1);
  });

  it('refuses a unit cost beyond the money limit, or not a number, as a form would, in Check as in Import', async () => {
    await send('items', [item('CST-1'), item('CST-2'), item('CST-3')]);
    const rows = [
      { sku: 'CST-1', place: world.warehouse.name, quantity: '1', unit_cost: '1e308' },
      { sku: 'CST-2', place: world.warehouse.name, quantity: '1', unit_cost: '9'.repeat(400) },
      { sku: 'CST-3', place: world.warehouse.name, quantity: '1', unit_cost: '10000000000000' },
    ];
    const checked = await send('opening-stock', rows, { check_only: true });
    expect(checked.status).toBe(200);
    expect(checked.body.data.problem_rows).toBe(3);
    expect(checked.body.data.problems).toEqual([
      { row: 2, messages: ['Unit cost: “1e308” is not an amount.'] },
      { row: 3, messages: [expect.stringMatching(/^Unit cost: “9{57}…” is not an amount\.$/)] },
      { row: 4, messages: ['Unit cost: “10000000000000”: The unit price field must not be greater than 1000000000.'] },
    ]);
    const imported = await send('opening-stock', rows);
    expect(imported.status).toBe(422);
    expect(Object.keys(imported.body.errors)).toEqual(['rows.2', 'rows.3', 'rows.4']);
    expect(await onHand('CST-1')).toBe(0);
  });

  it('updates only the columns the file gives, each change in the history, and Check says which fields change', async () => {
    const brand = (await world.admin.send('POST', '/api/brands', { name: 'Keep This Brand' })).body.data;
    const created = await world.admin.send('POST', '/api/items', {
      sku: 'UPD-1',
      name: 'Biogesic 500mg',
      unit_of_measurement_id: world.unit.id,
      brand_id: brand.id,
      vat_category: 'exempt',
      sc_pwd_discount: true,
      reorder_level: 24,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rows = [{ sku: 'UPD-1', name: 'Biogesic 500mg tablet' }];
    const checked = await send('items', rows, { on_existing: 'update', check_only: true });
    expect(checked.body.data.problems).toEqual([]);
    expect(checked.body.data).toMatchObject({ updated: 1, unchanged: 0, changes: [{ field: 'Name', records: 1 }] });

    expect((await send('items', rows, { on_existing: 'update' })).status).toBe(200);
    const after = (await world.admin.send('GET', `/api/items/${created.body.data.id}`)).body.data;
    expect(after).toMatchObject({
      name: 'Biogesic 500mg tablet',
      brand_id: brand.id,
      vat_category: 'exempt',
      sc_pwd_discount: true,
      reorder_level: 24,
      version: 2,
    });
    const history = (await world.admin.send('GET', `/api/activity?resource=items&record_id=${created.body.data.id}`)).body.data;
    expect(history[0]).toMatchObject({ action: 'updated', changes: { name: { from: 'Biogesic 500mg', to: 'Biogesic 500mg tablet' } } });

    // Blank cells of a given column keep what is there too; the same file again changes nothing.
    const again = await send('items', [{ sku: 'UPD-1', name: 'Biogesic 500mg tablet', brand: '', vat_category: '' }], {
      on_existing: 'update',
    });
    expect(again.body.data).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('refuses to change the base unit of an item that holds stock', async () => {
    const other = (await world.admin.send('POST', '/api/unit-of-measurements', { name: 'Case of 24', abbreviation: 'cs24' })).body.data;
    await send('items', [item('BSU-1'), item('BSU-2')]);
    await send('opening-stock', [{ sku: 'BSU-1', place: world.warehouse.name, quantity: '10' }]);
    const refused = await send('items', [item('BSU-1', { unit: other.abbreviation }), item('BSU-2', { unit: other.abbreviation })], {
      on_existing: 'update',
      check_only: true,
    });
    expect(refused.body.data.problems).toEqual([
      { row: 2, messages: [expect.stringMatching(/^Unit: Its base unit is fixed: 10 \S+ on hand at /)] },
    ]);
    expect((await send('items', [item('BSU-2', { unit: other.abbreviation })], { on_existing: 'update' })).status).toBe(200);
    expect((await itemBySku('BSU-1')).unit_of_measurement_id).toBe(world.unit.id);
  });

  it('checks a file that mixes every refusal exactly as the import refuses it, row by row', async () => {
    const caseUnit = (await world.admin.send('POST', '/api/unit-of-measurements', { name: 'Carton', abbreviation: 'ctn' })).body.data;
    await send('items', [item('MIX-1'), item('MIX-2'), item('MIX-4'), item('MIX-T', { barcode: '4800000000991' })]);
    const trashed = await itemBySku('MIX-T');
    expect((await world.admin.send('DELETE', `/api/items/${trashed.id}`)).status).toBe(200);

    const stock = [
      { sku: 'MIX-1', place: world.warehouse.name, quantity: '5', unit: caseUnit.abbreviation },
      { sku: 'MIX-2', place: world.warehouse.name, quantity: '2000000000000' },
      { sku: 'MIX-4', place: world.warehouse.name, quantity: '0.0004' },
    ];
    const checked = await send('opening-stock', stock, { check_only: true });
    const imported = await send('opening-stock', stock);
    expect(imported.status).toBe(422);
    expect(checked.body.data.problems.map((problem: { row: number }) => `rows.${problem.row}`)).toEqual(Object.keys(imported.body.errors));
    for (const problem of checked.body.data.problems) expect(imported.body.errors[`rows.${problem.row}`]).toEqual(problem.messages);
    expect(checked.body.data.problems[0].messages[0]).toMatch(/^Unit: .* no conversion takes “ctn” to it/);
    expect(checked.body.data.problems[1].messages[0]).toMatch(/^Quantity: “2000000000000”/);
    expect(checked.body.data.problems[2].messages[0]).toMatch(/^Quantity: “0.0004”/);

    const items = [item('MIX-T', { name: 'Trashed SKU again' }), item('MIX-3', { barcode: '4800000000991' })];
    const itemsChecked = await send('items', items, { check_only: true });
    const itemsImported = await send('items', items);
    expect(itemsImported.status).toBe(422);
    expect(itemsChecked.body.data.problems).toEqual([
      { row: 2, messages: ['SKU MIX-T is an item in the trash: restore it there, or give this row another SKU.'] },
      { row: 3, messages: ['Barcode 4800000000991 is already item MIX-T’s (in the trash).'] },
    ]);
    expect(Object.keys(itemsImported.body.errors)).toEqual(['rows.2', 'rows.3']);
  });

  it('says which new units it would make, and one close to a unit already there', async () => {
    const checked = await send('items', [item('MKS-1', { unit: 'pcs' }), item('MKS-2', { unit: 'tray' })], { check_only: true });
    expect(checked.status).toBe(200);
    expect(checked.body.data.made).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Unit of Measurement pcs — did you mean “.+”\?$/), 'Unit of Measurement tray']),
    );
    expect((await world.admin.send('GET', '/api/unit-of-measurements?name=tray&is_strict=1')).body.meta.total).toBe(0);
  });

  it('makes a brand, unit, type or classification only for a user who may create it, and only under a name a form would take', async () => {
    const { session } = await userWithPermissions(world.test, world.businesses[0], [
      'view-items',
      'create-items',
      'view-unit-of-measurements',
    ]);
    const refused = await send('items', [item('PRM-1', { brand: 'Brand Nobody Made' })], {}, session);
    expect(refused.status).toBe(422);
    expect(refused.body.errors['rows.2']).toEqual(['Brand: no brand is named “Brand Nobody Made”, and you may not create brands.']);
    expect((await world.admin.send('GET', '/api/brands?name=Brand Nobody Made&is_strict=1')).body.meta.total).toBe(0);

    const names = await send('items', [
      item('NAM-1', { brand: 'Bad\u0000Brand' }),
      item('NAM-2', { item_type: 'x'.repeat(300) }),
      item('NAM-3', { item_classification: 'Tab\u0007bed' }),
    ]);
    expect(names.status).toBe(422);
    expect(Object.keys(names.body.errors)).toEqual(['rows.2', 'rows.3', 'rows.4']);
    expect(names.body.errors['rows.2'][0]).toMatch(/^Brand: no brand is named .*cannot be named so: the name field contains characters/);
    expect(names.body.errors['rows.3'][0]).toMatch(/^Item type: .*must not be greater than 255 characters/);
  });

  it('keeps a contact’s TIN and email as the form keeps them, and refuses what the form refuses', async () => {
    const made = await send('contacts', [
      { name: 'Normal Form Trading', type: 'Customer', tin: '123 456 789 00000', email: 'Ana@Example.PH' },
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const contact = (await world.admin.send('GET', '/api/contacts?name=Normal Form Trading&is_strict=1')).body.data[0];
    expect(contact).toMatchObject({ tin: '123-456-789-00000', email: 'ana@example.ph' });
    const refused = await send('contacts', [
      { name: 'Bad TIN', type: 'Customer', tin: '12345', email: 'not an email', credit_limit: '10000000000000' },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors['rows.2']).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TIN: /),
        expect.stringMatching(/^Email: /),
        expect.stringMatching(/^Credit limit: /),
      ]),
    );
  });

  it('refuses a purchase price whose supplier is a customer', async () => {
    await send('items', [item('SUP-1')]);
    await send('contacts', [{ name: 'Only A Customer', type: 'Customer' }]);
    const refused = await send('purchase-prices', [
      { sku: 'SUP-1', supplier: 'Only A Customer', unit: world.unit.name, price: '5', effective_date: '2026-12-01' },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors['rows.2']).toEqual(['Supplier: Only A Customer is a customer, not a supplier: pick a supplier.']);
  });
});
