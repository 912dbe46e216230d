import type { Kysely, RawBuilder } from 'kysely';
import { nowIso, toIsoTimestamp } from '../db/dialect';
import type { Database } from '../db/schema';
import type { ActivityEntry, FieldChanges } from '../../domain/activity';
import type { Scope, Trx } from '../db/scope';

/**
 * The activity log: who did what to which record, and when. Every write of the API records one
 * entry through `recordActivity`, inside the transaction of the change itself, so an entry
 * exists exactly when the change does (a refused or rolled-back write leaves none, an idempotent
 * replay answers from its stored response and writes none).
 *
 * @example
 * await recordActivity(trx, scope, { resource: 'brands', recordId: 7, action: 'updated',
 *   changes: { name: { from: 'Acme', to: 'Acme Foods' } } });
 */

/** What `recordActivity` is told of a change. */
export interface NewActivity {
  /** The resource's registry name (`items`, `purchase-orders`, `users` …). */
  resource: string;
  recordId: number;
  /** `created`, `updated`, `deleted`, `restored`, `force-deleted`, `voided`, `file-attached` … */
  action: string;
  /** Changed fields in API form, `{ from, to }`; never secrets. */
  changes?: FieldChanges;
  /** Words for what `changes` cannot say: a file's name, the roles added and removed. */
  summary?: string;
}

/** A business's own history is kept in that business, whichever one it was changed from. */
export function historyBusinessId(scope: Scope, resource: string, recordId: number): number {
  return resource === 'businesses' ? recordId : scope.businessId;
}

function entryRow(scope: Scope, entry: NewActivity, happenedAt: string) {
  return {
    business_id: historyBusinessId(scope, entry.resource, entry.recordId),
    user_id: scope.userId,
    resource: entry.resource,
    record_id: entry.recordId,
    action: entry.action,
    changes: entry.changes && Object.keys(entry.changes).length > 0 ? JSON.stringify(entry.changes) : null,
    summary: entry.summary ?? null,
    happened_at: happenedAt,
    made_at: scope.origin?.madeAt ?? null,
    made_offline: scope.origin?.offline ? 1 : 0,
  };
}

export async function recordActivity(trx: Trx, scope: Scope, entry: NewActivity): Promise<void> {
  await trx
    .insertInto('activity_log')
    .values(entryRow(scope, entry, nowIso()))
    .execute();
}

/** The entries of many changes made together (an import's records), in one statement: each as `recordActivity` writes it. */
export async function recordActivities(trx: Trx, scope: Scope, entries: readonly NewActivity[]): Promise<void> {
  if (entries.length === 0) return;
  const now = nowIso();
  await trx
    .insertInto('activity_log')
    .values(entries.map((entry) => entryRow(scope, entry, now)))
    .execute();
}

export interface ActivityFilters {
  resource?: string;
  recordId?: number;
  userId?: number;
  action?: string;
  /** ISO instants: entries at or after `since`, before `until`. */
  since?: string;
  until?: string;
}

/**
 * A page of the business's entries, newest first, and how many match. `viewed`: the condition
 * keeping them to the records the scope views (`entriesViewed`, `resources/activity-places.ts`),
 * null for every entry.
 */
export async function listActivity(
  db: Kysely<Database>,
  scope: Scope,
  viewed: RawBuilder<boolean> | null,
  filters: ActivityFilters,
  page: number,
  perPage: number,
): Promise<{ entries: ActivityEntry[]; total: number }> {
  let query = db.selectFrom('activity_log').where('activity_log.business_id', '=', scope.businessId);
  if (filters.resource !== undefined) query = query.where('activity_log.resource', '=', filters.resource);
  if (filters.recordId !== undefined) query = query.where('activity_log.record_id', '=', filters.recordId);
  if (filters.userId !== undefined) query = query.where('activity_log.user_id', '=', filters.userId);
  if (filters.action !== undefined) query = query.where('activity_log.action', '=', filters.action);
  if (filters.since !== undefined) query = query.where('activity_log.happened_at', '>=', filters.since);
  if (filters.until !== undefined) query = query.where('activity_log.happened_at', '<', filters.until);
  if (viewed) query = query.where(viewed);
  const rows = await query
    .leftJoin('users', 'users.id', 'activity_log.user_id')
    .selectAll('activity_log')
    .select('users.name as user_name')
    .orderBy('activity_log.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const total =
    page === 1 && rows.length < perPage
      ? rows.length
      : Number((await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total);
  const entries = rows.map((row) => ({
    id: Number(row.id),
    resource: row.resource,
    record_id: Number(row.record_id),
    action: row.action,
    summary: row.summary,
    changes: row.changes === null ? null : (JSON.parse(row.changes) as FieldChanges),
    user_id: Number(row.user_id),
    user_name: row.user_name ?? null,
    happened_at: toIsoTimestamp(row.happened_at) as string,
    made_at: toIsoTimestamp(row.made_at),
    made_offline: Boolean(row.made_offline),
  }));
  return { entries, total };
}
