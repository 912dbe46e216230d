import { sql, type RawBuilder } from 'kysely';
import type { PlaceRule } from '../../domain/places';
import { getResource } from '../../domain/resources/registry';
import { placeAccessOf, placeCondition } from '../resources/places';
import type { Query } from '../resources/store';
import type { Db, Scope } from '../db/scope';

/** Bills and invoices: what the overview's money figures are made of. */
export type BalanceTable = 'invoices' | 'bills';

/**
 * The condition that keeps the rows of `rule`, read as `table`, to the places the scope views;
 * null for someone who views every place, whose figures take in the whole business. The place ids
 * are literals, as the places indexes are read by them.
 */
export function viewedPlaces(rule: PlaceRule, table: string, scope: Scope): RawBuilder<boolean> | null {
  return placeCondition(rule, (column) => `${table}.${column}`, placeAccessOf(scope), 'view');
}

/**
 * The business's documents of `table` that count: not trashed and not voided, at the places the
 * scope views. The literals stay literals (never bound parameters) so that SQLite can prove the
 * overview's partial indexes apply.
 */
export function liveDocuments(db: Db, table: BalanceTable, scope: Scope): Query {
  const query = db
    .selectFrom(table)
    .where(`${table}.business_id`, '=', scope.businessId)
    .where(`${table}.deleted_at`, 'is', null)
    .where(`${table}.status`, '<>', sql.lit('void'));
  const places = viewedPlaces(getResource(table).places!, table, scope);
  return places ? query.where(places) : query;
}

/** Centavos (or a database's numeric sum of them) as pesos, to the centavo. */
export const pesos = (centavos: unknown) => Math.round(Number(centavos ?? 0)) / 100;

/** Thousandths as a quantity, to 3 places. */
export const quantity = (thousandths: unknown) => Math.round(Number(thousandths ?? 0)) / 1000;
