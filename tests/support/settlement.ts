import type { Db } from '../../src/server/db/scope';

/** The bills or invoices paid beyond their total or owing below zero, which no sequence of requests may leave. */
export function overPaid(db: Db, table: 'bills' | 'invoices'): Promise<{ id: number }[]> {
  return db
    .selectFrom(table)
    .select('id')
    .where((eb) => eb.or([eb('amount_paid', '>', eb.ref('total')), eb('balance', '<', 0)]))
    .execute();
}
