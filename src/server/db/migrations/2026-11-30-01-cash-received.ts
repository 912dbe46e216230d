import type { Kysely } from 'kysely';
import { MONEY } from './tables';

/**
 * What a customer handed over for a cash tender (centavos, at least its amount), so its receipt
 * tells the change: null for every tender before, and for one whose cash received was not told.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_tenders').addColumn('received', MONEY).execute();
}
