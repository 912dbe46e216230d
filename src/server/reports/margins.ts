import { sql, type RawBuilder } from 'kysely';
import { margin } from '../../domain/costing';
import { listMeta } from '../../domain/list-params';
import type { PlaceType } from '../../domain/places';
import type { MarginFigures, MarginGroup, MarginRow, MarginsReport } from '../../domain/reports';
import { getResource } from '../../domain/resources/registry';
import type { Db, Scope } from '../db/scope';
import { costsSettled } from '../documents/cost-follow-up';
import { pesos, viewedPlaces } from '../overview/live-documents';
import { locationNames } from '../overview/stock-value';
import { csvRow, inert } from '../resources/csv-export';

/**
 * Gross margin in a period (docs/costing.md), grouped by the place that sold, the item, its brand
 * or classification, or the user who made the document: what the period's invoices sold for, net
 * of VAT, less what their goods cost as each line was stamped; the period's sales returns take off
 * what they gave back and the cost of the goods that came back. From the invoices and returns
 * neither voided nor trashed, at the places the user views (or one of them).
 */

export interface MarginsQuery {
  from: string;
  to: string;
  by: MarginGroup;
  place?: { type: PlaceType; id: number };
}

/** How a group reads from a document's table `t` and its lines: its kind, id, name and code, and the tables it needs. */
interface GroupColumns {
  joins: RawBuilder<unknown>;
  kind: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
  name: RawBuilder<unknown>;
  code: RawBuilder<unknown>;
}

const withItems = sql`join items on items.id = document_lines.item_id`;

function groupColumns(by: MarginGroup, t: RawBuilder<unknown>): GroupColumns {
  const none = sql`null`;
  switch (by) {
    case 'place':
      return {
        joins: sql``,
        kind: sql`case when ${t}.branch_id is not null then 'branch' else 'warehouse' end`,
        id: sql`coalesce(${t}.branch_id, ${t}.warehouse_id)`,
        name: none,
        code: none,
      };
    case 'item':
      return { joins: withItems, kind: sql`'item'`, id: sql`document_lines.item_id`, name: sql`items.name`, code: sql`items.sku` };
    case 'brand':
      return {
        joins: sql`${withItems} left join brands on brands.id = items.brand_id`,
        kind: sql`'brand'`,
        id: sql`items.brand_id`,
        name: sql`brands.name`,
        code: none,
      };
    case 'classification':
      return {
        joins: sql`${withItems} left join item_classifications on item_classifications.id = items.item_classification_id`,
        kind: sql`'classification'`,
        id: sql`items.item_classification_id`,
        name: sql`item_classifications.name`,
        code: none,
      };
    case 'user':
      return {
        joins: sql`left join users on users.id = ${t}.created_by`,
        kind: sql`'user'`,
        id: sql`${t}.created_by`,
        name: sql`users.name`,
        code: none,
      };
  }
}

/** What a group is called when its sales name none of it: an item without a brand … */
const NO_GROUP: Record<MarginGroup, string> = {
  place: 'No place',
  item: 'No item',
  brand: 'No brand',
  classification: 'No classification',
  user: 'No user recorded',
};

interface GroupRow {
  kind: string;
  id: number | string | null;
  name: string | null;
  code: string | null;
  amount: number | string | null;
  cost: number | string | null;
  uncosted: number | string | null;
}

/** The sides of a margin: the invoices' lines sold, the sales returns' lines took back. */
const SIDES = [
  { resource: 'invoices', table: 'invoices', lineType: 'invoice', sign: 1 },
  { resource: 'sales-returns', table: 'sales_returns', lineType: 'sales-return', sign: -1 },
] as const;

interface Group {
  key: string;
  name: string;
  code: string | null;
  sales: number;
  cost: number;
}

const figuresOf = (sales: number, cost: number): MarginFigures => {
  const figures = margin(sales, cost);
  return { sales: pesos(sales), cost_of_goods: pesos(cost), margin: pesos(figures.margin), margin_percent: figures.percent };
};

/** Every group's figures, the highest margin first, and the period's totals. */
export async function marginGroups(db: Db, scope: Scope, query: MarginsQuery) {
  await costsSettled(db, scope.businessId);
  const groups = new Map<string, Group>();
  let uncosted = 0;
  for (const side of SIDES) {
    const t = sql.table(side.table);
    const columns = groupColumns(query.by, t);
    const places = viewedPlaces(getResource(side.resource).places!, side.table, scope);
    const { rows } = await sql<GroupRow>`
      select ${columns.kind} as kind, ${columns.id} as id, ${columns.name} as name, ${columns.code} as code,
        sum(document_lines.amount) as amount, sum(coalesce(document_lines.cost, 0)) as cost,
        sum(case when document_lines.cost is null then 1 else 0 end) as uncosted
      from ${t}
        join document_lines on document_lines.document_id = ${t}.id and document_lines.document_type = ${sql.lit(side.lineType)}
        ${columns.joins}
      where ${t}.business_id = ${scope.businessId} and ${t}.deleted_at is null and ${t}.status <> ${sql.lit('void')}
        and ${t}.date >= ${query.from} and ${t}.date <= ${query.to}${places ? sql` and ${places}` : sql``}${
          query.place ? sql` and ${sql.ref(`${side.table}.${query.place.type}_id`)} = ${query.place.id}` : sql``
        }
      group by 1, 2, 3, 4`.execute(db);
    for (const row of rows) {
      const key = `${row.kind}:${row.id === null ? 'none' : String(row.id)}`;
      const group = groups.get(key) ?? { key, name: row.name ?? '', code: row.code, sales: 0, cost: 0 };
      group.sales += side.sign * Number(row.amount ?? 0);
      group.cost += side.sign * Number(row.cost ?? 0);
      groups.set(key, group);
      // A returned line without a cost gave back goods that never had one: no sale is left uncosted by it.
      if (side.sign > 0) uncosted += Number(row.uncosted ?? 0);
    }
  }
  const names = query.by === 'place' ? await locationNames(db, scope.businessId) : undefined;
  const data: MarginRow[] = [...groups.values()]
    .map((group) => ({
      key: group.key,
      name: names?.get(group.key) ?? (group.key.endsWith(':none') ? NO_GROUP[query.by] : group.name),
      code: group.code,
      ...figuresOf(group.sales, group.cost),
    }))
    .sort((a, b) => b.margin - a.margin || a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  const all = [...groups.values()];
  const total = figuresOf(
    all.reduce((sum, group) => sum + group.sales, 0),
    all.reduce((sum, group) => sum + group.cost, 0),
  );
  return { data, total, uncosted };
}

/** `GET /api/reports/margins`: page `page` of the groups, and the period's totals. */
export async function marginsReport(db: Db, scope: Scope, query: MarginsQuery, page: number, perPage: number): Promise<MarginsReport> {
  const { data, total, uncosted } = await marginGroups(db, scope, query);
  const rows = data.slice((page - 1) * perPage, page * perPage);
  return {
    from: query.from,
    to: query.to,
    by: query.by,
    data: rows,
    total,
    uncosted,
    meta: listMeta(data.length, page, perPage, rows.length),
  };
}

/** The margin report as CSV: a row per group (its code too when grouped by item), the total last. Money as plain decimals. */
export function* marginsCsv(by: MarginGroup, label: string, { data, total }: Awaited<ReturnType<typeof marginGroups>>): Generator<string> {
  const figures = (row: MarginFigures) => [
    row.sales.toFixed(2),
    row.cost_of_goods.toFixed(2),
    row.margin.toFixed(2),
    row.margin_percent === null ? '' : row.margin_percent.toFixed(2),
  ];
  const coded = by === 'item';
  yield csvRow([...(coded ? ['Item code'] : []), label, 'Sales', 'Cost of goods', 'Margin', 'Margin %']);
  for (const row of data) yield csvRow([...(coded ? [inert(row.code ?? '')] : []), inert(row.name), ...figures(row)]);
  yield csvRow([...(coded ? [''] : []), 'Total', ...figures(total)]);
}
