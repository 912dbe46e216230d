import type { Kysely } from 'kysely';
import { tables } from './tables';

/** Stock returns (goods of a received transfer going back, and why), and transfers made from them. */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, ref, requiredRef, dateType } = tables(db);
  await businessRecord('stock_returns', (t) =>
    t
      .addColumn('number', 'text', (col) => col.notNull())
      .addColumn('stock_transfer_id', 'integer', requiredRef('stock_transfers'))
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('from_location_type', 'text', (col) => col.notNull())
      .addColumn('from_location_id', 'integer', (col) => col.notNull())
      .addColumn('to_location_type', 'text', (col) => col.notNull())
      .addColumn('to_location_id', 'integer', (col) => col.notNull())
      .addColumn('date', dateType, (col) => col.notNull())
      .addColumn('notes', 'text')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('created_by', 'integer', ref('users')),
  );
  await db.schema.createIndex('stock_returns_number_unique').on('stock_returns').columns(['business_id', 'number']).unique().execute();
  await db.schema.createIndex('stock_returns_transfer_index').on('stock_returns').column('stock_transfer_id').execute();
  await db.schema.alterTable('stock_transfers').addColumn('stock_return_id', 'integer', ref('stock_returns')).execute();
}
