import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { databaseKinds, startDemo } from '../../../tests/support/test-app';
import { startedOnce } from '../../../tests/support/started';
import type { Db } from '../db/scope';
import { changesAfter, formatCursor, type Cursor } from './change-log';
import { pruneChangeLog, schedulePruning } from './prune';

/**
 * Keeping the change log bounded: the newest changes stay and the older go, the last one pruned
 * recorded so that a device whose cursor is older downloads again (reset) while one at it goes
 * on; instances pruning at once delete each change once and record exactly the last; and the app
 * prunes on its own while it runs.
 */

interface Row {
  tx: number;
  id: number;
}

describe.each(databaseKinds)('pruning the change log on %s', (kind) => {
  const world = startedOnce(() => startDemo(kind), false);

  /** Every change in the log, oldest first. */
  async function logged(db: Db = world.test.app.db): Promise<Row[]> {
    const rows =
      kind === 'postgres'
        ? await db.selectFrom('change_log').select(['tx', 'id']).orderBy('tx').orderBy('id').execute()
        : await db.selectFrom('change_log').select('id').orderBy('id').execute();
    return rows.map((row) => ({ tx: Number((row as { tx?: number }).tx ?? 0), id: Number(row.id) }));
  }

  async function pruned(): Promise<Row> {
    const row = await world.test.app.db.selectFrom('change_log_epoch').selectAll().executeTakeFirstOrThrow();
    return { tx: Number(row.pruned_tx), id: Number(row.pruned_id) };
  }

  /** Prunes until only `keep` are left: on PostgreSQL a change is pruned once no older transaction runs, and other suites' may, a moment. */
  async function pruneDown(keep: number, chunk: number, dbs: Db[] = [world.test.app.db]): Promise<number> {
    let deleted = 0;
    for (let tries = 0; tries < 100; tries++) {
      const counts = await Promise.all(dbs.map((db) => pruneChangeLog(db, { keep, chunk })));
      deleted += counts.reduce((sum, count) => sum + count, 0);
      if ((await logged()).length <= keep) return deleted;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return deleted;
  }

  /** Items renamed in one statement: a change logged for each. */
  const renameItems = () =>
    world.test.app.db
      .updateTable('items')
      .set({ name: sql`name || '.'` })
      .where('business_id', '=', world.businesses[0])
      .execute();

  it('keeps the newest changes, records the last pruned, and resets only the cursors before it', async () => {
    const { epoch } = await world.test.app.db.selectFrom('change_log_epoch').select('epoch').executeTakeFirstOrThrow();
    const before = await logged();
    const keep = 50;
    expect(before.length).toBeGreaterThan(keep + 100);
    const deleted = await pruneDown(keep, 7);
    expect(deleted).toBe(before.length - keep);
    expect(await logged()).toEqual(before.slice(-keep));
    const last = before[before.length - keep - 1];
    expect(await pruned()).toEqual(last);
    // Nothing more to prune: nothing deleted, nothing written.
    expect(await pruneChangeLog(world.test.app.db, { keep })).toBe(0);

    const at: Cursor = { epoch, ...last };
    expect(await changesAfter(world.test.app.db, world.businesses[0], at, 1000)).not.toBeNull();
    const older: Cursor = { epoch, tx: last.tx, id: last.id - 1 };
    expect(await changesAfter(world.test.app.db, world.businesses[0], older, 1000)).toBeNull();
    const answer = await world.admin.send('GET', `/api/sync/changes?cursor=${formatCursor(older)}`);
    expect(answer.body.data).toEqual({ reset: true, cursor: null, more: false, changed: {}, removed: {} });
    const followed = await world.admin.send('GET', `/api/sync/changes?cursor=${formatCursor(at)}`);
    expect(followed.body.data.reset).toBe(false);
  });

  it('deletes each change once and records exactly the last when instances prune at once', async () => {
    for (let round = 0; round < 10; round++) await renameItems();
    const before = await logged();
    const keep = 30;
    expect(before.length).toBeGreaterThan(keep + 200);
    const twin = kind === 'postgres' ? await world.test.secondInstance() : undefined;
    try {
      // Two instances on PostgreSQL; on SQLite, two prunes at once in the one process.
      const deleted = await pruneDown(keep, 11, [world.test.app.db, twin?.app.db ?? world.test.app.db]);
      expect(deleted).toBe(before.length - keep);
    } finally {
      await twin?.close();
    }
    expect(await logged()).toEqual(before.slice(-keep));
    expect(await pruned()).toEqual(before[before.length - keep - 1]);
    // Between prunes the log may grow a tenth past what it keeps before anything is looked for.
    expect(await pruneChangeLog(world.test.app.db, { keep: keep - 2 })).toBe(0);
    expect(await pruneDown(keep - 3, 11)).toBe(3);
  });

  it('never moves the recorded position back, whoever pruned further first', async () => {
    for (let round = 0; round < 3; round++) await renameItems();
    const rows = await logged();
    const newest = rows[rows.length - 1];
    // As if another instance had recorded a later position, its delete still to come.
    await world.test.app.db.updateTable('change_log_epoch').set({ pruned_tx: newest.tx, pruned_id: newest.id }).execute();
    await pruneDown(5, 4);
    expect(await pruned()).toEqual(newest);
  });

  it('prunes on its own while the app runs', async () => {
    await renameItems();
    const warnings: string[] = [];
    const schedule = schedulePruning(
      world.test.app.db,
      { warn: (_details, message) => void warnings.push(message) },
      { every: 30, keep: 10 },
    );
    try {
      for (let tries = 0; tries < 200 && (await logged()).length > 10; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      await schedule.stop();
    }
    expect((await logged()).length).toBe(10);
    expect(warnings).toEqual([]);
  });
});
