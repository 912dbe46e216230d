import { sql } from 'kysely';
import { RETURN_REASONS } from '../../domain/resources/sales-returns';
import { getResource } from '../../domain/resources/registry';
import type { Db, Scope } from '../db/scope';
import { pesos, viewedPlaces } from './live-documents';

/**
 * Goods that came back from `from` to `to`, by why: for each reason any line of the period's
 * sales returns gave (not voided nor trashed, at the places the user views), how many returns
 * gave it and what its lines came to (with their VAT, as the customers were paid back), in the
 * order the return's form offers the reasons; and the period's returns and what they came to.
 */
export async function returnsByReason(db: Db, scope: Scope, from: string, to: string) {
  const live = (query: ReturnType<typeof periodReturns>) => {
    const places = viewedPlaces(getResource('sales-returns').places!, 'sales_returns', scope);
    return places ? query.where(places) : query;
  };
  const periodReturns = () =>
    db
      .selectFrom('sales_returns')
      .where('sales_returns.business_id', '=', scope.businessId)
      .where('sales_returns.deleted_at', 'is', null)
      .where('sales_returns.status', '<>', sql.lit('void'))
      .where('sales_returns.date', '>=', from)
      .where('sales_returns.date', '<=', to);
  const rows = await live(periodReturns())
    .innerJoin('document_lines', (join) =>
      join.onRef('document_lines.document_id', '=', 'sales_returns.id').on('document_lines.document_type', '=', 'sales-return'),
    )
    .select([
      'document_lines.reason',
      sql<number>`count(distinct sales_returns.id)`.as('returns'),
      sql<number>`sum(document_lines.amount + document_lines.vat)`.as('amount'),
    ])
    .groupBy('document_lines.reason')
    .execute();
  const totals = await live(periodReturns())
    .select([sql<number>`count(*)`.as('returns'), sql<number>`coalesce(sum(sales_returns.total), 0)`.as('amount')])
    .executeTakeFirstOrThrow();
  const order = (reason: string | null) => RETURN_REASONS.findIndex((option) => option.value === reason);
  return {
    returns: Number(totals.returns),
    amount: pesos(totals.amount),
    data: rows
      .sort((a, b) => order(a.reason) - order(b.reason))
      .map((row) => ({
        reason: String(row.reason),
        label: RETURN_REASONS.find((option) => option.value === row.reason)?.label ?? String(row.reason),
        returns: Number(row.returns),
        amount: pesos(row.amount),
      })),
  };
}
