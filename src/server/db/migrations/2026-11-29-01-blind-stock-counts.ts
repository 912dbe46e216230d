import type { Kysely } from 'kysely';
import { FLAG } from './tables';

/**
 * A stock count may be blind: while it is counted, nobody sees what is expected of its items.
 * Counts started before are not.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stock_counts')
    .addColumn('blind', FLAG, (col) => col.notNull().defaultTo(0))
    .execute();
}
