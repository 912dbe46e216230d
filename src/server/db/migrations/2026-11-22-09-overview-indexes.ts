import { sql, type Kysely } from 'kysely';

/** The document tables as of this migration: named here, not read from the registry, so it stays frozen. */
const DOCUMENT_TABLES = [
  'purchase_orders',
  'receive_orders',
  'bills',
  'bill_payments',
  'quotations',
  'invoices',
  'invoice_payments',
  'credit_memoranda',
  'debit_memoranda',
  'stock_requests',
  'stock_transfers',
  'stock_receives',
  'stock_returns',
];

/**
 * What the overview's cards read (src/server/overview), indexed so that they answer quickly at a
 * million stock movements and a hundred thousand invoices. The partial indexes hold only the
 * documents that count (not trashed, not voided); their queries spell the same conditions with
 * literals, which is how SQLite proves such an index applies.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const live = sql`deleted_at is null and status <> 'void'`;
  for (const table of ['invoices', 'bills']) {
    // Sales and purchases per day: the totals, by date, without reading the table.
    await sql`create index ${sql.id(`${table}_live_date_index`)} on ${sql.table(table)} (business_id, date, total)
      where ${live}`.execute(db);
    // Receivables and payables: open balances by the day they fall due, the oldest first.
    await sql`create index ${sql.id(`${table}_unpaid_index`)} on ${sql.table(table)} (business_id, coalesce(due_date, date), balance)
      where ${live} and balance > 0`.execute(db);
  }
  // Recent documents: each document table's newest first.
  for (const table of DOCUMENT_TABLES) {
    await db.schema.createIndex(`${table}_created_index`).on(table).columns(['business_id', 'created_at']).execute();
  }
  // Stock value and low stock read indexes alone, never the tables: the live items with their
  // base unit and reorder level; each item's latest purchase price, one seek per item; the
  // stocks on hand location by location (stock value); and an item's stocks by quantity on hand,
  // a range for "at or under the level" (low stock).
  const covering = [
    ['items_stock_index', 'items', ['business_id', 'deleted_at', 'id', 'unit_of_measurement_id', 'reorder_level']],
    [
      'purchase_item_prices_latest_index',
      'purchase_item_prices',
      ['business_id', 'item_id', 'effective_date', 'id', 'deleted_at', 'unit_of_measurement_id', 'price'],
    ],
    ['stocks_by_location_index', 'stocks', ['business_id', 'deleted_at', 'location_type', 'location_id', 'item_id', 'quantity_on_hand']],
    ['stocks_by_item_index', 'stocks', ['business_id', 'item_id', 'deleted_at', 'quantity_on_hand', 'location_type', 'location_id']],
  ] as const;
  for (const [name, table, columns] of covering) {
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();
  }
}
