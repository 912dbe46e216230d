import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { FLAG, tables } from './tables';

/**
 * The activity log: one row per change of a record, written in the change's transaction and never
 * edited. No foreign keys: a user's history outlives the user, and the log never stands in the
 * way of a permanent delete. `made_at` is the device's clock for changes replayed from an outbox.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { timestamp } = tables(db);
  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'integer', (col) =>
      isPostgres(db) ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn('business_id', 'integer', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('resource', 'text', (col) => col.notNull())
    .addColumn('record_id', 'integer', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('changes', 'text')
    .addColumn('summary', 'text')
    .addColumn('happened_at', timestamp, (col) => col.notNull())
    .addColumn('made_at', timestamp)
    .addColumn('made_offline', FLAG, (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('activity_log_record_index')
    .on('activity_log')
    .columns(['business_id', 'resource', 'record_id', 'id'])
    .execute();
  await db.schema.createIndex('activity_log_business_id_index').on('activity_log').columns(['business_id', 'id']).execute();
  await db.schema.createIndex('activity_log_user_index').on('activity_log').columns(['business_id', 'user_id', 'id']).execute();
}
