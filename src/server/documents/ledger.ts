import { sql } from 'kysely';
import { fromThousandths, MAX_STOCK_THOUSANDTHS } from '../../domain/quantity';
import type { Location } from '../../domain/documents';
import { nowIso } from '../db/dialect';
import { conflict } from '../errors';
import { adjustCount } from '../resources/resource-counts';
import { oweCosts, WAITING } from './cost-follow-up';
import type { Db, Scope, Trx } from '../db/scope';

/**
 * The stock ledger: a balance per item and location (`stocks`) and the movements that sum to it
 * (`stock_movements`), always written together in the transaction of the document that moves
 * the goods; once it has committed, a follow-up costs them (`cost-follow-up.ts`). Quantities are thousandths of the item's base unit. Of what is on hand, a balance may
 * hold some in quarantine (a return's goods waiting to be looked at): they count on hand, but no
 * movement may take them until one takes them out of quarantine — only what is sellable (on hand
 * less quarantined) leaves by a sale, a transfer or an adjustment.
 */

export interface DocumentRef {
  type: string;
  id: number;
  number: string;
  /** `YYYY-MM-DD`: the day the goods moved. */
  date: string;
}

export interface Movement {
  itemId: number;
  location: Location;
  /** Change on hand. */
  quantity: number;
  /** Change in transit towards the location. */
  inTransit?: number;
  /** Change of what is quarantined there: into quarantine (above zero) or out of it (below). */
  quarantined?: number;
}

/** A balance of nothing, as a place's first movement of an item starts it. */
function zeroBalance(scope: Scope, itemId: number, location: Location, now: string) {
  return {
    business_id: scope.businessId,
    item_id: itemId,
    location_type: location.type,
    location_id: location.id,
    quantity_on_hand: 0,
    quantity_in_transit: 0,
    quantity_quarantined: 0,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** Balances made by one statement: far under either database's limit of parameters. */
const BALANCES_PER_INSERT = 500;

/**
 * Balances at zero for those of `itemIds` that have none at the location yet, in the order given
 * (item order, as racing writers must take them), by hundreds per statement; one made meanwhile
 * by another transaction is waited for and left as it is.
 */
export async function openBalances(trx: Trx, scope: Scope, itemIds: readonly number[], location: Location): Promise<void> {
  const now = nowIso();
  for (let at = 0; at < itemIds.length; at += BALANCES_PER_INSERT) {
    const made = await trx
      .insertInto('stocks')
      .values(itemIds.slice(at, at + BALANCES_PER_INSERT).map((itemId) => zeroBalance(scope, itemId, location, now)))
      .onConflict((conflictOn) => conflictOn.columns(['business_id', 'item_id', 'location_type', 'location_id']).doNothing())
      .executeTakeFirst();
    const rows = Number(made.numInsertedOrUpdatedRows ?? 0);
    if (rows > 0) await adjustCount(trx, scope.businessId, 'stocks', rows, 0);
  }
}

/** The balances of the business at one location (its rows of `stocks`), to narrow to items and select from. */
export function balancesAt(db: Db, scope: Scope, location: Location) {
  return db
    .selectFrom('stocks')
    .where('business_id', '=', scope.businessId)
    .where('location_type', '=', location.type)
    .where('location_id', '=', location.id);
}

/** The stock row of an item at a location, made at zero when it is the first movement there. */
async function stockRow(trx: Trx, scope: Scope, itemId: number, location: Location): Promise<number> {
  const created = await trx
    .insertInto('stocks')
    .values(zeroBalance(scope, itemId, location, nowIso()))
    .onConflict((conflictOn) => conflictOn.columns(['business_id', 'item_id', 'location_type', 'location_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (created) {
    await adjustCount(trx, scope.businessId, 'stocks', 1, 0);
    return created.id;
  }
  const row = await balancesAt(trx, scope, location).select('id').where('item_id', '=', itemId).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Applies movements for a document. A movement taking more than is sellable (on hand less
 * quarantined), or out of quarantine more than is in it, is refused (409, naming the item) and,
 * since the caller's transaction then rolls back, nothing is written. The balance is changed by
 * one conditional UPDATE, so concurrent documents cannot oversell.
 */
export async function move(trx: Trx, scope: Scope, document: DocumentRef, movements: readonly Movement[]): Promise<void> {
  const now = nowIso();
  // What the business holds of each item (on hand and in transit, at every place) changes its
  // cost: the movements wait to be costed once this transaction has committed (cost-follow-up.ts).
  oweCosts(trx);
  // Balances are locked in one order by every document (item, then place), so two documents
  // moving the same goods wait for each other instead of each holding what the other needs.
  const ordered = [...movements].sort(
    (a, b) => a.itemId - b.itemId || a.location.type.localeCompare(b.location.type) || a.location.id - b.location.id,
  );
  for (const movement of ordered) {
    if (movement.quantity === 0 && !movement.inTransit && !movement.quarantined) continue;
    const stockId = await stockRow(trx, scope, movement.itemId, movement.location);
    const inTransit = movement.inTransit ?? 0;
    const quarantined = movement.quarantined ?? 0;
    const updated = await trx
      .updateTable('stocks')
      .set({
        quantity_on_hand: sql`quantity_on_hand + ${movement.quantity}`,
        quantity_in_transit: sql`quantity_in_transit + ${inTransit}`,
        quantity_quarantined: sql`quantity_quarantined + ${quarantined}`,
        updated_at: now,
        version: sql`version + 1`,
      })
      .where('id', '=', stockId)
      .where(sql<boolean>`quantity_on_hand + ${movement.quantity} between 0 and ${MAX_STOCK_THOUSANDTHS}`)
      .where(sql<boolean>`quantity_in_transit + ${inTransit} between 0 and ${MAX_STOCK_THOUSANDTHS}`)
      // What is quarantined stays between nothing and all that is on hand: what leaves is sellable.
      .where(sql<boolean>`quantity_quarantined + ${quarantined} between 0 and quantity_on_hand + ${movement.quantity}`)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await refuseMove(trx, stockId, movement);
    await trx
      .insertInto('stock_movements')
      .values({
        business_id: scope.businessId,
        stock_id: stockId,
        item_id: movement.itemId,
        location_type: movement.location.type,
        location_id: movement.location.id,
        quantity: movement.quantity,
        in_transit: inTransit,
        quarantined,
        document_type: document.type,
        document_id: document.id,
        document_number: document.number,
        document_date: document.date,
        moved_at: now,
        costed: WAITING,
      })
      .execute();
  }
}

/** Why a balance refused a movement: not enough sellable, in transit or in quarantine, or more than a balance may hold. */
async function refuseMove(trx: Trx, stockId: number, movement: Movement): Promise<never> {
  const row = await trx
    .selectFrom('stocks')
    .innerJoin('items', 'items.id', 'stocks.item_id')
    .select(['items.name', 'items.sku', 'stocks.quantity_on_hand', 'stocks.quantity_in_transit', 'stocks.quantity_quarantined'])
    .where('stocks.id', '=', stockId)
    .executeTakeFirstOrThrow();
  const kind = movement.location.type === 'branch' ? 'branch' : 'warehouse';
  const named = await trx
    .selectFrom(movement.location.type === 'branch' ? 'branches' : 'warehouses')
    .select('name')
    .where('id', '=', movement.location.id)
    .executeTakeFirst();
  // The place by its name: a cashier may sell at one branch and a clerk ship from several warehouses.
  const place = named ? named.name : `this ${kind}`;
  const beyond =
    row.quantity_on_hand + movement.quantity > MAX_STOCK_THOUSANDTHS ||
    row.quantity_in_transit + (movement.inTransit ?? 0) > MAX_STOCK_THOUSANDTHS;
  if (beyond) {
    throw conflict(`${row.name} (${row.sku}) at ${place} would hold more than a stock balance can count.`);
  }
  const quarantined = Number(row.quantity_quarantined);
  const released = -(movement.quarantined ?? 0);
  if (released > quarantined) {
    throw conflict(
      `Not that much ${row.name} (${row.sku}) in quarantine at ${place}: ` +
        `${fromThousandths(quarantined)} quarantined, ${fromThousandths(released)} to take out.`,
    );
  }
  const held = quarantined > 0 ? ` (${fromThousandths(quarantined)} of them quarantined, not for sale or transfer)` : '';
  throw conflict(
    `Not enough ${row.name} (${row.sku}) in stock at ${place}: ` +
      `${fromThousandths(row.quantity_on_hand)} on hand${held}, ${fromThousandths(-movement.quantity)} needed.`,
  );
}

export interface Discrepancy {
  stockId: number;
  itemId: number;
  location: string;
  onHand: number;
  movementsOnHand: number;
  inTransit: number;
  movementsInTransit: number;
  quarantined: number;
  movementsQuarantined: number;
}

/** A stock row as the ledger check reads it, beside the sums of its movements. */
const STOCK_COLUMNS = [
  'stocks.id',
  'stocks.item_id',
  'stocks.location_type',
  'stocks.location_id',
  'stocks.quantity_on_hand',
  'stocks.quantity_in_transit',
  'stocks.quantity_quarantined',
] as const;

/** Every balance that does not equal the sum of its movements (none, when the ledger is sound). */
export async function ledgerDiscrepancies(db: Db): Promise<Discrepancy[]> {
  const rows = await db
    .selectFrom('stocks')
    .leftJoin('stock_movements', 'stock_movements.stock_id', 'stocks.id')
    .select([
      ...STOCK_COLUMNS,
      sql<number>`coalesce(sum(stock_movements.quantity), 0)`.as('moved'),
      sql<number>`coalesce(sum(stock_movements.in_transit), 0)`.as('moved_in_transit'),
      sql<number>`coalesce(sum(stock_movements.quarantined), 0)`.as('moved_quarantined'),
    ])
    .groupBy([...STOCK_COLUMNS])
    .execute();
  return rows
    .filter(
      (row) =>
        row.quantity_on_hand !== row.moved ||
        row.quantity_in_transit !== row.moved_in_transit ||
        row.quantity_quarantined !== row.moved_quarantined,
    )
    .map((row) => ({
      stockId: row.id,
      itemId: row.item_id,
      location: `${row.location_type} ${row.location_id}`,
      onHand: row.quantity_on_hand,
      movementsOnHand: row.moved,
      inTransit: row.quantity_in_transit,
      movementsInTransit: row.moved_in_transit,
      quarantined: row.quantity_quarantined,
      movementsQuarantined: row.moved_quarantined,
    }));
}
