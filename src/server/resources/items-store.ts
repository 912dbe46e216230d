import { sql } from 'kysely';
import { fromThousandths } from '../../domain/quantity';
import { items } from '../../domain/resources/items';
import { isPostgres } from '../db/dialect';
import type { Db, Scope } from '../db/scope';
import { businessTableStore, type ResourceStore } from './store';
import { isPlaceType, levelAt, reaches } from '../../domain/places';
import { placeAccessOf } from './places';

/**
 * An item's base unit is what its stock, its movements and its documents' base quantities are
 * counted in: changed under them, "10 pc" on hand would read "10 case". So it is fixed once
 * anything counts in it.
 */

/** Places named in a lock's words before the rest are only counted. */
const PLACES_NAMED = 3;

/** The ids as one bound value, read back as rows of `id`: one parameter however many ids an import sends. */
function idRows(db: Db, ids: readonly number[]) {
  const list = JSON.stringify(ids);
  return isPostgres(db)
    ? sql`select cast(value as bigint) as id from json_array_elements_text(cast(${list} as json))`
    : sql`select value as id from json_each(${list})`;
}

interface UseRow {
  item_id: number;
  unit: string;
  kind: 'stock' | 'documents' | 'counts';
  place: string | null;
  location_type: string | null;
  location_id: number | null;
  on_hand: number;
  in_transit: number;
  count: number;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`);

/** "a, b and c" */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * The words of one item's lock, from its rows: what it holds where, and what counts in it. Stock
 * at a place the user does not view is only counted, never named nor measured (`viewed`).
 */
function lockWords(rows: readonly UseRow[], viewed: (row: UseRow) => boolean): string {
  const unit = rows[0].unit;
  const stocks = rows.filter((row) => row.kind === 'stock' && viewed(row));
  const elsewhere = rows.filter((row) => row.kind === 'stock' && !viewed(row)).length;
  const held: string[] = [];
  for (const row of stocks) {
    const place = row.place ?? 'a place since deleted';
    if (Number(row.on_hand) !== 0) held.push(`${fromThousandths(Number(row.on_hand))} ${unit} on hand at ${place}`);
    if (Number(row.in_transit) !== 0) held.push(`${fromThousandths(Number(row.in_transit))} ${unit} in transit to ${place}`);
  }
  const parts = held.length > PLACES_NAMED ? [...held.slice(0, PLACES_NAMED), `more at ${held.length - PLACES_NAMED} other places`] : held;
  if (elsewhere > 0) parts.push(`it is stocked at ${plural(elsewhere, 'place', 'places')} you do not work at`);
  // A balance that holds nothing now was still moved in this unit: its movements count in it.
  if (held.length === 0 && stocks.length > 0) {
    parts.push(
      `its stock movements at ${listed(stocks.slice(0, PLACES_NAMED).map((row) => row.place ?? 'a place since deleted'))} count in ${unit}`,
    );
  }
  const documents = Number(rows.find((row) => row.kind === 'documents')?.count ?? 0);
  if (documents > 0) parts.push(`${plural(documents, 'document uses', 'documents use')} it`);
  const counts = Number(rows.find((row) => row.kind === 'counts')?.count ?? 0);
  if (counts > 0) parts.push(`${plural(counts, 'stock count counts', 'stock counts count')} it`);
  return `Its base unit is fixed: ${listed(parts)}. Add a conversion to buy, sell or count it in another unit.`;
}

/**
 * Why each of `itemIds` may no longer change its base unit, in words naming what uses it ("Its
 * base unit is fixed: 10 pc on hand at Makati and 3 documents use it. …"); an item that nothing
 * uses yet is not in the answer. Used are: a stock balance (every movement is counted in one, so
 * a balance stands for its movements too), a document's line, a stock count's line. One query,
 * however many items: the items import asks it for every item whose unit a file changes.
 */
export async function baseUnitLocks(db: Db, scope: Scope, itemIds: readonly number[]): Promise<Map<number, string>> {
  const locks = new Map<number, string>();
  const ids = [...new Set(itemIds)];
  if (ids.length === 0) return locks;
  const business = scope.businessId;
  const { rows } = await sql<UseRow>`
    with wanted as (${idRows(db, ids)})
    select uses.item_id, units.abbreviation as unit, uses.kind, uses.place, uses.location_type, uses.location_id,
      uses.on_hand, uses.in_transit, uses.count
    from (
      select stocks.item_id, 'stock' as kind, coalesce(branches.name, warehouses.name) as place,
        stocks.location_type, stocks.location_id, stocks.quantity_on_hand as on_hand, stocks.quantity_in_transit as in_transit, 0 as count
      from stocks
        left join branches on stocks.location_type = 'branch' and branches.id = stocks.location_id
        left join warehouses on stocks.location_type = 'warehouse' and warehouses.id = stocks.location_id
      where stocks.business_id = ${business} and stocks.item_id in (select id from wanted)
      union all
      select item_id, 'documents', null, null, null, 0, 0, count(*)
      from (
        select distinct item_id, document_type, document_id from document_lines
        where business_id = ${business} and item_id in (select id from wanted)
      ) as lined
      group by item_id
      union all
      select item_id, 'counts', null, null, null, 0, 0, count(*)
      from stock_count_lines
      where business_id = ${business} and item_id in (select id from wanted)
      group by item_id
    ) as uses
      inner join items on items.id = uses.item_id
      inner join unit_of_measurements units on units.id = items.unit_of_measurement_id
    order by uses.item_id, uses.kind, uses.place`.execute(db);
  const byItem = new Map<number, UseRow[]>();
  for (const row of rows) {
    const id = Number(row.item_id);
    byItem.set(id, [...(byItem.get(id) ?? []), row]);
  }
  const access = placeAccessOf(scope);
  const viewed = (row: UseRow) =>
    isPlaceType(row.location_type) && reaches(levelAt(access, row.location_type, Number(row.location_id)), 'view');
  for (const [id, uses] of byItem) locks.set(id, lockWords(uses, viewed));
  return locks;
}

/**
 * Items: a change of the base unit is refused once anything counts in it (`baseUnitLocks`). The
 * record is locked while this runs (an update reads it under its lock first), and a document's
 * lines read their items under a share lock, so a line in the old unit cannot slip in between.
 */
export const itemsStore: ResourceStore = {
  ...businessTableStore(items),
  async validate(db, scope, values, exceptId): Promise<Record<string, string[]>> {
    const unitId = values.unit_of_measurement_id;
    if (exceptId === undefined || typeof unitId !== 'number') return {};
    const current = await db
      .selectFrom('items')
      .select('unit_of_measurement_id')
      .where('id', '=', exceptId)
      .where('business_id', '=', scope.businessId)
      .executeTakeFirst();
    if (!current || current.unit_of_measurement_id === unitId) return {};
    const lock = (await baseUnitLocks(db, scope, [exceptId])).get(exceptId);
    return lock ? { unit_of_measurement_id: [lock] } : {};
  },
};
