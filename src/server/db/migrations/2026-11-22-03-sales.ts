import type { Kysely } from 'kysely';
import { tables } from './tables';

/** Sales documents: quotations, invoices (stock out) and invoice payments. */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRecord, ref, requiredRef, dateType, header, totals, balance, payment, documentIndexes } = tables(db);

  await businessRecord(
    'quotations',
    header((t) => totals(t.addColumn('valid_until', dateType))),
  );
  await documentIndexes('quotations');

  await businessRecord(
    'invoices',
    header((t) => balance(totals(t.addColumn('quotation_id', 'integer', ref('quotations')).addColumn('due_date', dateType)))),
  );
  await documentIndexes('invoices');
  await db.schema.createIndex('invoices_quotation_index').on('invoices').column('quotation_id').execute();
  await db.schema.createIndex('invoices_open_index').on('invoices').columns(['business_id', 'status', 'due_date']).execute();

  await businessRecord(
    'invoice_payments',
    header((t) => payment(t.addColumn('invoice_id', 'integer', requiredRef('invoices')))),
  );
  await documentIndexes('invoice_payments');
  await db.schema.createIndex('invoice_payments_invoice_index').on('invoice_payments').column('invoice_id').execute();
}
