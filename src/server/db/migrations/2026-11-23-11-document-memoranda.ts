import type { Kysely } from 'kysely';
import { trigramIndex } from './indexes';
import { tables } from './tables';

/**
 * Document memoranda: memos about one document each (its type and id), with a date, a subject
 * and a body found by any part of them, and the user who wrote it. A document's memos are listed
 * by its type and id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, dateType, ref } = tables(db);
  await businessRecord('document_memoranda', (t) =>
    t
      .addColumn('document_type', 'text', (col) => col.notNull())
      .addColumn('document_id', 'integer', (col) => col.notNull())
      .addColumn('date', dateType, (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('author_id', 'integer', ref('users')),
  );
  await db.schema
    .createIndex('document_memoranda_document_index')
    .on('document_memoranda')
    .columns(['business_id', 'document_type', 'document_id'])
    .execute();
  await trigramIndex(db, 'document_memoranda', 'subject');
  await trigramIndex(db, 'document_memoranda', 'body');
}
