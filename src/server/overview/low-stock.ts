import { sql } from 'kysely';
import { holdsAny, permissionName } from '../../domain/permissions';
import { stockRequests } from '../../domain/resources/stock-requests';
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

/** A request still asking for goods: in a status a transfer can still be made from (pending, partially transferred). */
const ASKING = stockRequests.document!.lifecycle.followOns!.find((followOn) => followOn.resource === 'stock-transfers')!.from;

/** The stock request a low stock is already asked for by, as the overview names it in place of "Request stock". */
export type OpenRequest = { id: number; number: string };

/**
 * For each stock of `wanted` (a place and an item), the newest live request from that place (its
 * `to_` end) that still asks for the item: in a status a transfer can be made from, with the
 * item's line not wholly transferred. The user views the place, so they view its requests too.
 */
async function openRequests(
  db: Db,
  businessId: number,
  wanted: readonly { location_type: string; location_id: number; item_id: number }[],
) {
  const found = new Map<string, OpenRequest>();
  if (wanted.length === 0) return found;
  const rows = await db
    .selectFrom('stock_requests')
    .innerJoin('document_lines', (join) =>
      join
        .on('document_lines.document_type', '=', sql.lit(stockRequests.document!.type))
        .onRef('document_lines.document_id', '=', 'stock_requests.id'),
    )
    .select([
      'stock_requests.id',
      'stock_requests.number',
      'stock_requests.to_location_type',
      'stock_requests.to_location_id',
      'document_lines.item_id',
    ])
    .where('stock_requests.business_id', '=', businessId)
    .where('stock_requests.deleted_at', 'is', null)
    .where('stock_requests.status', 'in', ASKING)
    .where((eb) =>
      eb.or(
        wanted.map((stock) =>
          eb.and([
            eb('stock_requests.to_location_type', '=', stock.location_type),
            eb('stock_requests.to_location_id', '=', stock.location_id),
            eb('document_lines.item_id', '=', stock.item_id),
          ]),
        ),
      ),
    )
    .whereRef('document_lines.quantity_done', '<', 'document_lines.quantity')
    .orderBy('stock_requests.id')
    .execute();
  // Newest last, so each stock keeps the newest of its requests.
  for (const row of rows) {
    found.set(`${String(row.to_location_type)}:${String(row.to_location_id)}:${String(row.item_id)}`, {
      id: Number(row.id),
      number: String(row.number),
    });
  }
  return found;
}

/**
 * The `limit` stocks lowest on hand relative to their reorder level, and how many there are in
 * all; each with the open stock request already asking for it (`open_request`), for a user who
 * may view stock requests (null for anyone else, and where none asks).
 */
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
  const mayViewRequests = holdsAny(scope.permissions, [permissionName('view', stockRequests.permission)]);
  const requests = mayViewRequests
    ? await openRequests(
        db,
        scope.businessId,
        rows.map((row) => ({
          location_type: String(row.location_type),
          location_id: Number(row.location_id),
          item_id: Number(row.item_id),
        })),
      )
    : new Map<string, OpenRequest>();
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
      open_request: requests.get(`${String(row.location_type)}:${String(row.location_id)}:${String(row.item_id)}`) ?? null,
    })),
    total: Number(total),
  };
}
