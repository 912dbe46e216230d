import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/** The tables of the devices' working set (`domain/working-set.ts`), as they were when this ran. */
const LOGGED = [
  'items',
  'brands',
  'item_types',
  'item_classifications',
  'unit_of_measurements',
  'measuring_masses',
  'conversions',
  'services',
  'sale_item_prices',
  'service_prices',
  'purchase_item_prices',
  'contact_types',
  'contacts',
  'branches',
  'warehouses',
  'stocks',
  'purchase_orders',
  'bills',
  'quotations',
  'invoices',
  'stock_requests',
  'stock_transfers',
  'stock_returns',
  'stock_counts',
] as const;

/**
 * The change log: a row for every insert, update and delete of a working-set table, written by
 * the database's own triggers, so no path that writes (the record engine, a document's guarded
 * status update, the ledger's stock rows, an import, raw SQL) can leave it out. Devices ask for
 * what changed since their cursor (`server/sync/change-log.ts`).
 *
 * On PostgreSQL each row also holds the id of the transaction that wrote it (`tx`): ids are
 * handed out before commit, so a later id may commit first; the cursor moves only past
 * transactions that have ended. SQLite writes one transaction at a time, so its ids are in
 * commit order.
 *
 * `change_log_epoch` names this history: a restore or a copy into a new database starts another,
 * and a device holding a cursor of an old one downloads its working set again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  let table = db.schema.createTable('change_log');
  table = postgres
    ? table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  table = table
    .addColumn('business_id', 'integer', (col) => col.notNull())
    .addColumn('table_name', 'text', (col) => col.notNull())
    .addColumn('record_id', 'integer', (col) => col.notNull());
  if (postgres) table = table.addColumn('tx', 'bigint', (col) => col.notNull().defaultTo(sql`pg_current_xact_id()::text::bigint`));
  await table.execute();
  await db.schema
    .createIndex('change_log_business_index')
    .on('change_log')
    .columns(postgres ? ['business_id', 'tx', 'id'] : ['business_id', 'id'])
    .execute();
  // Pruning (oldest first) and the live feed's polling read the log by id alone.
  if (postgres) await db.schema.createIndex('change_log_tx_index').on('change_log').columns(['tx', 'id']).execute();

  await db.schema
    .createTable('change_log_epoch')
    .addColumn('epoch', 'text', (col) => col.notNull())
    // The last change pruned from the log: a cursor before it can no longer be followed.
    .addColumn('pruned_tx', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('pruned_id', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.insertInto('change_log_epoch').values({ epoch: randomUUID() }).execute();

  if (postgres) {
    // One statement-level trigger per event and table, reading the statement's rows as a whole:
    // an import of 100,000 items logs them in one insert, not 100,000.
    for (const [event, rows] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql
        .raw(
          `create function change_log_${event}() returns trigger language plpgsql as $$
          begin
            insert into change_log (business_id, table_name, record_id)
              select business_id, tg_table_name, id from changed_rows;
            return null;
          end $$`,
        )
        .execute(db);
      for (const name of LOGGED) {
        await sql
          .raw(
            `create trigger ${name}_logged_${event} after ${event} on ${name}
             referencing ${rows} table as changed_rows for each statement execute function change_log_${event}()`,
          )
          .execute(db);
      }
    }
    return;
  }
  for (const name of LOGGED) {
    for (const [event, row] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql
        .raw(
          `create trigger ${name}_logged_${event} after ${event} on ${name} begin
             insert into change_log (business_id, table_name, record_id) values (${row}.business_id, '${name}', ${row}.id);
           end`,
        )
        .execute(db);
    }
  }
}
