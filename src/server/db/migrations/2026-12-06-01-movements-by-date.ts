import type { Kysely } from 'kysely';

/**
 * Stock on a past day (the stock value report, docs/costing.md) is what is on hand now less what
 * moved after that day: this index finds a stock's later movements by date, and holds the
 * quantity so that summing them reads the index alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('stock_movements_date_index')
    .on('stock_movements')
    .columns(['stock_id', 'document_date', 'quantity'])
    .execute();
}
