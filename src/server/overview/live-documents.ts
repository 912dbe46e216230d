import { sql } from 'kysely';
import type { Query } from '../resources/store';
import type { Db } from '../db/scope';

/** Bills and invoices: what the overview's money figures are made of. */
export type BalanceTable = 'invoices' | 'bills';

/**
 * The business's documents of `table` that count: not trashed and not voided. The literals stay
 * literals (never bound parameters) so that SQLite can prove the overview's partial indexes apply.
 */
export function liveDocuments(db: Db, table: BalanceTable, businessId: number): Query {
  return db
    .selectFrom(table)
    .where(`${table}.business_id`, '=', businessId)
    .where(`${table}.deleted_at`, 'is', null)
    .where(`${table}.status`, '<>', sql.lit('void'));
}

/** Centavos (or a database's numeric sum of them) as pesos, to the centavo. */
export const pesos = (centavos: unknown) => Math.round(Number(centavos ?? 0)) / 100;

/** Thousandths as a quantity, to 3 places. */
export const quantity = (thousandths: unknown) => Math.round(Number(thousandths ?? 0)) / 1000;
