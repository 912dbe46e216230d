import { sql } from 'kysely';
import type { Db, Scope } from '../db/scope';
import { addDays, daysBetween } from './calendar';
import { liveDocuments, pesos, type BalanceTable } from './live-documents';

const OLDEST_SHOWN = 5;

/** When a document falls due: its due date, else its own date. Spelled as the unpaid index is. */
const dueDay = sql<string>`coalesce(due_date, date)`;

/**
 * What customers owe (invoices) or what is owed suppliers (bills): documents with a balance
 * left, in total, aged by the days from their due date to `today` (not yet due counts as 0–30),
 * and the five most overdue; of the places the user views.
 */
export async function openBalances(db: Db, table: BalanceTable, scope: Scope, today: string) {
  const unpaid = () => liveDocuments(db, table, scope).where(`${table}.balance`, '>', sql.lit(0));
  // One range of unpaid_index per bucket: a GROUP BY over a CASE would read every invoice.
  const aging = [];
  for (const [bucket, dueFrom, dueTo] of [
    ['0-30', addDays(today, -30), null],
    ['31-60', addDays(today, -60), addDays(today, -31)],
    ['61-90', addDays(today, -90), addDays(today, -61)],
    ['90+', null, addDays(today, -91)],
  ] as const) {
    let query = unpaid();
    if (dueFrom) query = query.where(dueDay, '>=', dueFrom);
    if (dueTo) query = query.where(dueDay, '<=', dueTo);
    const row = await query
      .select([(eb) => eb.fn.countAll().as('count'), (eb) => eb.fn.sum('balance').as('amount')])
      .executeTakeFirstOrThrow();
    aging.push({ bucket, centavos: Number(row.amount ?? 0), count: Number(row.count) });
  }
  const oldest = await unpaid()
    .leftJoin('contacts', 'contacts.id', `${table}.contact_id`)
    .select([`${table}.id`, `${table}.number`, 'contacts.name as contact', `${table}.date`, `${table}.due_date`, `${table}.balance`])
    .orderBy(dueDay)
    .orderBy(`${table}.id`)
    .limit(OLDEST_SHOWN)
    .execute();

  return {
    total: pesos(aging.reduce((total, row) => total + row.centavos, 0)),
    count: aging.reduce((total, row) => total + row.count, 0),
    aging: aging.map(({ bucket, centavos, count }) => ({ bucket, amount: pesos(centavos), count })),
    oldest: oldest.map((row) => ({
      id: Number(row.id),
      number: String(row.number),
      contact: row.contact === null ? null : String(row.contact),
      date: String(row.date),
      due_date: row.due_date === null ? null : String(row.due_date),
      balance: pesos(row.balance),
      days_overdue: Math.max(0, daysBetween(String(row.due_date ?? row.date), today)),
    })),
  };
}
