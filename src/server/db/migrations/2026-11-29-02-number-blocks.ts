import type { Kysely } from 'kysely';
import { tables } from './tables';

/**
 * Blocks of document numbers a device holds to number what it makes offline
 * (documents/number-blocks.ts): each a range of one series, taken from the series' counter at once,
 * held by the user who reserved it; the sequences used, one row each, so a number is never given
 * twice; and where an unused rest was handed back, so every gap in a series is explained.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRows, requiredRef, timestamp, dateType } = tables(db);
  await businessRows('number_blocks', (t) =>
    t
      .addColumn('user_id', 'integer', requiredRef('users'))
      .addColumn('resource', 'text', (col) => col.notNull())
      .addColumn('series', 'text', (col) => col.notNull())
      .addColumn('first', 'integer', (col) => col.notNull())
      .addColumn('last', 'integer', (col) => col.notNull())
      .addColumn('reserved_at', timestamp, (col) => col.notNull())
      .addColumn('expires_on', dateType, (col) => col.notNull())
      .addColumn('returned_at', timestamp)
      .addColumn('returned_from', 'integer'),
  );
  await db.schema.createIndex('number_blocks_user_index').on('number_blocks').columns(['business_id', 'user_id']).execute();
  await db.schema
    .createTable('number_block_uses')
    .addColumn('block_id', 'integer', requiredRef('number_blocks'))
    .addColumn('sequence', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('number_block_uses_pk', ['block_id', 'sequence'])
    .execute();
}
