import { sql, type Kysely } from 'kysely';
import { MONEY, tables } from './tables';

const PAYMENTS = [
  ['invoice_payments', 'invoice-payment'],
  ['bill_payments', 'bill-payment'],
] as const;

/**
 * Payments as people pay: each payment of an invoice or a bill is made of tenders, in order —
 * a method, its amount (centavos), and what traces it (a reference number or a card's approval
 * code; a check's bank, number and date). A payment's amount is their sum and its method theirs,
 * or `split`. Each payment made before is one tender of its method and amount, traced by its
 * reference (a check's, as its number).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { businessRows, dateType } = tables(db);
  await businessRows('payment_tenders', (t) =>
    t
      .addColumn('payment_type', 'text', (col) => col.notNull())
      .addColumn('payment_id', 'integer', (col) => col.notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('method', 'text', (col) => col.notNull())
      .addColumn('amount', MONEY, (col) => col.notNull())
      .addColumn('reference', 'text')
      .addColumn('bank', 'text')
      .addColumn('check_number', 'text')
      .addColumn('check_date', dateType),
  );
  await db.schema
    .createIndex('payment_tenders_payment_unique')
    .on('payment_tenders')
    .columns(['payment_type', 'payment_id', 'position'])
    .unique()
    .execute();

  for (const [table, type] of PAYMENTS) {
    await sql`
      insert into payment_tenders (business_id, payment_type, payment_id, position, method, amount, reference, check_number)
      select business_id, ${type}, id, 0, payment_method, amount,
        case when payment_method in ('cash', 'check') then null else payment_reference end,
        case when payment_method = 'check' then payment_reference end
      from ${sql.table(table)}
      order by id`.execute(db);
  }
}
