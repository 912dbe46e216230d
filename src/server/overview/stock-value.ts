import { sql } from 'kysely';
import type { LocationType } from '../../domain/documents';
import { stocks } from '../../domain/resources/stocks';
import type { Db, Scope } from '../db/scope';
import { costsSettled } from '../documents/cost-follow-up';
import { itemCosts } from '../documents/item-costs';
import { pesos, viewedPlaces } from './live-documents';

/** Names of the business's warehouses and branches, keyed `warehouse:3`. */
export async function locationNames(db: Db, businessId: number): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [type, table] of [
    ['warehouse', 'warehouses'],
    ['branch', 'branches'],
  ] as const) {
    for (const row of await db.selectFrom(table).select(['id', 'name']).where('business_id', '=', businessId).execute()) {
      names.set(`${type}:${String(row.id)}`, String(row.name));
    }
  }
  return names;
}

interface LocationValueRow {
  location_type: LocationType;
  location_id: number;
  items: number;
  value: number | null;
}

/**
 * What the goods on hand are worth at each warehouse and branch (on hand × the item's cost per
 * base unit, see `itemCosts`; nothing for an item without one), with how many items are on hand
 * there; highest value first. Trashed items are left out, and the places the user does not view.
 */
export async function stockValue(db: Db, scope: Scope, today: string) {
  const { businessId } = scope;
  await costsSettled(db, businessId);
  const places = viewedPlaces(stocks.places!, 'stocks', scope);
  // Costs once per item (materialized, so not once per stock), then the stocks location by
  // location as stocks_by_location_index holds them, already grouped, each finding its item's
  // cost (SQLite through an automatic index, PostgreSQL a hash). The inner join drops trashed items.
  const { rows } = await sql<LocationValueRow>`
    with costs as materialized (${itemCosts(businessId, today)})
    select stocks.location_type, stocks.location_id, count(*) as items,
      sum(round(stocks.quantity_on_hand * costs.cost / 1000)) as value
    from stocks cross join costs
    where stocks.business_id = ${businessId} and stocks.deleted_at is null and stocks.quantity_on_hand > 0
      and costs.item_id = stocks.item_id${places ? sql` and ${places}` : sql``}
    group by stocks.location_type, stocks.location_id`.execute(db);
  const names = await locationNames(db, businessId);
  const data = rows
    .map((row) => ({
      location_type: row.location_type,
      location_id: Number(row.location_id),
      name: names.get(`${row.location_type}:${String(row.location_id)}`) ?? '',
      value: pesos(row.value),
      items: Number(row.items),
    }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
  // Each stock's value rounded to the centavo, as the stock value report lists it: the two agree, and the card adds up.
  return { data, total: pesos(rows.reduce((total, row) => total + Number(row.value ?? 0), 0)) };
}
