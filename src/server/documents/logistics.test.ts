import { afterEach, describe, expect, it } from 'vitest';
import { betweenPlaces, databaseKinds, firstOf, startDemo, stockLevel } from '../../../tests/support/test-app';
import { startedOnce } from '../../../tests/support/started';
import { ledgerDiscrepancies } from './ledger';

/** Logistics through the API, on each database: request → transfer (out of the source, in transit) → receives (on hand at the destination). */
describe.each(databaseKinds)('logistics on %s', (kind) => {
  const world = startedOnce(async () => {
    const demo = await startDemo(kind);
    const warehouseId: number = (await firstOf(demo.admin, 'warehouses')).id;
    const branchId: number = (await firstOf(demo.admin, 'branches')).id;
    const item: { id: number; unit_of_measurement_id: number } = await firstOf(demo.admin, 'items');
    return { ...demo, warehouseId, branchId, item };
  }, false);
  afterEach(async () => {
    expect(await ledgerDiscrepancies(world.test.app.db)).toEqual([]);
  });

  const stock = (type: 'warehouse' | 'branch', id: number) => stockLevel(world.admin, world.item.id, { type, id });
  const ends = () => betweenPlaces({ type: 'warehouse', id: world.warehouseId }, { type: 'branch', id: world.branchId });

  it('requests, transfers part of it, receives it in two parts, and the stock and statuses follow', async () => {
    const warehouseBefore = await stock('warehouse', world.warehouseId);
    const branchBefore = await stock('branch', world.branchId);
    const request = await world.admin.send('POST', '/api/stock-requests', {
      ...ends(),
      date: '2026-11-14',
      needed_by: '2026-11-16',
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: 10 }],
    });
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    expect(request.body.data).toMatchObject({ status: 'pending', number: expect.stringMatching(/^SR-20261114-W\d{5}-\d{8}$/) });
    expect(request.body.data.from_location).toMatchObject({ id: world.warehouseId, display: expect.any(String) });

    const transfer = await world.admin.send('POST', '/api/stock-transfers', {
      ...ends(),
      stock_request_id: request.body.data.id,
      date: '2026-11-15',
      lines: [{ source_line_id: request.body.data.lines[0].id, quantity: 6 }],
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    expect(transfer.body.data.status).toBe('in_transit');
    expect(await stock('warehouse', world.warehouseId)).toEqual({ ...warehouseBefore, onHand: warehouseBefore.onHand - 6 });
    expect(await stock('branch', world.branchId)).toEqual({ onHand: branchBefore.onHand, inTransit: branchBefore.inTransit + 6 });
    expect((await world.admin.send('GET', `/api/stock-requests/${request.body.data.id}`)).body.data.status).toBe('partially_transferred');

    const receive = (quantity: number) =>
      world.admin.send('POST', '/api/stock-receives', {
        stock_transfer_id: transfer.body.data.id,
        date: '2026-11-16',
        lines: [{ source_line_id: transfer.body.data.lines[0].id, quantity }],
      });
    const first = await receive(4);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ from_location_id: world.warehouseId, to_location_id: world.branchId, status: 'received' });
    expect(await stock('branch', world.branchId)).toEqual({ onHand: branchBefore.onHand + 4, inTransit: branchBefore.inTransit + 2 });
    expect((await world.admin.send('GET', `/api/stock-transfers/${transfer.body.data.id}`)).body.data.status).toBe('partially_received');
    expect((await receive(3)).status).toBe(422);
    expect((await world.admin.send('PATCH', `/api/stock-transfers/${transfer.body.data.id}/void`)).status).toBe(409);

    expect((await receive(2)).status).toBe(201);
    expect(await stock('branch', world.branchId)).toEqual({ onHand: branchBefore.onHand + 6, inTransit: branchBefore.inTransit });
    expect((await world.admin.send('GET', `/api/stock-transfers/${transfer.body.data.id}`)).body.data.status).toBe('received');

    // Voiding a receipt puts the goods back in transit.
    expect((await world.admin.send('PATCH', `/api/stock-receives/${first.body.data.id}/void`)).status).toBe(200);
    expect(await stock('branch', world.branchId)).toEqual({ onHand: branchBefore.onHand + 2, inTransit: branchBefore.inTransit + 4 });
    expect((await world.admin.send('GET', `/api/stock-transfers/${transfer.body.data.id}`)).body.data.status).toBe('partially_received');
  });

  it('returns received goods: a transfer made from the return carries them back', async () => {
    const transfer = await world.admin.send('POST', '/api/stock-transfers', {
      ...ends(),
      date: '2026-11-15',
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: 5 }],
    });
    const line = transfer.body.data.lines[0];
    await world.admin.send('POST', '/api/stock-receives', {
      stock_transfer_id: transfer.body.data.id,
      date: '2026-11-16',
      lines: [{ source_line_id: line.id, quantity: 5 }],
    });
    const branchBefore = await stock('branch', world.branchId);
    const warehouseBefore = await stock('warehouse', world.warehouseId);

    const back = (quantity: number) =>
      world.admin.send('POST', '/api/stock-returns', {
        stock_transfer_id: transfer.body.data.id,
        reason: 'Dented cans',
        date: '2026-11-17',
        lines: [{ source_line_id: line.id, quantity }],
      });
    expect((await back(6)).status).toBe(422);
    const goingBack = await back(3);
    expect(goingBack.status, JSON.stringify(goingBack.body)).toBe(201);
    // From the transfer's destination back to its source; nothing moves yet.
    expect(goingBack.body.data).toMatchObject({
      from_location_type: 'branch',
      from_location_id: world.branchId,
      to_location_type: 'warehouse',
      to_location_id: world.warehouseId,
      status: 'pending',
      number: expect.stringMatching(/^SRT-20261117-B/),
    });
    expect(await stock('branch', world.branchId)).toEqual(branchBefore);
    expect((await back(3)).status).toBe(422); // only 2 of the 5 are not yet going back

    const carried = await world.admin.send('POST', '/api/stock-transfers', {
      from_location_type: 'branch',
      from_location_id: world.branchId,
      to_location_type: 'warehouse',
      to_location_id: world.warehouseId,
      stock_return_id: goingBack.body.data.id,
      date: '2026-11-18',
      lines: [{ source_line_id: goingBack.body.data.lines[0].id, quantity: 3 }],
    });
    expect(carried.status, JSON.stringify(carried.body)).toBe(201);
    expect(await stock('branch', world.branchId)).toEqual({ ...branchBefore, onHand: branchBefore.onHand - 3 });
    expect(await stock('warehouse', world.warehouseId)).toEqual({
      onHand: warehouseBefore.onHand,
      inTransit: warehouseBefore.inTransit + 3,
    });
    expect((await world.admin.send('GET', `/api/stock-returns/${goingBack.body.data.id}`)).body.data.status).toBe('transferred');
  });

  it('refuses a transfer to the same location, or of more than is on hand', async () => {
    const same = await world.admin.send('POST', '/api/stock-transfers', {
      ...ends(),
      to_location_type: 'warehouse',
      to_location_id: world.warehouseId,
      date: '2026-11-15',
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: 1 }],
    });
    expect(same.status).toBe(422);
    expect(same.body.errors.to_location_id).toEqual(['The to location must be another location than the from location.']);
    const { onHand } = await stock('warehouse', world.warehouseId);
    const tooMuch = await world.admin.send('POST', '/api/stock-transfers', {
      ...ends(),
      date: '2026-11-15',
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: onHand + 1 }],
    });
    expect(tooMuch.status).toBe(409);
    const warehouse = (await world.admin.send('GET', `/api/warehouses/${world.warehouseId}`)).body.data;
    expect(tooMuch.body.message).toMatch(new RegExp(`^Not enough .+ in stock at ${warehouse.name}: `));
  });
});
