import type { Kysely } from 'kysely';
import { FLAG, MONEY, tables } from './tables';

/**
 * Sales returns: goods a customer brings back from an invoice (whose date it keeps, as its printed
 * credit memorandum names it), at its place, with the totals of
 * their share of it, what was credited to the invoice (`amount`, which its balance counts as
 * adjusted) and what was refunded (in tenders, kept as a payment's are). Their lines live in the
 * shared lines table, which gains what becomes of a returned line's goods (`disposition`; null on
 * the other kinds' lines).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, header, totals, requiredRef, dateType, documentIndexes, placeIndexes } = tables(db);
  await businessRecord(
    'sales_returns',
    header((t) => {
      let table = totals(
        t.addColumn('invoice_id', 'integer', requiredRef('invoices')).addColumn('invoice_date', dateType, (col) => col.notNull()),
      )
        .addColumn('settlement', 'text', (col) => col.notNull())
        .addColumn('prices_include_vat', FLAG, (col) => col.notNull().defaultTo(0))
        .addColumn('amount', MONEY, (col) => col.notNull().defaultTo(0))
        .addColumn('refunded', MONEY, (col) => col.notNull().defaultTo(0));
      for (const column of ['sc_pwd_discount', 'less_vat', 'vatable_sales', 'exempt_sales', 'zero_rated_sales'])
        table = table.addColumn(column, MONEY, (col) => col.notNull().defaultTo(0));
      return table;
    }),
  );
  await documentIndexes('sales_returns');
  await placeIndexes('sales_returns', 'one-place');
  await db.schema.createIndex('sales_returns_invoice_index').on('sales_returns').column('invoice_id').execute();
  await db.schema.alterTable('document_lines').addColumn('disposition', 'text').execute();
}
