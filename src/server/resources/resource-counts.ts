import { sql } from 'kysely';
import type { ResourceDefinition } from '../../domain/resource';
import { untyped, type Db, type Trx } from '../db/scope';

/**
 * Active and trashed totals per business and resource, kept in the same transaction as every
 * create, trash, restore and permanent delete, so an unfiltered list never counts its table.
 */

export async function adjustCount(trx: Trx, businessId: number, resource: string, active: number, trashed: number): Promise<void> {
  await trx
    .insertInto('resource_counts')
    .values({ business_id: businessId, resource, active, trashed })
    .onConflict((conflict) =>
      conflict.columns(['business_id', 'resource']).doUpdateSet({
        active: sql`resource_counts.active + ${active}`,
        trashed: sql`resource_counts.trashed + ${trashed}`,
      }),
    )
    .execute();
}

export type TrashFilter = 'active' | 'trashed' | 'all';

export async function readCount(db: Db, businessId: number, resource: string, filter: TrashFilter): Promise<number> {
  const row = await db
    .selectFrom('resource_counts')
    .select(['active', 'trashed'])
    .where('business_id', '=', businessId)
    .where('resource', '=', resource)
    .executeTakeFirst();
  if (!row) return 0;
  const active = Number(row.active);
  const trashed = Number(row.trashed);
  return filter === 'active' ? active : filter === 'trashed' ? trashed : active + trashed;
}

/** Counts a business table afresh (after bulk loads, and to prove the kept totals right). */
export async function recount(db: Db, definition: ResourceDefinition, businessId: number): Promise<void> {
  const row = await untyped(db)
    .selectFrom(definition.table)
    .select([sql<number>`count(*) - count(deleted_at)`.as('active'), sql<number>`count(deleted_at)`.as('trashed')])
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('resource_counts')
    .values({ business_id: businessId, resource: definition.name, active: Number(row.active), trashed: Number(row.trashed) })
    .onConflict((conflict) =>
      conflict.columns(['business_id', 'resource']).doUpdateSet({ active: Number(row.active), trashed: Number(row.trashed) }),
    )
    .execute();
}
