import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { tables } from './tables';

/**
 * Files attached to records (documents, items, contacts, branches, warehouses): their metadata,
 * and apart from it their bytes, so that lists never read content. Bytes live in the database so
 * every server instance behind a load balancer sees the same files.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, ref, requiredRef } = tables(db);
  await businessRecord('files', (t) =>
    t
      // The parent: a resource name of the registry and the id of one of its records.
      .addColumn('resource', 'text', (col) => col.notNull())
      .addColumn('record_id', 'integer', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('size', 'integer', (col) => col.notNull())
      .addColumn('sha256', 'text', (col) => col.notNull())
      .addColumn('uploaded_by', 'integer', ref('users')),
  );
  await db.schema.createIndex('files_record_index').on('files').columns(['business_id', 'resource', 'record_id', 'id']).execute();
  await db.schema
    .createTable('file_contents')
    .addColumn('file_id', 'integer', (col) => requiredRef('files')(col).primaryKey())
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (col) => col.notNull())
    .execute();
}
