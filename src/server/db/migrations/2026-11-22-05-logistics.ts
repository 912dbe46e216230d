import type { Kysely } from 'kysely';
import { tables } from './tables';

/** Logistics: stock requests, stock transfers (goods in transit) and stock receives, between two locations each. */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, ref, requiredRef, dateType } = tables(db);
  const twoLocations = (extra: (t: any) => any) => (t: any) =>
    extra(
      t
        .addColumn('number', 'text', (col: any) => col.notNull())
        .addColumn('from_location_type', 'text', (col: any) => col.notNull())
        .addColumn('from_location_id', 'integer', (col: any) => col.notNull())
        .addColumn('to_location_type', 'text', (col: any) => col.notNull())
        .addColumn('to_location_id', 'integer', (col: any) => col.notNull())
        .addColumn('date', dateType, (col: any) => col.notNull())
        .addColumn('notes', 'text')
        .addColumn('status', 'text', (col: any) => col.notNull())
        .addColumn('created_by', 'integer', ref('users')),
    );
  const indexes = async (table: string) => {
    await db.schema.createIndex(`${table}_number_unique`).on(table).columns(['business_id', 'number']).unique().execute();
    await db.schema.createIndex(`${table}_date_index`).on(table).columns(['business_id', 'date']).execute();
  };

  await businessRecord(
    'stock_requests',
    twoLocations((t) => t.addColumn('needed_by', dateType)),
  );
  await indexes('stock_requests');
  await businessRecord(
    'stock_transfers',
    twoLocations((t) => t.addColumn('stock_request_id', 'integer', ref('stock_requests'))),
  );
  await indexes('stock_transfers');
  await db.schema.createIndex('stock_transfers_request_index').on('stock_transfers').column('stock_request_id').execute();
  await businessRecord(
    'stock_receives',
    twoLocations((t) => t.addColumn('stock_transfer_id', 'integer', requiredRef('stock_transfers'))),
  );
  await indexes('stock_receives');
  await db.schema.createIndex('stock_receives_transfer_index').on('stock_receives').column('stock_transfer_id').execute();
}
