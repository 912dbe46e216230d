import { sql } from 'kysely';
import type { LocationType } from '../../domain/documents';
import { listMeta } from '../../domain/list-params';
import type { PlaceType } from '../../domain/places';
import type { InventoryList, StockValuePlace, StockValueReport, StockValueRow } from '../../domain/reports';
import { stocks } from '../../domain/resources/stocks';
import type { Db, Scope } from '../db/scope';
import { isPostgres } from '../db/dialect';
import { costOn, itemCosts } from '../documents/item-costs';
import { pesos, quantity, viewedPlaces } from '../overview/live-documents';
import { locationNames } from '../overview/stock-value';
import { csvRow, inert } from '../resources/csv-export';
import { reportBusiness } from '../overview/report-business';

/**
 * Stock value on a date (docs/costing.md): what each place held of each item at the end of the
 * day, at the item's moving-average cost that day. On the last day of a year it is the annual
 * inventory list the BIR asks for, as CSV and as a PDF to print.
 *
 * What a stock held on a day is what it holds now less what moved after that day, so a recent day
 * reads few movements (stock_movements_date_index); each item's cost is one index seek on
 * cost_entries (`itemCosts`). Only what was on hand counts (more than nothing): as the overview's
 * stock value card counts it, to the centavo, row by row.
 */

export interface StockValueQuery {
  date: string;
  /** One branch or warehouse, or (none) every place the user views. */
  place?: { type: PlaceType; id: number };
}

interface StockRow {
  item_id: number;
  location_type: LocationType;
  location_id: number;
  sku: string;
  item: string;
  description: string | null;
  unit: string | null;
  quantity: number | string;
  cost: number | string | null;
  value: number | string | null;
}

/** One place's rows, in the order of its items' names. */
type PlaceRows = StockValuePlace & { rows: StockValueRow[] };

/** Every place's goods on the day, the places by name. */
async function placesOnDate(db: Db, scope: Scope, { date, place }: StockValueQuery): Promise<PlaceRows[]> {
  const { businessId } = scope;
  const viewed = viewedPlaces(stocks.places!, 'stocks', scope);
  const where = sql`stocks.business_id = ${businessId} and stocks.deleted_at is null${viewed ? sql` and ${viewed}` : sql``}${
    place ? sql` and stocks.location_type = ${place.type} and stocks.location_id = ${place.id}` : sql``
  }`;
  // Each stock's quantity that day and its item's cost: PostgreSQL sums the later movements once
  // and joins the costs (hash joins); SQLite, which the app never ANALYZEs, would plan those joins
  // as scans of a scan, so it reads each stock's later movements and its item's cost by index.
  const held = isPostgres(db)
    ? sql`
      with costs as materialized (${itemCosts(businessId, date)}),
      later as materialized (
        select stock_id, sum(quantity) as quantity from stock_movements
        where business_id = ${businessId} and document_date > ${date}
        group by stock_id)
      select stocks.item_id, stocks.location_type, stocks.location_id,
        stocks.quantity_on_hand - coalesce(later.quantity, 0) as held, costs.cost
      from stocks join costs on costs.item_id = stocks.item_id left join later on later.stock_id = stocks.id
      where ${where}`
    : sql`
      select stocks.item_id, stocks.location_type, stocks.location_id,
        stocks.quantity_on_hand - coalesce((select sum(moved.quantity) from stock_movements moved
          where moved.stock_id = stocks.id and moved.document_date > ${date}), 0) as held,
        ${costOn(businessId, date, sql`stocks.item_id`)} as cost
      from stocks
      where ${where}`;
  const { rows } = await sql<StockRow>`
    with held as materialized (${held})
    select held.item_id, held.location_type, held.location_id, items.sku, items.name as item, items.description,
      coalesce(nullif(units.abbreviation, ''), units.name) as unit, held.held as quantity, held.cost,
      round(held.held * held.cost / 1000) as value
    from held
      join items on items.id = held.item_id and items.deleted_at is null
      left join unit_of_measurements units on units.id = items.unit_of_measurement_id
    where held.held > 0
    order by held.location_type, held.location_id, items.name, items.id`.execute(db);
  const names = await locationNames(db, businessId);
  const places = new Map<string, PlaceRows>();
  for (const row of rows) {
    const key = `${row.location_type}:${String(row.location_id)}`;
    let at = places.get(key);
    if (!at) {
      at = {
        location_type: row.location_type,
        location_id: Number(row.location_id),
        name: names.get(key) ?? '',
        items: 0,
        value: 0,
        rows: [],
      };
      places.set(key, at);
    }
    const value = Number(row.value ?? 0);
    at.items += 1;
    at.value += value;
    at.rows.push({
      item_id: Number(row.item_id),
      sku: row.sku,
      item: row.item,
      description: row.description,
      location_type: at.location_type,
      location_id: at.location_id,
      location: at.name,
      quantity: quantity(row.quantity),
      unit: row.unit ?? '',
      unit_cost: row.cost === null ? null : Math.round(Number(row.cost) * 100) / 10_000,
      value: pesos(value),
    });
  }
  return [...places.values()]
    .map((at) => ({ ...at, value: pesos(at.value) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.location_type.localeCompare(b.location_type) || a.location_id - b.location_id);
}

/** The total of the places' totals, which are the totals of their rows' rounded values: the list adds up to the centavo. */
const totalOf = (places: readonly StockValuePlace[]) => pesos(places.reduce((total, at) => total + Math.round(at.value * 100), 0));

const placeTotals = (places: readonly PlaceRows[]): StockValuePlace[] =>
  places.map(({ location_type, location_id, name, items, value }) => ({ location_type, location_id, name, items, value }));

/** `GET /api/reports/stock-value`: every place's total, and page `page` of the rows. */
export async function stockValueReport(
  db: Db,
  scope: Scope,
  query: StockValueQuery,
  page: number,
  perPage: number,
): Promise<StockValueReport> {
  const places = await placesOnDate(db, scope, query);
  const rows = places.flatMap((at) => at.rows);
  const data = rows.slice((page - 1) * perPage, page * perPage);
  return {
    date: query.date,
    business: await reportBusiness(db, scope.businessId),
    places: placeTotals(places),
    total: totalOf(places),
    uncosted: rows.reduce((count, row) => count + (row.unit_cost === null ? 1 : 0), 0),
    data,
    meta: listMeta(rows.length, page, perPage, data.length),
  };
}

/** The inventory list: every row, place by place. */
export async function inventoryList(db: Db, scope: Scope, query: StockValueQuery): Promise<InventoryList> {
  const places = await placesOnDate(db, scope, query);
  return { date: query.date, business: await reportBusiness(db, scope.businessId), places, total: totalOf(places) };
}

const quantityText = (value: number) => value.toFixed(3);

/**
 * The inventory list as CSV: a row per item and place (Place, Item code, Item, Description,
 * Quantity, Unit, Unit cost, Total cost), each place's total after its rows, the whole total last.
 * Money and quantities as plain decimals; a unit cost of goods never costed is empty.
 */
export function* inventoryListCsv({ places, total }: InventoryList): Generator<string> {
  yield csvRow(['Place', 'Item code', 'Item', 'Description', 'Quantity', 'Unit', 'Unit cost', 'Total cost']);
  // A thousand rows to a piece: the answer is written in pieces of some size, not in 150,000 small ones.
  let piece: string[] = [];
  for (const at of places) {
    for (const row of at.rows) {
      if (piece.length === 1000) {
        yield piece.join('');
        piece = [];
      }
      piece.push(
        csvRow([
          inert(at.name),
          inert(row.sku),
          inert(row.item),
          inert(row.description ?? ''),
          quantityText(row.quantity),
          inert(row.unit),
          row.unit_cost === null ? '' : row.unit_cost.toFixed(4),
          row.value.toFixed(2),
        ]),
      );
    }
    piece.push(csvRow([inert(`Total, ${at.name}`), '', '', '', '', '', '', at.value.toFixed(2)]));
  }
  yield piece.join('') + csvRow(['Total', '', '', '', '', '', '', total.toFixed(2)]);
}
