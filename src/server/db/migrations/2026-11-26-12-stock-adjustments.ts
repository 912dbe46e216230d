import type { Kysely } from 'kysely';
import { tables } from './tables';

/**
 * Stock adjustments: stock corrected at one branch or warehouse, numbered like every document.
 * Their lines live in the shared lines table, which gains a line's reason and note (empty for the
 * other kinds' lines).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, dateType, ref } = tables(db);
  await businessRecord('stock_adjustments', (t) =>
    t
      .addColumn('number', 'text', (col) => col.notNull())
      .addColumn('branch_id', 'integer', ref('branches'))
      .addColumn('warehouse_id', 'integer', ref('warehouses'))
      .addColumn('date', dateType, (col) => col.notNull())
      .addColumn('notes', 'text')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('created_by', 'integer', ref('users')),
  );
  await db.schema
    .createIndex('stock_adjustments_number_unique')
    .on('stock_adjustments')
    .columns(['business_id', 'number'])
    .unique()
    .execute();
  await db.schema.createIndex('stock_adjustments_date_index').on('stock_adjustments').columns(['business_id', 'date']).execute();
  await db.schema.alterTable('document_lines').addColumn('reason', 'text').execute();
  await db.schema.alterTable('document_lines').addColumn('note', 'text').execute();
}
