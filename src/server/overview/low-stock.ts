import { sql } from 'kysely';
import { stocks } from '../../domain/resources/stocks';
import type { Db, Scope } from '../db/scope';
import { quantity, viewedPlaces } from './live-documents';
import { locationNames } from './stock-value';

/**
 * Stocks at or under their item's reorder level (as the stocks list's Reorder badge decides), of
 * live items, at the places the user views: from each item with a level (items_stock_index), a
 * range of its stocks (stocks_by_item_index, which holds their places too); the cross join keeps
 * SQLite in that order.
 */
function lowStocks(db: Db, scope: Scope) {
  const { businessId } = scope;
  const query = db
    .selectFrom('items')
    .crossJoin('stocks')
    .where('items.business_id', '=', businessId)
    .where('items.deleted_at', 'is', null)
    .where('items.reorder_level', 'is not', null)
    .where('stocks.business_id', '=', businessId)
    .whereRef('stocks.item_id', '=', 'items.id')
    .where('stocks.deleted_at', 'is', null)
    .whereRef('stocks.quantity_on_hand', '<=', 'items.reorder_level');
  const places = viewedPlaces(stocks.places!, 'stocks', scope);
  return places ? query.where(places) : query;
}

/** The `limit` stocks lowest on hand relative to their reorder level, and how many there are in all. */
export async function lowStock(db: Db, scope: Scope, limit: number) {
  const rows = await lowStocks(db, scope)
    .leftJoin('unit_of_measurements', 'unit_of_measurements.id', 'items.unit_of_measurement_id')
    .select([
      'stocks.id as stock_id',
      'stocks.item_id',
      'items.name as item',
      'items.sku',
      'stocks.location_type',
      'stocks.location_id',
      'stocks.quantity_on_hand',
      'items.reorder_level',
      'unit_of_measurements.abbreviation as unit',
    ])
    // A level of zero reached means nothing is on hand: as urgent as it gets.
    .orderBy(sql`case when items.reorder_level > 0 then stocks.quantity_on_hand * 1.0 / items.reorder_level else 0 end`)
    .orderBy('stocks.quantity_on_hand')
    .orderBy('stocks.id')
    .limit(limit)
    .execute();
  const { total } = await lowStocks(db, scope)
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  const names = rows.length > 0 ? await locationNames(db, scope.businessId) : new Map<string, string>();
  return {
    data: rows.map((row) => ({
      stock_id: Number(row.stock_id),
      item_id: Number(row.item_id),
      item: String(row.item),
      sku: row.sku === null ? null : String(row.sku),
      location_type: String(row.location_type),
      location_id: Number(row.location_id),
      location: names.get(`${String(row.location_type)}:${String(row.location_id)}`) ?? '',
      quantity_on_hand: quantity(row.quantity_on_hand),
      reorder_level: quantity(row.reorder_level),
      unit: row.unit === null ? null : String(row.unit),
    })),
    total: Number(total),
  };
}
