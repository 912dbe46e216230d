import { sql } from 'kysely';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { ACCOUNT_CREDIT, type Tender } from '../../domain/tenders';
import { nowIso } from '../db/dialect';
import type { Trx } from '../db/scope';

/**
 * Credit on account: a return settled to the party's account (`settlement: 'account'`) puts its
 * total on the contact's `credit_balance`; a payment's "Account credit" tenders take from it, and
 * their voids put back. Each move is one guarded UPDATE that never takes the balance below zero,
 * so two payments racing for the same credit cannot both spend it.
 */

/** Moves the contact's credit on account by `delta` centavos; false (nothing changed) when it would go below zero. */
export async function moveAccountCredit(trx: Trx, contactId: number, delta: number): Promise<boolean> {
  if (delta === 0) return true;
  const moved = await trx
    .updateTable('contacts')
    .set({ credit_balance: sql`credit_balance + ${delta}`, updated_at: nowIso(), version: sql`version + 1` })
    .where('id', '=', contactId)
    .where(sql<boolean>`credit_balance + ${delta} >= 0`)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/** What a contact has on account now, as words: "₱40.00". */
export async function accountCreditText(trx: Trx, contactId: number): Promise<string> {
  const row = await trx.selectFrom('contacts').select('credit_balance').where('id', '=', contactId).executeTakeFirst();
  return formatPesos(centavosToPesos(Number(row?.credit_balance ?? 0)));
}

/** What of `tenders` is paid out of credit on account, in centavos. */
export const accountCreditOf = (tenders: readonly Pick<Tender, 'method' | 'amount'>[]): number =>
  tenders.filter((tender) => tender.method === ACCOUNT_CREDIT).reduce((sum, tender) => sum + tender.amount, 0);

/** What a kept payment's tenders took from credit on account, in centavos. */
export async function accountCreditTendered(trx: Trx, paymentType: string, paymentId: number): Promise<number> {
  const row = await trx
    .selectFrom('payment_tenders')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('amount'))
    .where('payment_type', '=', paymentType)
    .where('payment_id', '=', paymentId)
    .where('method', '=', ACCOUNT_CREDIT)
    .executeTakeFirstOrThrow();
  return Number(row.amount ?? 0);
}
