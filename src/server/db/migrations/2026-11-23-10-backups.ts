import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { tables } from './tables';

/**
 * Backups of the whole database (src/server/operations/backup.ts): `backups` keeps one row per
 * backup taken or failed, for the operator and the master's overview; `backup_schedule` is one
 * row that the servers sharing a database claim with a guarded UPDATE, so that a scheduled
 * backup is taken by one of them. Not business records: no business, no soft delete, no version.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { timestamp } = tables(db);
  await db.schema
    .createTable('backups')
    .addColumn('id', 'integer', (col) =>
      isPostgres(db) ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('started_at', timestamp, (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('file', 'text')
    .addColumn('bytes', 'bigint')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('backups_started_at_index').on('backups').columns(['started_at']).execute();
  await db.schema
    .createTable('backup_schedule')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('last_started_at', timestamp)
    .addColumn('started_by', 'text')
    .execute();
  await db.insertInto('backup_schedule').values({ id: 1, last_started_at: null, started_by: null }).execute();
}
