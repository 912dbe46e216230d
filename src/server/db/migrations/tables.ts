import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Column conventions for migrations after the foundation (which keeps its own copy, frozen):
 * every record has id, timestamps, soft delete and version; money is centavos and quantities
 * thousandths in bigints; flags are 0/1.
 */

type Table = CreateTableBuilder<string, string>;

export const MONEY = 'bigint';
export const THOUSANDTHS = 'bigint';
export const FLAG = 'integer';

export function tables(db: Kysely<any>) {
  const postgres = isPostgres(db);
  const timestamp = postgres ? ('timestamptz' as const) : ('text' as const);
  const withId = (table: Table): Table =>
    postgres
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  const record = (table: Table): Table => {
    return withId(table)
      .addColumn('created_at', timestamp, (col) => col.notNull())
      .addColumn('updated_at', timestamp, (col) => col.notNull())
      .addColumn('deleted_at', timestamp)
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1));
  };
  const ref = (table: string) => (col: any) => col.references(`${table}.id`);
  const requiredRef = (table: string) => (col: any) => col.notNull().references(`${table}.id`);
  const dateType = postgres ? ('date' as const) : ('text' as const);
  return {
    timestamp,
    dateType,
    /** A business-scoped record table, with its (business_id, id) index. */
    async businessRecord(name: string, columns: (table: Table) => Table): Promise<void> {
      await columns(
        record(db.schema.createTable(name)).addColumn('business_id', 'integer', (col) => col.notNull().references('businesses.id')),
      ).execute();
      await db.schema.createIndex(`${name}_business_id_index`).on(name).columns(['business_id', 'id']).execute();
    },
    /** A business-scoped table of rows that are never edited nor trashed (a ledger). */
    async businessRows(name: string, columns: (table: Table) => Table): Promise<void> {
      await columns(
        withId(db.schema.createTable(name)).addColumn('business_id', 'integer', (col) => col.notNull().references('businesses.id')),
      ).execute();
    },
    ref,
    requiredRef,
    /** The columns every document has, then `extra`'s. */
    header: (extra: (t: Table) => Table) => (t: Table) =>
      extra(
        t
          .addColumn('number', 'text', (col) => col.notNull())
          .addColumn('reference_number', 'text')
          .addColumn('contact_id', 'integer', requiredRef('contacts'))
          .addColumn('branch_id', 'integer', ref('branches'))
          .addColumn('warehouse_id', 'integer', ref('warehouses'))
          .addColumn('date', dateType, (col) => col.notNull())
          .addColumn('notes', 'text')
          .addColumn('status', 'text', (col) => col.notNull())
          .addColumn('created_by', 'integer', ref('users')),
      ),
    /** The totals of a document's lines. */
    totals: (t: Table) =>
      t
        .addColumn('subtotal', MONEY, (col) => col.notNull().defaultTo(0))
        .addColumn('discount_total', MONEY, (col) => col.notNull().defaultTo(0))
        .addColumn('vat_total', MONEY, (col) => col.notNull().defaultTo(0))
        .addColumn('total', MONEY, (col) => col.notNull().defaultTo(0)),
    /** What was paid of a bill or an invoice, and what is left. */
    balance: (t: Table) =>
      t
        .addColumn('amount_paid', MONEY, (col) => col.notNull().defaultTo(0))
        .addColumn('balance', MONEY, (col) => col.notNull().defaultTo(0)),
    /** A payment's amount and how it was paid. */
    payment: (t: Table) =>
      t
        .addColumn('amount', MONEY, (col) => col.notNull())
        .addColumn('payment_method', 'text', (col) => col.notNull())
        .addColumn('payment_reference', 'text'),
    /** A document's number is unique in its business; lists find it by contact and by date. */
    async documentIndexes(table: string): Promise<void> {
      await db.schema.createIndex(`${table}_number_unique`).on(table).columns(['business_id', 'number']).unique().execute();
      await db.schema.createIndex(`${table}_contact_index`).on(table).columns(['contact_id', 'date']).execute();
      await db.schema.createIndex(`${table}_date_index`).on(table).columns(['business_id', 'date']).execute();
    },
    /**
     * A document kind's indexes by place, as every kind before it has them (2026-11-27-01-places):
     * a user kept to some places lists and counts theirs, and the overview reads the newest, without
     * walking every document of the business. `ends`: a document at one branch or warehouse
     * (`branch_id`, `warehouse_id`), or goods between two places (`from_…`, `to_…`).
     * `schema-check.test.ts` refuses a document kind without them.
     */
    async placeIndexes(table: string, ends: 'one-place' | 'between-places'): Promise<void> {
      const index = (name: string, columns: string[]) =>
        db.schema
          .createIndex(`${table}_${name}_index`)
          .on(table)
          .columns(['business_id', ...columns])
          .execute();
      const places =
        ends === 'one-place'
          ? ['branch_id', 'warehouse_id']
          : ['from_location_type', 'from_location_id', 'to_location_type', 'to_location_id'];
      if (ends === 'one-place') {
        await index('branch', ['branch_id', 'id']);
        await index('warehouse', ['warehouse_id', 'id']);
      } else {
        await index('from', ['from_location_type', 'from_location_id', 'id']);
        await index('to', ['to_location_type', 'to_location_id', 'id']);
      }
      await index('created', ['created_at', 'id', ...places]);
    },
  };
}
