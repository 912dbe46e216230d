import { describe, expect, it } from 'vitest';
import { todayInManila } from '../../domain/documents';
import { databaseKinds, stockLevel, userWithPermissions, type Session } from '../../../tests/support/test-app';
import { startCounting } from '../../../tests/support/stock-counts';
import { startedOnce } from '../../../tests/support/started';

/** What a line says of what is expected; none of it may reach anyone while a blind count is counted. */
const EXPECTED_FIGURES = ['expected', 'on_hand', 'moved', 'difference', 'difference_value'];

/**
 * Blind counts through the API, on each database: while one is counted, nobody — the counter, the
 * one who may post it, the master — is told what is expected of an item or what a count differs
 * by, in a page of lines, an entry's answer, a line taken off or the count itself; finishing its
 * counting (once, under races) shows them, and only then is it posted.
 */
describe.each(databaseKinds)('blind stock counts on %s', (kind) => {
  const world = startedOnce(async () => {
    const counting = await startCounting(kind);
    // A clerk who counts and may post: a warehouse clerk's job.
    const { session: counter } = await userWithPermissions(counting.test, counting.businesses[0], [
      'view-stock-counts',
      'update-stock-counts',
      'create-stock-adjustments',
      'view-items',
    ]);
    return { ...counting, counter };
  });

  const onHand = async (itemId: number) => (await stockLevel(world.admin, itemId, { type: 'warehouse', id: world.warehouseId })).onHand;
  const start = (body: Record<string, unknown>) =>
    world.admin.send('POST', '/api/stock-counts', { warehouse_id: world.warehouseId, date: todayInManila(), scope: 'all', ...body });
  const count = (countId: number, itemId: number, quantity: number, session = world.counter) =>
    session.send('POST', `/api/stock-counts/${countId}/entries`, { item_id: itemId, quantity });
  const lines = async (countId: number, session: Session, query = '') => {
    const answer = await session.send('GET', `/api/stock-counts/${countId}/lines?per_page=100${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as Record<string, unknown>[];
  };
  const figuresIn = (line: Record<string, unknown>) => EXPECTED_FIGURES.filter((name) => name in line);

  it('is not blind unless chosen, and says nothing of what is expected while a blind one is counted, to anyone', async () => {
    const plain = await start({});
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.body.data).toMatchObject({ blind: false, status: 'open' });
    expect(figuresIn((await lines(plain.body.data.id, world.counter))[0])).toEqual(EXPECTED_FIGURES);

    const started = await start({ blind: true });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.data).toMatchObject({ blind: true, status: 'open' });
    const id = started.body.data.id;
    const [item, other] = world.items;
    const before = await onHand(item.id);
    expect(before).toBeGreaterThan(0);

    // The entry's answer is the line, without what is expected.
    const entry = await count(id, item.id, before + 3);
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    expect(entry.body.data).toMatchObject({ item_id: item.id, counted: before + 3, entries: 1 });
    expect(figuresIn(entry.body.data)).toEqual([]);
    expect((await count(id, other.id, 1)).status).toBe(201);
    const taken = await world.counter.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: other.id });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({ counted: null });
    expect(figuresIn(taken.body.data)).toEqual([]);

    // Neither the counter (who may post it) nor the master sees them, in the lines or on the count.
    for (const session of [world.counter, world.admin]) {
      const read = await lines(id, session);
      expect(read.flatMap(figuresIn)).toEqual([]);
      expect(read.find((line) => line.item_id === item.id)).toMatchObject({ counted: before + 3 });
      const record = (await session.send('GET', `/api/stock-counts/${id}`)).body.data;
      expect(record).toMatchObject({ lines_counted: 1 });
      expect(record).not.toHaveProperty('lines_differing');
      expect(record).not.toHaveProperty('difference_value');
      // Which items differ would tell what is expected of them.
      const differences = await session.send('GET', `/api/stock-counts/${id}/lines?show=differences`);
      expect(differences.status).toBe(422);
      expect(differences.body.errors).toEqual({ show: ['A blind count shows its differences once its counting is finished.'] });
    }
    expect((await lines(id, world.counter, '&show=counted')).map((line) => line.item_id)).toEqual([item.id]);
  });

  it('is finished once under racing requests, shows its differences then, and only then is posted', async () => {
    const id = (await start({ blind: true })).body.data.id;
    const [item] = world.items;
    const before = await onHand(item.id);
    expect((await count(id, item.id, before + 2)).status).toBe(201);

    const early = await world.counter.send('PATCH', `/api/stock-counts/${id}/post`);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/is blind: finish counting it first, so that its differences are seen before they are posted\.$/);
    const { session: viewer } = await userWithPermissions(world.test, world.businesses[0], ['view-stock-counts']);
    expect((await viewer.send('PATCH', `/api/stock-counts/${id}/finish`)).status).toBe(403);

    const finishes = await Promise.all(Array.from({ length: 6 }, () => world.counter.send('PATCH', `/api/stock-counts/${id}/finish`)));
    expect(finishes.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const finished = finishes.find((answer) => answer.status === 200)!.body.data;
    expect(finished).toMatchObject({ status: 'counted', blind: true, lines_differing: 1 });
    expect(finishes.find((answer) => answer.status === 409)!.body.message).toMatch(/ is counted: its counting is over\.$/);

    // Counted: what was expected and what differs show, and nothing more is counted or taken off.
    const line = (await lines(id, world.counter)).find((shown) => shown.item_id === item.id)!;
    expect(line).toMatchObject({ expected: before, on_hand: before, moved: 0, counted: before + 2, difference: 2 });
    expect(await lines(id, world.counter, '&show=differences')).toHaveLength(1);
    expect((await count(id, item.id, 1)).status).toBe(409);
    expect((await world.counter.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: item.id })).status).toBe(409);
    const history = await world.test.app.db
      .selectFrom('activity_log')
      .select(['action'])
      .where('resource', '=', 'stock-counts')
      .where('record_id', '=', id)
      .where('action', '=', 'finished-counting')
      .execute();
    expect(history).toHaveLength(1);

    const posted = await world.counter.send('PATCH', `/api/stock-counts/${id}/post`);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data).toMatchObject({ status: 'posted', stock_adjustment_id: expect.any(Number) });
    expect(await onHand(item.id)).toBe(before + 2);
    expect((await lines(id, world.counter)).find((shown) => shown.item_id === item.id)).toMatchObject({ difference: 2 });
    expect((await world.counter.send('PATCH', `/api/stock-counts/${id}/finish`)).status).toBe(409);
  });

  it('counts every entry answered before the finish and none after, when both race', async () => {
    const id = (await start({ blind: true, scope: 'picked' })).body.data.id;
    const [item] = world.items;
    const racing = await Promise.all([
      ...Array.from({ length: 5 }, () => count(id, item.id, 1)),
      world.counter.send('PATCH', `/api/stock-counts/${id}/finish`),
      ...Array.from({ length: 5 }, () => count(id, item.id, 1)),
    ]);
    const entries = racing.filter((_, at) => at !== 5).map((answer) => answer.status);
    expect(racing[5].status).toBe(200);
    expect(entries.every((status) => status === 201 || status === 409)).toBe(true);
    const accepted = entries.filter((status) => status === 201).length;
    // A refused entry of a picked item leaves no line behind.
    const read = await lines(id, world.counter);
    expect(read.map((line) => [line.counted, line.entries])).toEqual(accepted === 0 ? [] : [[accepted, accepted]]);
  });

  it('finishes a count that is not blind too, posts it from there, and cancels a counted one', async () => {
    const id = (await start({})).body.data.id;
    const [item] = world.items;
    expect((await count(id, item.id, 1)).status).toBe(201);
    expect((await world.counter.send('PATCH', `/api/stock-counts/${id}/finish`)).body.data).toMatchObject({ status: 'counted' });
    expect((await world.counter.send('PATCH', `/api/stock-counts/${id}/post`)).status).toBe(200);

    const cancelled = (await start({ blind: true })).body.data.id;
    expect((await world.counter.send('PATCH', `/api/stock-counts/${cancelled}/finish`)).status).toBe(200);
    const cancel = await world.counter.send('PATCH', `/api/stock-counts/${cancelled}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.data).toMatchObject({ status: 'cancelled' });
    expect((await world.counter.send('PATCH', `/api/stock-counts/${cancelled}/post`)).status).toBe(409);
    expect(
      (
        await world.admin.send('POST', '/api/stock-counts', {
          warehouse_id: world.warehouseId,
          date: todayInManila(),
          scope: 'all',
          blind: 'x',
        })
      ).status,
    ).toBe(422);
  });
});
