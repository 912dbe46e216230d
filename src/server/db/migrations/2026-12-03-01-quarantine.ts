import type { Kysely } from 'kysely';
import { THOUSANDTHS } from './tables';

/**
 * Quarantine: goods on hand that may not be sold or moved until released or written off (a sales
 * return's damaged goods waiting to be looked at). A balance keeps how much of what it holds on
 * hand is quarantined (`quantity_quarantined`, never above `quantity_on_hand`), and each movement
 * how much it put into quarantine or took out of it (`quarantined`), so the movements still sum to
 * their balance.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stocks')
    .addColumn('quantity_quarantined', THOUSANDTHS, (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stock_movements')
    .addColumn('quarantined', THOUSANDTHS, (col) => col.notNull().defaultTo(0))
    .execute();
}
