import type { Kysely } from 'kysely';
import { MONEY, THOUSANDTHS, tables } from './tables';

/**
 * Moving-average cost (docs/costing.md). `cost_entries`: what each document did to an item's
 * business-wide quantity and worth — one row per document and item, dated as the document and
 * ordered within a day by the document's first movement of the item (`sequence`), with what it is
 * worth (`value`) and what the item held after it in that order. `item_costs`: each
 * item's state after its last entry, the row every costing of the item locks first. A line that
 * moved stock keeps what its goods cost (`document_lines.cost`, centavos; null while not costed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRows, dateType, requiredRef } = tables(db);
  await businessRows('cost_entries', (t) =>
    t
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('date', dateType, (col) => col.notNull())
      .addColumn('sequence', 'bigint', (col) => col.notNull())
      .addColumn('document_type', 'text', (col) => col.notNull())
      .addColumn('document_id', 'integer', (col) => col.notNull())
      .addColumn('quantity', THOUSANDTHS, (col) => col.notNull())
      .addColumn('basis', 'text', (col) => col.notNull())
      .addColumn('given_value', MONEY)
      .addColumn('value', MONEY, (col) => col.notNull())
      .addColumn('quantity_after', THOUSANDTHS, (col) => col.notNull())
      .addColumn('value_after', MONEY, (col) => col.notNull())
      .addColumn('average_value', MONEY, (col) => col.notNull())
      .addColumn('average_quantity', THOUSANDTHS, (col) => col.notNull()),
  );
  await db.schema
    .createIndex('cost_entries_document_index')
    .on('cost_entries')
    .columns(['business_id', 'document_type', 'document_id', 'item_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('cost_entries_item_index')
    .on('cost_entries')
    .columns(['business_id', 'item_id', 'date', 'sequence'])
    .execute();
  await businessRows('item_costs', (t) =>
    t
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('quantity', THOUSANDTHS, (col) => col.notNull())
      .addColumn('value', MONEY, (col) => col.notNull())
      .addColumn('average_value', MONEY, (col) => col.notNull())
      .addColumn('average_quantity', THOUSANDTHS, (col) => col.notNull()),
  );
  await db.schema.createIndex('item_costs_item_index').on('item_costs').columns(['business_id', 'item_id']).unique().execute();
  await db.schema.alterTable('document_lines').addColumn('cost', MONEY).execute();
}
