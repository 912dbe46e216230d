import type { Kysely } from 'kysely';
import { FLAG, MONEY, tables } from './tables';

/**
 * Purchase returns: goods sent back to a supplier from a bill (whose date it keeps, as its printed
 * debit memorandum names it), at the bill's place, with the totals of their share of it, what was
 * taken off the bill (`amount`, which its balance counts as adjusted) and what the supplier
 * refunded (in tenders, kept as a payment's are). Their lines live in the shared lines table, as a
 * sales return's do.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, header, totals, requiredRef, dateType, documentIndexes, placeIndexes } = tables(db);
  await businessRecord(
    'purchase_returns',
    header((t) => {
      let table = totals(t.addColumn('bill_id', 'integer', requiredRef('bills')).addColumn('bill_date', dateType, (col) => col.notNull()))
        .addColumn('settlement', 'text', (col) => col.notNull())
        .addColumn('prices_include_vat', FLAG, (col) => col.notNull().defaultTo(0))
        .addColumn('amount', MONEY, (col) => col.notNull().defaultTo(0))
        .addColumn('refunded', MONEY, (col) => col.notNull().defaultTo(0));
      for (const column of ['sc_pwd_discount', 'less_vat', 'vatable_sales', 'exempt_sales', 'zero_rated_sales'])
        table = table.addColumn(column, MONEY, (col) => col.notNull().defaultTo(0));
      return table;
    }),
  );
  await documentIndexes('purchase_returns');
  await placeIndexes('purchase_returns', 'one-place');
  await db.schema.createIndex('purchase_returns_bill_index').on('purchase_returns').column('bill_id').execute();
}
