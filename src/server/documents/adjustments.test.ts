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

  it('takes the sign from the reason: damaged, expired and lost take away, found adds, the others either way', async () => {
    const count = (await admin.send('GET', '/api/stock-adjustments')).body.meta.total;
    const refused = await adjust([line(3, 'damaged'), line(2, 'expired'), line(1.5, 'lost'), line(-4, 'found'), line(-1, 'found', other)]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      'lines.0.quantity': ['Damaged goods leave the stock: the quantity must be below zero (−3, not 3).'],
      'lines.1.quantity': ['Expired goods leave the stock: the quantity must be below zero (−2, not 2).'],
      'lines.2.quantity': ['Lost goods leave the stock: the quantity must be below zero (−1.5, not 1.5).'],
      'lines.3.quantity': ['Found goods come into stock: the quantity must be above zero (4, not −4).'],
      'lines.4.quantity': ['Found goods come into stock: the quantity must be above zero (1, not −1).'],
    });
    expect((await admin.send('GET', '/api/stock-adjustments')).body.meta.total).toBe(count);

    const before = await onHand();
    const eitherWay = await adjust([
      line(5, 'count_correction'),
      line(-2, 'count_correction'),
      line(3, 'opening_balance'),
      line(-1, 'opening_balance'),
      { ...line(2, 'other'), note: 'Returned by the driver' },
      { ...line(-2, 'other'), note: 'Given as samples' },
      line(-3, 'damaged'),
      line(4, 'found'),
    ]);
    expect(eitherWay.status, JSON.stringify(eitherWay.body)).toBe(201);
    expect(await onHand()).toBe(before + 6);
  });

  it('refuses a sign against the reason sent in a batch, as the outbox sends it, and applies nothing after it', async () => {
    const count = (await admin.send('GET', '/api/stock-adjustments')).body.meta.total;
    const change = (key: string, lines: Record<string, unknown>[]) => ({
      method: 'POST',
      path: '/api/stock-adjustments',
      business_id: businesses[0],
      idempotency_key: `sign-${kind}-${key}`,
      body: { warehouse_id: warehouseId, date: '2026-11-20', lines },
    });
    const answer = await admin.send('POST', '/api/batch', {
      changes: [change('right', [line(-3, 'damaged')]), change('wrong', [line(3, 'damaged')]), change('after', [line(1, 'found')])],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((one: { status: number }) => one.status)).toEqual([201, 422]);
    expect(answer.body.data[1].body.errors).toEqual({
      'lines.0.quantity': ['Damaged goods leave the stock: the quantity must be below zero (−3, not 3).'],
    });
    expect((await admin.send('GET', '/api/stock-adjustments')).body.meta.total).toBe(count + 1);
  });

  it('needs its own permissions to be made, and to be voided the delete one or to be its maker', async () => {
    const { session, grant } = await userWithPermissions(test, businesses[0], ['view-stock-adjustments']);
    expect((await adjust([line(1)], session)).status).toBe(403);
    const made = await adjust([line(1)], admin);
    // Neither delete nor create: refused before anything is read.
    expect((await session.send('PATCH', `/api/stock-adjustments/${made.body.data.id}/void`)).status).toBe(403);
    expect((await session.send('PATCH', '/api/stock-adjustments/not-an-id/void')).status).toBe(403);
    await grant(['view-stock-adjustments', 'delete-stock-adjustments', 'view-items', 'view-warehouses']);
    expect((await session.send('PATCH', `/api/stock-adjustments/${made.body.data.id}/void`)).status).toBe(200);
  });

  describe('voided by the clerk who made it, on the day they made it', () => {
    const CLERK = ['view-stock-adjustments', 'create-stock-adjustments', 'update-stock-adjustments', 'view-items', 'view-warehouses'];
    const NOT_THEIRS =
      'Only the person who made this stock adjustment may void it, on the day it was made; ask someone who may delete stock adjustments.';
    const clerk = () => userWithPermissions(test, businesses[0], CLERK);
    const voiding = (session: Session, id: number) => session.send('PATCH', `/api/stock-adjustments/${id}/void`);

    it('lets its maker void it that day, without the delete permission, and answers who made it', async () => {
      const { session, userId } = await clerk();
      const before = await onHand();
      const made = await adjust([line(-3, 'damaged')], session);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.data.created_by).toBe(userId);
      expect((await session.send('GET', `/api/stock-adjustments/${made.body.data.id}`)).body.data.created_by).toBe(userId);
      expect(await onHand()).toBe(before - 3);
      const voided = await voiding(session, made.body.data.id);
      expect(voided.status, JSON.stringify(voided.body)).toBe(200);
      expect(voided.body.data.status).toBe('void');
      expect(await onHand()).toBe(before);
    });

    it('refuses another clerk, who may make adjustments but not delete them', async () => {
      const maker = await clerk();
      const another = await clerk();
      const before = await onHand();
      const made = await adjust([line(-2, 'lost')], maker.session);
      const refused = await voiding(another.session, made.body.data.id);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(NOT_THEIRS);
      expect((await admin.send('GET', `/api/stock-adjustments/${made.body.data.id}`)).body.data.status).toBe('posted');
      expect(await onHand()).toBe(before - 2);
      expect((await voiding(maker.session, made.body.data.id)).status).toBe(200);
    });

    it('refuses its maker the next day, and one made before makers were kept; the delete permission still voids them', async () => {
      const { session } = await clerk();
      const yesterday = await adjust([line(-1, 'expired')], session);
      const unknown = await adjust([line(2, 'found')], session);
      const dayBefore = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
      await test.app.db.updateTable('stock_adjustments').set({ created_at: dayBefore }).where('id', '=', yesterday.body.data.id).execute();
      await test.app.db.updateTable('stock_adjustments').set({ created_by: null }).where('id', '=', unknown.body.data.id).execute();

      const late = await voiding(session, yesterday.body.data.id);
      expect(late.status).toBe(403);
      expect(late.body.message).toBe(
        'You may void a stock adjustment you made only on the day you made it; ask someone who may delete stock adjustments.',
      );
      const unknownMaker = await voiding(session, unknown.body.data.id);
      expect(unknownMaker.status).toBe(403);
      expect(unknownMaker.body.message).toBe(NOT_THEIRS);
      for (const id of [yesterday.body.data.id, unknown.body.data.id]) {
        expect((await admin.send('GET', `/api/stock-adjustments/${id}`)).body.data.status).toBe('posted');
        expect((await voiding(admin, id)).status).toBe(200);
      }
    });

    it('refuses its maker once they no longer operate at its place', async () => {
      const warehouse = { type: 'warehouse' as const, id: warehouseId };
      const { session, userId } = await userWithPermissions(test, businesses[0], CLERK, {
        all: null,
        grants: [{ ...warehouse, level: 'operate' }],
      });
      const made = await adjust([line(-1, 'damaged')], session);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await test.app.db.updateTable('user_places').set({ level: 'view' }).where('user_id', '=', userId).execute();
      test.app.forgetCallers();
      const refused = await voiding(session, made.body.data.id);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('You do not operate at ');
      expect((await admin.send('GET', `/api/stock-adjustments/${made.body.data.id}`)).body.data.status).toBe('posted');
      expect((await voiding(admin, made.body.data.id)).status).toBe(200);
    });

    it('voids once of many parallel voids by its maker: the ledger moves back once', async () => {
      const { session } = await clerk();
      const before = await onHand();
      const made = await adjust([line(-4, 'damaged')], session);
      expect(await onHand()).toBe(before - 4);
      const voids = await Promise.all(Array.from({ length: 8 }, () => voiding(session, made.body.data.id)));
      expect(voids.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect(await onHand()).toBe(before);
      const stock = (
        await admin.send('GET', `/api/stocks?item_id=${item.id}&location_type=warehouse&location_id=${warehouseId}&is_strict=1`)
      ).body.data[0];
      const movements = (await admin.send('GET', `/api/stocks/${stock.id}/movements?per_page=100`)).body.data;
      expect(
        movements
          .filter((movement: Record<string, unknown>) => movement.document_number === made.body.data.number)
          .map((movement: Record<string, unknown>) => movement.quantity)
          .sort(),
      ).toEqual([-4, 4]);
    });
  });
});
