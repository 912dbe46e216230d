import type { Kysely } from 'kysely';
import { FLAG, MONEY, tables, THOUSANDTHS } from './tables';

/**
 * The stock ledger (balances and their movements), document numbering, document lines, and
 * the purchasing documents: purchase orders, receive orders, bills and bill payments.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, businessRows, ref, requiredRef, timestamp, dateType, header, totals, balance, payment, documentIndexes } =
    tables(db);

  // Numbering: one counter per business and series, bumped in the creating transaction.
  await db.schema
    .createTable('document_counters')
    .addColumn('business_id', 'integer', requiredRef('businesses'))
    .addColumn('series', 'text', (col) => col.notNull())
    .addColumn('value', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('document_counters_pk', ['business_id', 'series'])
    .execute();

  // Stock: a balance per item and location, and the movements that sum to it.
  await businessRecord('stocks', (t) =>
    t
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('location_type', 'text', (col) => col.notNull())
      .addColumn('location_id', 'integer', (col) => col.notNull())
      .addColumn('quantity_on_hand', THOUSANDTHS, (col) => col.notNull().defaultTo(0))
      .addColumn('quantity_in_transit', THOUSANDTHS, (col) => col.notNull().defaultTo(0)),
  );
  await db.schema
    .createIndex('stocks_item_location_unique')
    .on('stocks')
    .columns(['business_id', 'item_id', 'location_type', 'location_id'])
    .unique()
    .execute();
  await db.schema.createIndex('stocks_location_index').on('stocks').columns(['business_id', 'location_type', 'location_id']).execute();

  await businessRows('stock_movements', (t) =>
    t
      .addColumn('stock_id', 'integer', requiredRef('stocks'))
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('location_type', 'text', (col) => col.notNull())
      .addColumn('location_id', 'integer', (col) => col.notNull())
      // Deltas in the item's base unit: on hand, and in transit towards this location.
      .addColumn('quantity', THOUSANDTHS, (col) => col.notNull())
      .addColumn('in_transit', THOUSANDTHS, (col) => col.notNull().defaultTo(0))
      .addColumn('document_type', 'text', (col) => col.notNull())
      .addColumn('document_id', 'integer', (col) => col.notNull())
      .addColumn('document_number', 'text', (col) => col.notNull())
      // The document's own date (the day the goods moved), and when it was recorded.
      .addColumn('document_date', dateType, (col) => col.notNull())
      .addColumn('moved_at', timestamp, (col) => col.notNull()),
  );
  await db.schema.createIndex('stock_movements_stock_index').on('stock_movements').columns(['stock_id', 'id']).execute();
  await db.schema.createIndex('stock_movements_document_index').on('stock_movements').columns(['document_type', 'document_id']).execute();

  // Lines of every document with items, by document type and id.
  await businessRows('document_lines', (t) =>
    t
      .addColumn('document_type', 'text', (col) => col.notNull())
      .addColumn('document_id', 'integer', (col) => col.notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('unit_of_measurement_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('quantity', THOUSANDTHS, (col) => col.notNull())
      // The quantity in the item's base unit, through its conversion.
      .addColumn('base_quantity', THOUSANDTHS, (col) => col.notNull())
      .addColumn('unit_price', MONEY, (col) => col.notNull())
      // Hundredths of a percent.
      .addColumn('discount_percent', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('vatable', FLAG, (col) => col.notNull().defaultTo(0))
      .addColumn('amount', MONEY, (col) => col.notNull())
      .addColumn('vat', MONEY, (col) => col.notNull())
      // The line of the source document this one fulfils (a receive order's purchase order line).
      .addColumn('source_line_id', 'integer', ref('document_lines'))
      // How much of this line later documents fulfilled (received of a purchase order line).
      .addColumn('quantity_done', THOUSANDTHS, (col) => col.notNull().defaultTo(0)),
  );
  await db.schema
    .createIndex('document_lines_document_index')
    .on('document_lines')
    .columns(['document_type', 'document_id', 'position'])
    .execute();
  await db.schema.createIndex('document_lines_source_index').on('document_lines').column('source_line_id').execute();

  await businessRecord(
    'purchase_orders',
    header((t) => totals(t.addColumn('expected_date', dateType))),
  );
  await documentIndexes('purchase_orders');

  await businessRecord(
    'receive_orders',
    header((t) => totals(t.addColumn('purchase_order_id', 'integer', ref('purchase_orders')))),
  );
  await documentIndexes('receive_orders');
  await db.schema.createIndex('receive_orders_purchase_order_index').on('receive_orders').column('purchase_order_id').execute();

  await businessRecord(
    'bills',
    header((t) => balance(totals(t.addColumn('purchase_order_id', 'integer', ref('purchase_orders')).addColumn('due_date', dateType)))),
  );
  await documentIndexes('bills');
  await db.schema.createIndex('bills_purchase_order_index').on('bills').column('purchase_order_id').execute();
  await db.schema.createIndex('bills_open_index').on('bills').columns(['business_id', 'status', 'due_date']).execute();

  await businessRecord(
    'bill_payments',
    header((t) => payment(t.addColumn('bill_id', 'integer', requiredRef('bills')))),
  );
  await documentIndexes('bill_payments');
  await db.schema.createIndex('bill_payments_bill_index').on('bill_payments').column('bill_id').execute();
}
