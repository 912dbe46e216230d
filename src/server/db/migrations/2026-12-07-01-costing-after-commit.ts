import { sql, type Kysely } from 'kysely';

/**
 * Costing follows a document's commit instead of running inside it (docs/costing.md, "When costs
 * are written"): the ledger writes each movement with `costed = 0`, and the follow-up that costs
 * it sets 1. Every movement written before is costed already (the default). The partial index
 * holds only what waits, so finding it reads nothing when nothing does.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stock_movements')
    .addColumn('costed', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('stock_movements_uncosted_index')
    .on('stock_movements')
    .columns(['business_id', 'item_id', 'id'])
    .where(sql.ref('costed'), '=', 0)
    .execute();
}
