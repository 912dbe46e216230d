import type { Kysely } from 'kysely';
import { FLAG } from './tables';

/**
 * What a Philippine sales invoice must show of who sells and who buys: a business's registered
 * and trade names beside its TIN and registered address; each branch's and warehouse's BIR branch
 * code (text: its leading zeros are part of it); whether a contact is VAT-registered.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('businesses').addColumn('registered_name', 'text').execute();
  await db.schema.alterTable('businesses').addColumn('trade_name', 'text').execute();
  await db.schema.alterTable('branches').addColumn('branch_code', 'text').execute();
  await db.schema.alterTable('warehouses').addColumn('branch_code', 'text').execute();
  await db.schema
    .alterTable('contacts')
    .addColumn('vat_registered', FLAG, (col) => col.notNull().defaultTo(0))
    .execute();
}
