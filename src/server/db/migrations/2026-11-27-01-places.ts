import { sql, type Kysely } from 'kysely';
import { tables } from './tables';

/** Documents at one place: by branch or by warehouse. */
const AT_A_PLACE = [
  'purchase_orders',
  'receive_orders',
  'bills',
  'bill_payments',
  'quotations',
  'invoices',
  'invoice_payments',
  'credit_memoranda',
  'debit_memoranda',
  'stock_adjustments',
  'stock_counts',
] as const;
/** Goods between two places. */
const BETWEEN_PLACES = ['stock_requests', 'stock_transfers', 'stock_receives', 'stock_returns'] as const;
/** Prices for one branch or (no branch) for all. */
const PRICES = ['sale_item_prices', 'service_prices'] as const;

/**
 * Places: in each business a user holds every place at a level (`memberships.all_places`:
 * `none`, `view` or `operate`) and, beside it, single branches and warehouses at a level
 * (`user_places`). Every membership made before this change keeps every place to operate, so
 * nobody sees or may do less after the upgrade.
 *
 * A user kept to a few places reads their documents through indexes by place, so a list or a
 * count of one place among many does not walk every document of the business.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { timestamp } = tables(db);
  await db.schema
    .alterTable('memberships')
    .addColumn('all_places', 'text', (col) => col.notNull().defaultTo('none'))
    .execute();
  await sql`update memberships set all_places = 'operate'`.execute(db);
  await db.schema
    .createTable('user_places')
    .addColumn('business_id', 'integer', (col) => col.notNull().references('businesses.id'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('place_type', 'text', (col) => col.notNull())
    .addColumn('place_id', 'integer', (col) => col.notNull())
    .addColumn('level', 'text', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('user_places_pkey', ['business_id', 'user_id', 'place_type', 'place_id'])
    .execute();
  const index = (table: string, name: string, columns: string[]) =>
    db.schema
      .createIndex(`${table}_${name}_index`)
      .on(table)
      .columns(['business_id', ...columns, 'id'])
      .execute();
  for (const table of [...AT_A_PLACE, ...PRICES]) await index(table, 'branch', ['branch_id']);
  for (const table of AT_A_PLACE) await index(table, 'warehouse', ['warehouse_id']);
  for (const table of BETWEEN_PLACES) {
    await index(table, 'from', ['from_location_type', 'from_location_id']);
    await index(table, 'to', ['to_location_type', 'to_location_id']);
  }

  // The overview's indexes (2026-11-22-09) made again with the columns naming each document's
  // place at their end, so that a user kept to some places reads the same index range as one who
  // views them all and drops the other places' rows there, never reading the table for them: their
  // cards cost what everyone's do. Adjustments and counts get their newest-first index too.
  const atAPlace = ['branch_id', 'warehouse_id'];
  const live = sql`deleted_at is null and status <> 'void'`;
  const drop = async (name: string) => sql`drop index if exists ${sql.id(name)}`.execute(db);
  for (const table of ['invoices', 'bills']) {
    await drop(`${table}_live_date_index`);
    await sql`create index ${sql.id(`${table}_live_date_index`)} on ${sql.table(table)} (business_id, date, total, branch_id, warehouse_id)
      where ${live}`.execute(db);
    await drop(`${table}_unpaid_index`);
    await sql`create index ${sql.id(`${table}_unpaid_index`)} on ${sql.table(table)}
      (business_id, coalesce(due_date, date), balance, branch_id, warehouse_id) where ${live} and balance > 0`.execute(db);
  }
  const ends = ['from_location_type', 'from_location_id', 'to_location_type', 'to_location_id'];
  for (const [table, places] of [
    ...AT_A_PLACE.map((name) => [name, atAPlace] as const),
    ...BETWEEN_PLACES.map((name) => [name, ends] as const),
  ]) {
    await drop(`${table}_created_index`);
    await db.schema
      .createIndex(`${table}_created_index`)
      .on(table)
      .columns(['business_id', 'created_at', 'id', ...places])
      .execute();
  }
}
