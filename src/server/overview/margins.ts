import { sql } from 'kysely';
import { margin } from '../../domain/costing';
import { getResource } from '../../domain/resources/registry';
import type { Db, Scope } from '../db/scope';
import { liveDocuments, pesos, viewedPlaces } from './live-documents';
import { locationNames } from './stock-value';

interface PlaceFigures {
  branch_id: number | null;
  warehouse_id: number | null;
  amount: number | string | null;
  cost: number | string | null;
  uncosted: number | string | null;
}

/**
 * Gross margin from `from` to `to`, by the branch or warehouse that sold (docs/costing.md): what
 * the period's invoices sold for, net of VAT, less what their goods cost as each line was stamped;
 * the period's sales returns take off what they gave back and the cost of the goods that came back
 * into stock. From the invoices and returns not voided nor trashed, at the places the user views.
 * `uncosted`: lines sold without a cost (goods never costed), counted at nothing.
 */
export async function marginsByPlace(db: Db, scope: Scope, from: string, to: string) {
  const sold = (await liveDocuments(db, 'invoices', scope)
    .innerJoin('document_lines', (join) =>
      join.onRef('document_lines.document_id', '=', 'invoices.id').on('document_lines.document_type', '=', 'invoice'),
    )
    .where('invoices.date', '>=', from)
    .where('invoices.date', '<=', to)
    .select([
      'invoices.branch_id',
      'invoices.warehouse_id',
      sql<number>`sum(document_lines.amount)`.as('amount'),
      sql<number>`sum(coalesce(document_lines.cost, 0))`.as('cost'),
      sql<number>`sum(case when document_lines.cost is null then 1 else 0 end)`.as('uncosted'),
    ])
    .groupBy(['invoices.branch_id', 'invoices.warehouse_id'])
    .execute()) as PlaceFigures[];
  let returns = db
    .selectFrom('sales_returns')
    .innerJoin('document_lines', (join) =>
      join.onRef('document_lines.document_id', '=', 'sales_returns.id').on('document_lines.document_type', '=', 'sales-return'),
    )
    .where('sales_returns.business_id', '=', scope.businessId)
    .where('sales_returns.deleted_at', 'is', null)
    .where('sales_returns.status', '<>', sql.lit('void'))
    .where('sales_returns.date', '>=', from)
    .where('sales_returns.date', '<=', to)
    .select([
      'sales_returns.branch_id',
      'sales_returns.warehouse_id',
      sql<number>`sum(document_lines.amount)`.as('amount'),
      sql<number>`sum(coalesce(document_lines.cost, 0))`.as('cost'),
      sql<number>`0`.as('uncosted'),
    ])
    .groupBy(['sales_returns.branch_id', 'sales_returns.warehouse_id']);
  const places = viewedPlaces(getResource('sales-returns').places!, 'sales_returns', scope);
  if (places) returns = returns.where(places);
  const names = await locationNames(db, scope.businessId);
  const byPlace = new Map<string, { sales: number; cost: number; uncosted: number }>();
  for (const [rows, sign] of [
    [sold, 1],
    [(await returns.execute()) as PlaceFigures[], -1],
  ] as const) {
    for (const row of rows) {
      const key = row.branch_id ? `branch:${row.branch_id}` : `warehouse:${String(row.warehouse_id)}`;
      const figures = byPlace.get(key) ?? { sales: 0, cost: 0, uncosted: 0 };
      figures.sales += sign * Number(row.amount ?? 0);
      figures.cost += sign * Number(row.cost ?? 0);
      figures.uncosted += Number(row.uncosted ?? 0);
      byPlace.set(key, figures);
    }
  }
  const shown = (sales: number, cost: number) => {
    const figures = margin(sales, cost);
    return { sales: pesos(sales), cost_of_goods: pesos(cost), margin: pesos(figures.margin), margin_percent: figures.percent };
  };
  const data = [...byPlace]
    .map(([key, figures]) => {
      const [type, id] = key.split(':');
      return { location_type: type, location_id: Number(id), name: names.get(key) ?? '', ...shown(figures.sales, figures.cost) };
    })
    .sort((a, b) => b.margin - a.margin || a.name.localeCompare(b.name));
  const all = [...byPlace.values()];
  const sum = (pick: (figures: { sales: number; cost: number }) => number) => all.reduce((total, figures) => total + pick(figures), 0);
  return {
    data,
    total: shown(
      sum((figures) => figures.sales),
      sum((figures) => figures.cost),
    ),
    uncosted: all.reduce((total, figures) => total + figures.uncosted, 0),
  };
}
