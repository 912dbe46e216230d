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
  return {
    timestamp,
    dateType: postgres ? ('date' as const) : ('text' as const),
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
    ref: (table: string) => (col: any) => col.references(`${table}.id`),
    requiredRef: (table: string) => (col: any) => col.notNull().references(`${table}.id`),
  };
}
