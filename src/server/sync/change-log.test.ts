import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import type { Db } from '../db/scope';
import { changesAfter, formatCursor, parseCursor, startingCursor, type Cursor } from './change-log';

/**
 * The change log's deltas (`changesAfter`), on the database itself: on PostgreSQL, with two real
 * transactions where the one that began writing first commits last — the later one's change
 * comes at once as the tail, the cursor does not pass the one still running, and its change
 * comes in the next delta once it commits; on SQLite, plain id order. A cursor of another
 * history is answered reset, and what the route refuses, it refuses with field messages.
 */

describe.each(databaseKinds)('the change log on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  let items: number[];

  beforeAll(async () => {
    let businesses: [number, number];
    ({ test, admin, businesses } = await startDemo(kind));
    businessId = businesses[0];
    items = (await test.app.db.selectFrom('items').select('id').where('business_id', '=', businessId).orderBy('id').limit(3).execute()).map(
      (row) => row.id,
    );
  });
  afterAll(() => test.close());

  /** An item renamed by a statement of its own (the triggers log it): through `db`, a connection or a transaction. */
  const rename = (db: Db, id: number) =>
    db
      .updateTable('items')
      .set({ name: sql`name || '.'` })
      .where('id', '=', id)
      .execute();

  const itemsIn = (changes: Awaited<ReturnType<typeof changesAfter>>) => [...(changes?.changed.get('items') ?? [])].sort((a, b) => a - b);

  if (kind === 'postgres')
    it('sends a later transaction’s change as the tail, and one that began first once it commits, the cursor never passing it', async () => {
      const db = test.app.db;
      const before = await startingCursor(db);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      let firstTx = 0;
      // T1 begins and writes first (the lower transaction id), then waits, still open.
      const first = db.transaction().execute(async (trx) => {
        await rename(trx, items[0]);
        firstTx = Number((await sql<{ tx: string }>`select pg_current_xact_id()::text as tx`.execute(trx)).rows[0].tx);
        written();
        await released;
      });
      await wrote;
      // T2 writes another item and commits, on a connection of its own.
      await db.transaction().execute((trx) => rename(trx, items[1]));

      const tail = await changesAfter(db, businessId, before, 1000);
      expect(itemsIn(tail)).toEqual([items[1]]);
      // T1 is still running: the cursor stays at or below it, so its change is still ahead.
      expect(tail!.cursor.tx).toBeLessThanOrEqual(firstTx);
      expect(tail!.more).toBe(false);

      release();
      await first;
      const next = await changesAfter(db, businessId, tail!.cursor, 1000);
      expect(itemsIn(next)).toContain(items[0]);
      // Once nothing runs below them, the cursor moves past both (other suites' transactions may hold it a moment).
      let cursor = next!.cursor;
      for (let tries = 0; tries < 200 && cursor.tx <= firstTx; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        cursor = (await changesAfter(db, businessId, cursor, 1000))!.cursor;
      }
      expect(cursor.tx).toBeGreaterThan(firstTx);
      const quiet = await changesAfter(db, businessId, cursor, 1000);
      expect(itemsIn(quiet)).toEqual([]);
    });

  if (kind === 'sqlite')
    it('sends changes in the order of their ids, the cursor at the last one read', async () => {
      const db = test.app.db;
      const before = await startingCursor(db);
      for (const id of [items[2], items[0], items[1]]) await rename(db, id);
      const rows = await db.selectFrom('change_log').select(['id', 'record_id']).where('id', '>', before.id).orderBy('id').execute();
      expect(rows.map((row) => row.record_id)).toEqual([items[2], items[0], items[1]]);
      // Two at a time: the first page is the first two ids, the cursor at the second, and more to come.
      const page = await changesAfter(db, businessId, before, 2);
      expect(itemsIn(page)).toEqual([items[0], items[2]].sort((a, b) => a - b));
      expect(page!.cursor).toEqual({ epoch: before.epoch, tx: 0, id: Number(rows[1].id) });
      expect(page!.more).toBe(true);
      const rest = await changesAfter(db, businessId, page!.cursor, 2);
      expect(itemsIn(rest)).toEqual([items[1]]);
      expect(rest!.cursor.id).toBe(Number(rows[2].id));
      expect(rest!.more).toBe(false);
    });

  it('answers reset for a cursor of another history, and after a new history begins', async () => {
    const db = test.app.db;
    const cursor = await startingCursor(db);
    expect(await changesAfter(db, businessId, cursor, 10)).not.toBeNull();
    const other: Cursor = { ...cursor, epoch: randomUUID() };
    expect(await changesAfter(db, businessId, other, 10)).toBeNull();
    const answer = await admin.send('GET', `/api/sync/changes?cursor=${formatCursor(other)}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ reset: true, cursor: null, more: false, changed: {}, removed: {} });
  });

  it('refuses a cursor it did not give, and pages out of range, with a message for the field', async () => {
    expect(() => parseCursor('not-a-cursor')).toThrow('The cursor is not one this server gave.');
    for (const cursor of ['x', '1.2.3', `${randomUUID()}.1`, `${randomUUID()}.1.2.3`, `${randomUUID()}.-1.2`]) {
      const answer = await admin.send('GET', `/api/sync/changes?cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(422);
      expect(answer.body.errors.cursor, cursor).toEqual(['The cursor is not one this server gave.']);
    }
    const missing = await admin.send('GET', '/api/sync/changes');
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['cursor']);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['after=-1', 'after'],
      ['after=2147483648', 'after'],
      ['after=1.5', 'after'],
    ]) {
      const answer = await admin.send('GET', `/api/sync/records/items?${query}`);
      expect(answer.status, query).toBe(422);
      expect(Object.keys(answer.body.errors), query).toEqual([field]);
    }
    expect(test.errorLines).toEqual([]);
  });
});
