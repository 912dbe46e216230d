import { describe, expect, it } from 'vitest';
import { todayInManila } from '../../domain/documents';
import { betweenPlaces, created, databaseKinds, permissionsOn, type Session } from '../../../tests/support/test-app';
import { LOGISTICS, startMovingGoods } from '../../../tests/support/demo-places';
import { startedOnce } from '../../../tests/support/started';

/**
 * What did not arrive of a transfer, closed as lost (issue #29), through the API on each database:
 * by the receive that leaves it short, or later from the transfer; by the receivers only, where the
 * goods were to arrive; the ledger writes it off from transit once, whatever races it.
 */

describe.each(databaseKinds)('the rest of a transfer closed as lost on %s', (kind) => {
  const date = todayInManila();
  const world = startedOnce(() => startMovingGoods(kind, ['valenzuela'], 2000));

  const status = async (id: number) => (await world.admin.send('GET', `/api/stock-transfers/${id}`)).body.data.status;

  /** A transfer of `quantity` from Valenzuela to Makati, and a receive of part of it by `session`. */
  const sent = async (quantity: number) => {
    const transfer = await created(world.admin, '/api/stock-transfers', {
      ...betweenPlaces(world.place.valenzuela, world.place.makati),
      date,
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity }],
    });
    return transfer as { id: number; number: string; lines: { id: number }[] };
  };
  const receiving = (transfer: { id: number; lines: { id: number }[] }, quantity: number, extra: Record<string, unknown> = {}) => ({
    stock_transfer_id: transfer.id,
    date,
    lines: [{ source_line_id: transfer.lines[0].id, quantity }],
    ...extra,
  });

  it('branch staff receive 40 of 42 and close the rest as lost: it leaves transit once, arrives nowhere, and the transfer is closed short', async () => {
    const branchStaff = await world.test.signIn('branch@example.com', undefined, world.businessId);
    const before = { makati: await world.stock(world.place.makati), valenzuela: await world.stock(world.place.valenzuela) };
    const transfer = await sent(42);

    const received = await branchStaff.send(
      'POST',
      '/api/stock-receives',
      receiving(transfer, 40, { rest: 'close', lost_reason: 'damaged', lost_note: ' Two cartons crushed ' }),
    );
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    expect(await status(transfer.id)).toBe('closed_short');
    // Makati has the 40 that arrived and nothing on its way; Valenzuela gave up all 42 when they left.
    expect(await world.stock(world.place.makati)).toEqual({ onHand: before.makati.onHand + 40, inTransit: before.makati.inTransit });
    expect(await world.stock(world.place.valenzuela)).toEqual({ ...before.valenzuela, onHand: before.valenzuela.onHand - 42 });

    // The transfer's history says it was closed, why, and what was lost.
    const history = (await world.admin.send('GET', `/api/stock-transfers/${transfer.id}/activity`)).body.data;
    expect(history[0]).toMatchObject({
      action: 'closed',
      summary: `The rest closed as lost (Damaged in transit: Two cartons crushed): 2 ${world.item.name}.`,
    });

    // Nothing more is received of it, nothing closed twice, and its receive cannot put goods back in transit.
    expect((await branchStaff.send('POST', '/api/stock-receives', receiving(transfer, 2))).status).toBe(409);
    const again = await branchStaff.send('PATCH', `/api/stock-transfers/${transfer.id}/close`, { reason: 'lost_in_transit' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Stock Transfer ${transfer.number} is closed short: it can be closed only while partially received.`);
    const voided = await world.admin.send('PATCH', `/api/stock-receives/${received.body.data.id}/void`);
    expect(voided.status).toBe(409);
    expect(voided.body.message).toBe(`Stock Transfer ${transfer.number} was closed short: its receives can no longer be voided.`);
    expect(await world.stock(world.place.makati)).toEqual({ onHand: before.makati.onHand + 40, inTransit: before.makati.inTransit });
  });

  it('keeps the rest in transit unless told to close it, and refuses a close without its reason', async () => {
    const transfer = await sent(10);
    const before = await world.stock(world.place.makati);
    const refused = async (extra: Record<string, unknown>) => {
      const answer = await world.admin.send('POST', '/api/stock-receives', receiving(transfer, 4, extra));
      expect(answer.status).toBe(422);
      return answer.body.errors;
    };
    expect(await refused({ rest: 'close' })).toEqual({ lost_reason: ['Say why the rest did not arrive.'] });
    expect(await refused({ rest: 'close', lost_reason: 'stolen' })).toEqual({ lost_reason: ['The selected reason is invalid.'] });
    expect(await refused({ rest: 'close', lost_reason: 'other', lost_note: '  ' })).toEqual({
      lost_note: ['Say in a note what happened to the rest.'],
    });
    expect(Object.keys(await refused({ rest: 'lose' }))).toEqual(['rest']);
    expect(await world.stock(world.place.makati)).toEqual(before);

    // All that is left arriving leaves no rest to close: said, and nothing is received.
    const whole = await world.admin.send('POST', '/api/stock-receives', receiving(transfer, 10, { rest: 'close', lost_reason: 'damaged' }));
    expect(whole.status).toBe(422);
    expect(whole.body.errors).toEqual({ rest: ['Nothing of the transfer is left in transit to close.'] });
    expect(await world.stock(world.place.makati)).toEqual(before);

    const kept = await world.admin.send('POST', '/api/stock-receives', receiving(transfer, 4, { rest: 'keep' }));
    expect(kept.status).toBe(201);
    expect(await status(transfer.id)).toBe('partially_received');
    expect(await world.stock(world.place.makati)).toEqual({ onHand: before.onHand + 4, inTransit: before.inTransit - 4 });
  });

  it('closes a partially received transfer later, only by its receivers where the goods were to arrive', async () => {
    const atMakati = await world.placed(
      permissionsOn(['stock-transfers'], ['view']).concat(permissionsOn(['stock-receives'], ['create'])),
      {
        ...world.place.makati,
        level: 'operate',
      },
    );
    const warehouseStaff = await world.test.signIn('warehouse@example.com', undefined, world.businessId);
    const makatiViewer = await world.placed(
      LOGISTICS,
      { ...world.place.makati, level: 'view' },
      { ...world.place.valenzuela, level: 'operate' },
    );
    const withoutReceiving = await world.placed(
      LOGISTICS.filter((name) => !permissionsOn(['stock-receives'], ['create']).includes(name)),
      { ...world.place.makati, level: 'operate' },
    );
    const stranger = await world.placed(LOGISTICS, { ...world.place.mandaue, level: 'operate' });
    const before = await world.stock(world.place.makati);
    const transfer = await sent(12);
    const close = (session: Session, body: Record<string, unknown> = { reason: 'short_shipped' }) =>
      session.send('PATCH', `/api/stock-transfers/${transfer.id}/close`, body);

    // Nothing arrived yet: its sender voids it instead.
    expect((await close(atMakati)).status).toBe(409);
    expect((await world.admin.send('POST', '/api/stock-receives', receiving(transfer, 5))).status).toBe(201);

    const bySender = await close(warehouseStaff);
    expect(bySender.status).toBe(403);
    expect(bySender.body.message).toBe(
      'You do not operate at Makati: a stock receive is made and changed only by someone who operates at the place receiving them.',
    );
    expect((await close(makatiViewer)).status).toBe(403);
    expect((await close(withoutReceiving)).status).toBe(403);
    expect((await close(stranger)).status).toBe(404);
    expect((await close(atMakati, {})).body.errors).toEqual({ reason: ['Say why the rest did not arrive.'] });
    expect((await close(atMakati, { reason: 'other' })).body.errors).toEqual({ note: ['Say in a note what happened to the rest.'] });
    expect(await status(transfer.id)).toBe('partially_received');
    expect(await world.stock(world.place.makati)).toEqual({ onHand: before.onHand + 5, inTransit: before.inTransit + 7 });

    const closed = await close(atMakati, { reason: 'other', note: 'Left at the Bulacan stop' });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data.status).toBe('closed_short');
    expect(await world.stock(world.place.makati)).toEqual({ onHand: before.onHand + 5, inTransit: before.inTransit });
    const history = (await world.admin.send('GET', `/api/stock-transfers/${transfer.id}/activity`)).body.data;
    expect(history[0]).toMatchObject({
      action: 'closed',
      summary: `The rest closed as lost (Other: Left at the Bulacan stop): 7 ${world.item.name}.`,
    });
  });

  it('two closes, or a close and a receive, at once: the rest leaves transit once', async () => {
    for (let round = 0; round < 3; round += 1) {
      const before = await world.stock(world.place.makati);
      const transfer = await sent(10);
      expect((await world.admin.send('POST', '/api/stock-receives', receiving(transfer, 4))).status).toBe(201);
      const closing = () => world.admin.send('PATCH', `/api/stock-transfers/${transfer.id}/close`, { reason: 'lost_in_transit' });
      const answers = await Promise.all([closing(), closing()]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(await world.stock(world.place.makati)).toEqual({ onHand: before.onHand + 4, inTransit: before.inTransit });
    }
    for (let round = 0; round < 3; round += 1) {
      const before = await world.stock(world.place.makati);
      const transfer = await sent(10);
      expect((await world.admin.send('POST', '/api/stock-receives', receiving(transfer, 4))).status).toBe(201);
      const [closed, received] = await Promise.all([
        world.admin.send('PATCH', `/api/stock-transfers/${transfer.id}/close`, { reason: 'damaged' }),
        world.admin.send('POST', '/api/stock-receives', receiving(transfer, 3)),
      ]);
      expect(closed.status).toBe(200);
      // The receive came first (the close took the 3 left) or after it (refused: nothing more arrives).
      expect([201, 409]).toContain(received.status);
      const arrived = received.status === 201 ? 3 : 0;
      expect(await world.stock(world.place.makati)).toEqual({ onHand: before.onHand + 4 + arrived, inTransit: before.inTransit });
      expect(await status(transfer.id)).toBe('closed_short');
    }
  });
});
