import type { Kysely } from 'kysely';
import { MONEY, tables } from './tables';

/**
 * Credit memoranda (what a customer owes on an invoice, reduced) and debit memoranda (what is
 * owed a supplier on a bill, reduced), each with its reason; bills and invoices keep the total
 * of their memoranda beside what was paid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, requiredRef, header, documentIndexes } = tables(db);
  for (const table of ['bills', 'invoices']) {
    await db.schema
      .alterTable(table)
      .addColumn('amount_adjusted', MONEY, (col) => col.notNull().defaultTo(0))
      .execute();
  }
  for (const [table, paid] of [
    ['credit_memoranda', 'invoices'],
    ['debit_memoranda', 'bills'],
  ] as const) {
    const field = paid === 'invoices' ? 'invoice_id' : 'bill_id';
    await businessRecord(
      table,
      header((t) =>
        t
          .addColumn(field, 'integer', requiredRef(paid))
          .addColumn('amount', MONEY, (col) => col.notNull())
          .addColumn('reason', 'text', (col) => col.notNull()),
      ),
    );
    await documentIndexes(table);
    await db.schema.createIndex(`${table}_${field}_index`).on(table).column(field).execute();
  }
}
