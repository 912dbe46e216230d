import type { Kysely } from 'kysely';

/**
 * Why an invoice was let take its customer past their credit limit (`documents/sales.ts`): given
 * by whoever holds `override-credit-limits`, kept with the invoice; null for every invoice that
 * stayed within it, and for every invoice before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('credit_override_reason', 'text').execute();
}
