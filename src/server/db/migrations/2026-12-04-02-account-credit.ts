import type { Kysely } from 'kysely';
import { MONEY } from './tables';

/**
 * Credit on account: what returns settled to a customer's or supplier's account put there, less
 * what payments' "Account credit" tenders used of it — kept on the contact, moved only by guarded
 * updates that never take it below zero.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('contacts')
    .addColumn('credit_balance', MONEY, (col) => col.notNull().defaultTo(0))
    .execute();
}
