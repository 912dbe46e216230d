import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { registry } from '../../domain/resources/registry';
import { isPostgres } from '../db/dialect';
import type { Db } from '../db/scope';
import { HttpError } from '../errors';

/**
 * Reading the change log (migration 2026-11-28-01): what changed in a business since a device's
 * cursor. A cursor is `{epoch}.{tx}.{id}`: the log's history it belongs to, then the position of
 * the last change it covers, in (tx, id) order.
 *
 * On PostgreSQL a transaction's rows carry its id (`tx`), and an id is handed out when a
 * transaction starts writing, not when it commits: a later transaction may commit first. So the
 * cursor moves only past changes of transactions that have ended — those below the snapshot's
 * `xmin`, the oldest transaction still running. Changes of transactions that committed after an
 * older one still running are sent too (the tail), and sent again next time until the cursor
 * passes them: a record sent twice is the same record. On SQLite one transaction writes at a
 * time and ids are handed out in commit order: every change read is settled.
 */

export interface Cursor {
  epoch: string;
  tx: number;
  id: number;
}

export const formatCursor = (cursor: Cursor): string => `${cursor.epoch}.${cursor.tx}.${cursor.id}`;

const CURSOR = /^([0-9a-f-]{36})\.(\d{1,15})\.(\d{1,15})$/;

/** A cursor as a device sent it; anything else is refused 422. */
export function parseCursor(text: string): Cursor {
  const match = CURSOR.exec(text);
  if (!match) throw new HttpError(422, 'The cursor is not one this server gave.', { cursor: ['The cursor is not one this server gave.'] });
  return { epoch: match[1], tx: Number(match[2]), id: Number(match[3]) };
}

interface LogState {
  epoch: string;
  pruned: { tx: number; id: number };
}

async function logState(db: Db): Promise<LogState> {
  const row = await db.selectFrom('change_log_epoch').selectAll().executeTakeFirstOrThrow();
  return { epoch: row.epoch, pruned: { tx: Number(row.pruned_tx), id: Number(row.pruned_id) } };
}

/** Starts another history of the log (after a restore, or a copy into a new database): devices download their working set again. */
export async function startNewHistory(db: Db): Promise<void> {
  await db.deleteFrom('change_log').execute();
  await db.updateTable('change_log_epoch').set({ epoch: randomUUID(), pruned_tx: 0, pruned_id: 0 }).execute();
}

/** The oldest transaction still running (PostgreSQL): every change of a lower `tx` is committed or gone. */
async function runningFrom(db: Db): Promise<number> {
  const { rows } = await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db);
  return Number(rows[0].xmin);
}

/**
 * Where a first download starts following the log: every change after it comes in the deltas,
 * and everything before it is committed, so the pages read after it hold it.
 */
export async function startingCursor(db: Db): Promise<Cursor> {
  const { epoch } = await logState(db);
  if (isPostgres(db)) return { epoch, tx: await runningFrom(db), id: 0 };
  const row = await db
    .selectFrom('change_log')
    .select(sql<number | null>`max(id)`.as('last'))
    .executeTakeFirst();
  return { epoch, tx: 0, id: Number(row?.last ?? 0) };
}

const RESOURCE_OF_TABLE = new Map(registry.map((definition) => [definition.table, definition.name]));

export interface LoggedChanges {
  /** The ids of the records changed (inserted, updated or deleted), by resource. */
  changed: Map<string, Set<number>>;
  cursor: Cursor;
  /** More changes wait beyond this page: ask again at once. */
  more: boolean;
}

/**
 * The changes in a business after `cursor`, at most `limit` log rows; null when the cursor can
 * no longer be followed (another history, or pruned past it): the device starts again.
 */
export async function changesAfter(db: Db, businessId: number, cursor: Cursor, limit: number): Promise<LoggedChanges | null> {
  const state = await logState(db);
  if (state.epoch !== cursor.epoch) return null;
  if (cursor.tx < state.pruned.tx || (cursor.tx === state.pruned.tx && cursor.id < state.pruned.id)) return null;
  const postgres = isPostgres(db);
  const settledBelow = postgres ? await runningFrom(db) : Number.POSITIVE_INFINITY;
  const after = postgres ? sql<boolean>`(tx, id) > (${cursor.tx}, ${cursor.id})` : sql<boolean>`id > ${cursor.id}`;
  let query = db
    .selectFrom('change_log')
    .select(['id', 'table_name', 'record_id'])
    .where('business_id', '=', businessId)
    .where(after)
    .limit(limit + 1);
  query = postgres ? query.select('tx').orderBy('tx').orderBy('id') : query.orderBy('id');
  const rows = (await query.execute()) as { id: number; tx?: number; table_name: string; record_id: number }[];
  const page = rows.slice(0, limit);
  const changed = new Map<string, Set<number>>();
  let next: Cursor = cursor;
  for (const row of page) {
    const tx = Number(row.tx ?? 0);
    if (tx < settledBelow) next = { epoch: cursor.epoch, tx, id: Number(row.id) };
    const resource = RESOURCE_OF_TABLE.get(row.table_name);
    if (!resource) continue;
    let ids = changed.get(resource);
    if (!ids) changed.set(resource, (ids = new Set()));
    ids.add(Number(row.record_id));
  }
  const full = rows.length > limit;
  // Every change read settled and none beyond: the cursor may move to where running transactions begin.
  if (!full && postgres && page.every((row) => Number(row.tx) < settledBelow) && cursor.tx < settledBelow) {
    next = { epoch: cursor.epoch, tx: settledBelow, id: 0 };
  }
  const moved = next.tx !== cursor.tx || next.id !== cursor.id;
  return { changed, cursor: next, more: full && moved };
}
