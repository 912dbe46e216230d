import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';
import { auditDatabase } from './audit';

/** Stock adjustments through the API, on each database: signed lines with reasons, the ledger in the same transaction, a void once. */
describe.each(databaseKinds)('stock adjustments on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  let warehouseId: number;
  let item: { id: number; name: string; sku: string; unit_of_measurement_id: number };
  let other: typeof item;

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    warehouseId = (await admin.send('GET', '/api/warehouses?limit=1&order_by=asc')).body.data[0].id;
    [item, other] = (await admin.send('GET', '/api/items?limit=2&order_by=asc')).body.data;
  });
  afterAll(() => test.close());
  afterEach(async () => {
    expect(await auditDatabase(test.app.db)).toEqual([]);
  });

  const onHand = async (itemId = item.id) =>
    (await admin.send('GET', `/api/stocks?item_id=${itemId}&location_type=warehouse&location_id=${warehouseId}&is_strict=1`)).body.data[0]
      ?.quantity_on_hand ?? 0;
  const adjust = (lines: Record<string, unknown>[], session = admin) =>
    session.send('POST', '/api/stock-adjustments', { warehouse_id: warehouseId, date: '2026-11-20', lines });
  const line = (quantity: number, reason = 'found', target = item) => ({
    item_id: target.id,
    unit_of_measurement_id: target.unit_of_measurement_id,
    quantity,
    reason,
  });

  it('posts signed lines with their reasons, moving the stock at its place, and a void undoes it once', async () => {
    const before = await onHand();
    const otherBefore = await onHand(other.id);
    const posted = await adjust([
      line(7, 'found'),
      { ...line(-2, 'damaged', other) },
      { ...line(-1, 'other'), note: 'Sample for the buyer' },
    ]);
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.data).toMatchObject({ status: 'posted', number: expect.stringMatching(/^SA-20261120-W\d{5}-\d{8}$/) });
    expect(posted.body.data.lines.map((each: Record<string, unknown>) => [each.quantity, each.reason, each.note])).toEqual([
      [7, 'found', null],
      [-2, 'damaged', null],
      [-1, 'other', 'Sample for the buyer'],
    ]);
    expect(await onHand()).toBe(before + 6);
    expect(await onHand(other.id)).toBe(otherBefore - 2);
    const stock = (await admin.send('GET', `/api/stocks?item_id=${item.id}&location_type=warehouse&location_id=${warehouseId}&is_strict=1`))
      .body.data[0];
    const movements = (await admin.send('GET', `/api/stocks/${stock.id}/movements?per_page=100`)).body.data;
    const ours = movements.filter((movement: Record<string, unknown>) => movement.document_number === posted.body.data.number);
    expect(ours.map((movement: Record<string, unknown>) => [movement.document_resource, movement.quantity]).sort()).toEqual([
      ['stock-adjustments', -1],
      ['stock-adjustments', 7],
    ]);

    const id = posted.body.data.id;
    const voids = await Promise.all(Array.from({ length: 8 }, () => admin.send('PATCH', `/api/stock-adjustments/${id}/void`)));
    expect(voids.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await onHand()).toBe(before);
    expect(await onHand(other.id)).toBe(otherBefore);
    expect((await admin.send('GET', `/api/stock-adjustments/${id}`)).body.data.status).toBe('void');
  });

  it('refuses a decrease past what is on hand with a 409 naming the item, and writes nothing', async () => {
    const before = await onHand();
    const count = (await admin.send('GET', '/api/stock-adjustments')).body.meta.total;
    const refused = await adjust([line(3, 'found', other), line(-(before + 1), 'lost')]);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`Not enough ${item.name} (${item.sku}) in stock at `);
    expect(await onHand()).toBe(before);
    expect((await admin.send('GET', '/api/stock-adjustments')).body.meta.total).toBe(count);
  });

  it('names what is wrong with a line: no reason, a reason it does not know, zero, "other" without a note, a place', async () => {
    const refused = await adjust([
      { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1 },
      line(1, 'stolen'),
      line(0, 'found'),
      line(2, 'other'),
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({
      'lines.0.reason': ['The reason field is required.'],
      'lines.1.reason': [expect.stringContaining('The reason must be one of: damaged, expired, lost, found')],
      'lines.2.quantity': [expect.stringContaining('must not be 0')],
      'lines.3.note': ['Say what happened in the note when the reason is other.'],
    });
    const nowhere = await admin.send('POST', '/api/stock-adjustments', { date: '2026-11-20', lines: [line(1)] });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors.branch_id).toEqual(['The branch or warehouse field is required.']);
  });

  it('needs its own permissions, and a void needs the delete one', async () => {
    const { session, grant } = await userWithPermissions(test, businesses[0], ['view-stock-adjustments']);
    expect((await adjust([line(1)], session)).status).toBe(403);
    await grant(['view-stock-adjustments', 'create-stock-adjustments', 'view-items', 'view-warehouses']);
    const made = await adjust([line(1)], session);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await session.send('PATCH', `/api/stock-adjustments/${made.body.data.id}/void`)).status).toBe(403);
    expect((await admin.send('PATCH', `/api/stock-adjustments/${made.body.data.id}/void`)).status).toBe(200);
  });
});
