import type { Kysely } from 'kysely';
import { THOUSANDTHS, tables } from './tables';

/**
 * Stock counts: a count at one place (its scope: every item, a brand, a classification, an item
 * type, or the items picked as they are counted); a line per item with what the ledger held when
 * the count started (or when the item was first counted), what was counted (the sum of its
 * entries) and what the ledger held when the count was posted; and each entry as a counter added it. A stock adjustment names the count it posted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, businessRows, dateType, ref, requiredRef, timestamp } = tables(db);
  await businessRecord('stock_counts', (t) =>
    t
      .addColumn('number', 'text', (col) => col.notNull())
      .addColumn('branch_id', 'integer', ref('branches'))
      .addColumn('warehouse_id', 'integer', ref('warehouses'))
      .addColumn('date', dateType, (col) => col.notNull())
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('brand_id', 'integer', ref('brands'))
      .addColumn('item_classification_id', 'integer', ref('item_classifications'))
      .addColumn('item_type_id', 'integer', ref('item_types'))
      .addColumn('notes', 'text')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('stock_adjustment_id', 'integer', ref('stock_adjustments'))
      .addColumn('created_by', 'integer', ref('users')),
  );
  await db.schema.createIndex('stock_counts_number_unique').on('stock_counts').columns(['business_id', 'number']).unique().execute();
  await db.schema.createIndex('stock_counts_date_index').on('stock_counts').columns(['business_id', 'date']).execute();

  await businessRows('stock_count_lines', (t) =>
    t
      .addColumn('stock_count_id', 'integer', requiredRef('stock_counts'))
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('expected', THOUSANDTHS, (col) => col.notNull())
      .addColumn('counted', THOUSANDTHS, (col) => col.notNull().defaultTo(0))
      .addColumn('entries', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('posted_on_hand', THOUSANDTHS),
  );
  await db.schema
    .createIndex('stock_count_lines_item_unique')
    .on('stock_count_lines')
    .columns(['stock_count_id', 'item_id'])
    .unique()
    .execute();

  await businessRows('stock_count_entries', (t) =>
    t
      .addColumn('stock_count_id', 'integer', requiredRef('stock_counts'))
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('unit_of_measurement_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('quantity', THOUSANDTHS, (col) => col.notNull())
      .addColumn('base_quantity', THOUSANDTHS, (col) => col.notNull())
      .addColumn('created_by', 'integer', ref('users'))
      .addColumn('created_at', timestamp, (col) => col.notNull()),
  );
  await db.schema.createIndex('stock_count_entries_count_index').on('stock_count_entries').columns(['stock_count_id', 'id']).execute();

  await db.schema.alterTable('stock_adjustments').addColumn('stock_count_id', 'integer', ref('stock_counts')).execute();
}
