import { sql } from 'kysely';
import { forUpdate, isPostgres } from '../db/dialect';
import type { Db, Trx } from '../db/scope';
import { giveWay } from '../yielding';

/**
 * Keeps the change log (migration 2026-11-28-01) bounded: the newest `keep` changes stay, the
 * older ones go, oldest first, and `change_log_epoch` records the last change pruned in the same
 * transaction as its delete, so a device whose cursor is older is told to download again
 * (`changesAfter` in `sync/change-log.ts` answers reset) instead of missing what was pruned.
 *
 * Every instance prunes once a minute. Each step locks the epoch's one row first, deletes at most
 * `chunk` changes and moves the pruned position only forward (a guarded update), so instances
 * pruning at once take turns and never record less than was deleted. On PostgreSQL only changes
 * of ended transactions (`tx` below the snapshot's xmin) are pruned: a change still to commit
 * lands at a lower position than newer ones, and must not land behind the pruned position.
 */

/** Changes kept per database: a device offline longer than this many changes downloads again. */
export const KEEP_CHANGES = 200_000;
/** Changes deleted per transaction: a first prune of millions never holds the writer long. */
const CHUNK = 5_000;
/** How often each instance prunes. */
export const PRUNE_EVERY_MS = 60_000;

interface Position {
  tx: number;
  id: number;
}

interface Logger {
  warn(details: object, message: string): void;
}

export interface PruneOptions {
  keep?: number;
  chunk?: number;
}

/** Deletes the changes beyond the newest `keep`; resolves to how many went. */
export async function pruneChangeLog(db: Db, { keep = KEEP_CHANGES, chunk = CHUNK }: PruneOptions = {}): Promise<number> {
  const cut = await lastToPrune(db, keep);
  if (!cut) return 0;
  let deleted = 0;
  for (;;) {
    const step = await db.transaction().execute((trx) => pruneStep(trx, cut, chunk));
    deleted += step.deleted;
    if (step.finished) return deleted;
    await giveWay();
  }
}

/**
 * The newest change to prune: the one after the newest `keep`, of an ended transaction; null when
 * none. Finding it walks `keep` entries of an index, so it is looked for only once the log may
 * hold a tenth more than it keeps — judged by its first and last ids, two index lookups, as ids
 * are never handed out twice: between prunes the log grows past `keep` by up to a tenth.
 */
async function lastToPrune(db: Db, keep: number): Promise<Position | null> {
  const span = await db
    .selectFrom('change_log')
    .select([sql<number | null>`min(id)`.as('first'), sql<number | null>`max(id)`.as('last')])
    .executeTakeFirst();
  if (span?.first == null || span.last == null || Number(span.last) - Number(span.first) + 1 <= keep + Math.floor(keep / 10)) return null;
  if (!isPostgres(db)) {
    const row = await db.selectFrom('change_log').select('id').orderBy('id', 'desc').offset(keep).limit(1).executeTakeFirst();
    return row ? { tx: 0, id: Number(row.id) } : null;
  }
  const { rows } = await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db);
  const settledBelow = Number(rows[0].xmin);
  const newest = () => db.selectFrom('change_log').select(['tx', 'id']).orderBy('tx', 'desc').orderBy('id', 'desc');
  const row = await newest().offset(keep).limit(1).executeTakeFirst();
  if (!row) return null;
  if (Number(row.tx) < settledBelow) return { tx: Number(row.tx), id: Number(row.id) };
  const settled = await newest().where('tx', '<', settledBelow).limit(1).executeTakeFirst();
  return settled ? { tx: Number(settled.tx), id: Number(settled.id) } : null;
}

/** One transaction: the epoch's row locked, up to `chunk` of the oldest changes up to `cut` deleted, and the pruned position moved past them. */
async function pruneStep(trx: Trx, cut: Position, chunk: number): Promise<{ deleted: number; finished: boolean }> {
  await forUpdate(trx, trx.selectFrom('change_log_epoch').select('epoch')).execute();
  const postgres = isPostgres(trx);
  const upToCut = postgres ? sql<boolean>`(tx, id) <= (${cut.tx}, ${cut.id})` : sql<boolean>`id <= ${cut.id}`;
  let query = trx
    .selectFrom('change_log')
    .select('id')
    .where(upToCut)
    .offset(chunk - 1)
    .limit(1);
  query = postgres ? query.select('tx').orderBy('tx').orderBy('id') : query.orderBy('id');
  const row = (await query.executeTakeFirst()) as { id: number; tx?: number } | undefined;
  const end: Position = row ? { tx: Number(row.tx ?? 0), id: Number(row.id) } : cut;
  const upToEnd = postgres ? sql<boolean>`(tx, id) <= (${end.tx}, ${end.id})` : sql<boolean>`id <= ${end.id}`;
  const result = await trx.deleteFrom('change_log').where(upToEnd).executeTakeFirst();
  await trx
    .updateTable('change_log_epoch')
    .set({ pruned_tx: end.tx, pruned_id: end.id })
    .where(sql<boolean>`(pruned_tx, pruned_id) < (${end.tx}, ${end.id})`)
    .execute();
  return { deleted: Number(result.numDeletedRows), finished: end.tx === cut.tx && end.id === cut.id };
}

export interface PruneSchedule {
  stop(): Promise<void>;
}

/** Prunes every `every` ms while the app runs; a prune that fails is a warning, tried again next time. */
export function schedulePruning(
  db: Db,
  log: Logger,
  { every = PRUNE_EVERY_MS, ...options }: PruneOptions & { every?: number } = {},
): PruneSchedule {
  let running: Promise<void> | undefined;
  const prune = async () => {
    try {
      await pruneChangeLog(db, options);
    } catch (error) {
      const message = (error as Error).message;
      log.warn({ error: message }, `Could not prune the change log; it is tried again later: ${message}`);
    }
  };
  const timer = setInterval(() => {
    running ??= prune().finally(() => (running = undefined));
  }, every);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
