import { sql, type Kysely } from 'kysely';
import { FLAG, MONEY } from './tables';

const PRICED = [
  ['purchase_orders', 'purchase-order'],
  ['receive_orders', 'receive-order'],
  ['bills', 'bill'],
  ['quotations', 'quotation'],
  ['invoices', 'invoice'],
] as const;

/**
 * VAT by line: an item is VATable, VAT-exempt or zero-rated (it was VATable or not: 1 → vatable,
 * 0 → exempt), and may take a senior citizen's or PWD's discount; a line keeps how it was taxed;
 * a business prices with VAT in or on top (on top, as before); a priced document keeps its sales
 * by how they are taxed (worked out for the documents already made from their lines) and the
 * senior citizen's or PWD's discount; an invoice the buyer's ID for it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('vat_category', 'text', (col) => col.notNull().defaultTo('vatable'))
    .execute();
  await sql`update items set vat_category = case when vatable = 1 then 'vatable' else 'exempt' end`.execute(db);
  await db.schema.alterTable('items').dropColumn('vatable').execute();
  await db.schema
    .alterTable('items')
    .addColumn('sc_pwd_discount', FLAG, (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .alterTable('document_lines')
    .addColumn('vat_category', 'text', (col) => col.notNull().defaultTo('vatable'))
    .execute();
  await db.schema
    .alterTable('document_lines')
    .addColumn('sc_pwd', FLAG, (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update document_lines set vat_category = case when vatable = 1 then 'vatable' else 'exempt' end`.execute(db);
  await db.schema.alterTable('document_lines').dropColumn('vatable').execute();

  await db.schema
    .alterTable('businesses')
    .addColumn('prices_include_vat', FLAG, (col) => col.notNull().defaultTo(0))
    .execute();

  for (const [table, type] of PRICED) {
    await db.schema
      .alterTable(table)
      .addColumn('prices_include_vat', FLAG, (col) => col.notNull().defaultTo(0))
      .execute();
    for (const column of ['sc_pwd_discount', 'less_vat', 'vatable_sales', 'exempt_sales', 'zero_rated_sales'])
      await db.schema
        .alterTable(table)
        .addColumn(column, MONEY, (col) => col.notNull().defaultTo(0))
        .execute();
    const sales = (category: string) =>
      sql`coalesce((select sum(l.amount) from document_lines l where l.document_type = ${type} and l.document_id = ${sql.table(table)}.id and l.vat_category = ${category}), 0)`;
    await sql`update ${sql.table(table)} set vatable_sales = ${sales('vatable')}, exempt_sales = ${sales('exempt')}`.execute(db);
  }

  for (const column of ['buyer_discount', 'buyer_discount_id_number', 'buyer_discount_name'])
    await db.schema.alterTable('invoices').addColumn(column, 'text').execute();
}
