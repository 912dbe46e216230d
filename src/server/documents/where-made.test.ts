import { beforeAll, describe, expect, it } from 'vitest';
import { todayInManila } from '../../domain/documents';
import type { PlaceAccess, PlaceLevel } from '../../domain/places';
import { getResource } from '../../domain/resources/registry';
import { jobPermissions } from '../../domain/role-needs';
import { mayMake, mayTake, type Actor } from '../../domain/where-made';
import { betweenPlaces, created, databaseKinds, userWithPermissions } from '../../../tests/support/test-app';
import type { Place, Session } from '../../../tests/support/test-app';
import { startMovingGoods } from '../../../tests/support/demo-places';
import { startedOnce } from '../../../tests/support/started';

/**
 * The client offers a follow-on or a transition (domain/where-made.ts) exactly where the server
 * takes it: each demo role, and a branch's manager who may do every step of logistics but
 * operates only at the branch, tries each step of goods going from the warehouse to a branch, on
 * each database. The server refuses (403) just those the rule does not offer, and nothing else.
 */

describe.each(databaseKinds)('who may make and change logistics documents where, as the client offers it, on %s', (kind) => {
  const date = todayInManila();
  const world = startedOnce(() => startMovingGoods(kind, ['valenzuela'], 100));
  /** Each user by role, with what the client knows of them: their permissions, and their places. */
  const users: Record<string, { session: Session; actor: Actor }> = {};

  /** What the client reads of the signed-in user: their permissions (`/api/auth/user`), and their places (`/api/places`). */
  async function actorOf(session: Session): Promise<Actor> {
    const user = (await session.send('GET', '/api/auth/user')).body;
    const listed = (await session.send('GET', '/api/places')).body as {
      all: PlaceLevel | null;
      data: (Place & { level: PlaceLevel | null })[];
    };
    const places: PlaceAccess = {
      all: listed.all,
      grants: listed.data.flatMap(({ type, id, level }) => (level === null ? [] : [{ type, id, level }])),
    };
    return { permissions: user.permission_names, places, userId: user.id };
  }

  beforeAll(async () => {
    const manager = await userWithPermissions(
      world.test,
      world.businessId,
      jobPermissions(['stock-requests', 'stock-transfers', 'stock-receives', 'stock-returns'], [['delete', 'stock-transfers']]),
      {
        all: null,
        grants: [
          { ...world.place.makati, level: 'operate' },
          { ...world.place.valenzuela, level: 'view' },
        ],
      },
    );
    const sessions: Record<string, Session> = {
      'Branch Staff': await world.test.signIn('branch@example.com', undefined, world.businessId),
      'Warehouse Staff': await world.test.signIn('warehouse@example.com', undefined, world.businessId),
      "Makati's manager": manager.session,
      Administrator: world.admin,
    };
    for (const [role, session] of Object.entries(sessions)) users[role] = { session, actor: await actorOf(session) };
  });

  const toMakati = () => betweenPlaces(world.place.valenzuela, world.place.makati);
  const made = (resource: string, body: Record<string, unknown>) => created(world.admin, `/api/${resource}`, body);
  const lineOf = (document: { lines: { id: number }[] }, quantity = 1) => [{ source_line_id: document.lines[0].id, quantity }];

  /**
   * Each user tries `step` in turn, the administrator last: what the client offers each, and
   * whether the server refused them for who or where they are (403).
   */
  async function tried(offered: (actor: Actor) => boolean, step: (session: Session) => Promise<{ status: number; body: unknown }>) {
    const outcome: Record<string, { offered: boolean; refused: boolean }> = {};
    for (const [role, { session, actor }] of Object.entries(users)) {
      const answer = await step(session);
      expect(answer.status, `${role}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
      outcome[role] = { offered: offered(actor), refused: answer.status === 403 };
    }
    return outcome;
  }
  /** Offered to each role, and refused to none offered it nor taken by any not offered it. */
  const agreeing = (offers: Record<string, boolean>) =>
    Object.fromEntries(Object.entries(offers).map(([role, offered]) => [role, { offered, refused: !offered }]));

  it('offers a request’s transfer where the goods leave, a transfer’s receive where they arrive, and a return where they go back from', async () => {
    const request = await made('stock-requests', {
      ...toMakati(),
      date,
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: 20 }],
    });
    const transfers = await tried(
      (actor) => mayMake(actor, getResource('stock-transfers'), request),
      (session) =>
        session.send('POST', '/api/stock-transfers', { ...toMakati(), stock_request_id: request.id, date, lines: lineOf(request) }),
    );
    expect(transfers).toEqual(agreeing({ 'Branch Staff': false, 'Warehouse Staff': true, "Makati's manager": false, Administrator: true }));

    const transfer = await made('stock-transfers', {
      ...toMakati(),
      date,
      lines: [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: 10 }],
    });
    const receives = await tried(
      (actor) => mayMake(actor, getResource('stock-receives'), transfer),
      (session) => session.send('POST', '/api/stock-receives', { stock_transfer_id: transfer.id, date, lines: lineOf(transfer) }),
    );
    expect(receives).toEqual(agreeing({ 'Branch Staff': true, 'Warehouse Staff': false, "Makati's manager": true, Administrator: true }));

    const received = (await world.admin.send('GET', `/api/stock-transfers/${transfer.id}`)).body.data;
    expect(received.status).toBe('partially_received');
    const returns = await tried(
      (actor) => mayMake(actor, getResource('stock-returns'), received),
      (session) =>
        session.send('POST', '/api/stock-returns', { stock_transfer_id: transfer.id, reason: 'Dented', date, lines: lineOf(received) }),
    );
    expect(returns).toEqual(agreeing({ 'Branch Staff': false, 'Warehouse Staff': false, "Makati's manager": true, Administrator: true }));
  });

  it('offers a transfer’s void where it left, and closing its rest as lost where it arrives', async () => {
    const transfers = getResource('stock-transfers');
    const transition = (name: string) => transfers.document!.lifecycle.transitions.find((candidate) => candidate.name === name)!;
    const lines = [{ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity: 4 }];

    const sent = await made('stock-transfers', { ...toMakati(), date, lines });
    const voids = await tried(
      (actor) => mayTake(actor, transfers, transition('void'), sent),
      (session) => session.send('PATCH', `/api/stock-transfers/${sent.id}/void`),
    );
    expect(voids).toEqual(agreeing({ 'Branch Staff': false, 'Warehouse Staff': false, "Makati's manager": false, Administrator: true }));

    const partly = await made('stock-transfers', { ...toMakati(), date, lines });
    await made('stock-receives', { stock_transfer_id: partly.id, date, lines: lineOf(partly) });
    const closes = await tried(
      (actor) => mayTake(actor, transfers, transition('close'), { ...partly, status: 'partially_received' }),
      (session) => session.send('PATCH', `/api/stock-transfers/${partly.id}/close`, { reason: 'damaged' }),
    );
    expect(closes).toEqual(agreeing({ 'Branch Staff': true, 'Warehouse Staff': false, "Makati's manager": true, Administrator: true }));
    expect((await world.admin.send('GET', `/api/stock-transfers/${partly.id}`)).body.data.status).toBe('closed_short');
  });
});
