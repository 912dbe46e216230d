import { z } from 'zod';
import { sql, type RawBuilder } from 'kysely';
import { countDifference, differenceValue } from '../../domain/count-figures';
import { todayInManila, type Location } from '../../domain/documents';
import { listMeta } from '../../domain/list-params';
import { viewsRecord } from '../../domain/places';
import { centavosToPesos } from '../../domain/money';
import { fromThousandths } from '../../domain/quantity';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import {
  COUNT_SCOPES,
  expectedHidden,
  outsideScope,
  SCOPE_FIELDS,
  stockCounts,
  type CountLineFilter,
} from '../../domain/resources/stock-counts';
import { recordActivity } from '../activity/activity-log';
import { containsIgnoringCase, forUpdate, nowIso } from '../db/dialect';
import { conflict, HttpError, notFound, validationError } from '../errors';
import type { ApiRecord } from '../resources/codec';
import { assertOperates, placeAccessOf } from '../resources/places';
import { createRecord } from '../resources/record-service';
import type { ResourceStore } from '../resources/store';
import type { Db, Scope, Trx } from '../db/scope';
import type { ServerPart } from './server-part';
import { documentStore, locationOf, viewedSource, type TransitionDone } from './document-store';
import { costsSettled } from './cost-follow-up';
import { itemCosts } from './item-costs';
import { balancesAt, openBalances } from './ledger';
import { priceLines } from './lines';

/**
 * Stock counts. Starting one writes a line per item of its scope with what the ledger holds at
 * its place then (`expected`). Each entry a counter adds — from any device, online or replayed
 * from its outbox — adds to its line's `counted` in one UPDATE, so two devices counting the same
 * shelf add up; an item outside the scope is refused in words. A line can be taken off again
 * (`uncountLine`): back to not counted, its entries gone. Posting locks the count and the balances
 * of what was counted, notes what each holds (`posted_on_hand`), and writes one stock adjustment
 * (reason: count correction) of the differences: afterwards each counted balance is what was
 * counted. Uncounted lines move nothing. A count's record carries tallies, never its lines: those
 * are read a page at a time (`countLinesPage`), as a count of every item may hold a hundred thousand.
 * A count is at its place like any document: its lines are read by someone who views the place
 * (not found for anyone else), counted, taken off, finished and posted by someone who operates there.
 * A blind count's lines and record say nothing of what is expected, on hand or different while it
 * is open (`expectedHidden`); finishing its counting shows them, and only then is it posted. Finishing
 * and posting are transitions its lifecycle declares, taken by the document transition routes
 * (routes/documents.routes.ts); what posting writes is its step here (`countsPart`).
 */

/**
 * What a count counts of a balance: what is on hand and sellable. Quarantined goods are kept apart
 * and leave only by an adjustment's release or write-off, so a count neither expects nor corrects them.
 */
const SELLABLE = sql`stocks.quantity_on_hand - stocks.quantity_quarantined`;

/** The items a count of this scope covers at the start; none for picked items, added as they are counted. */
async function startLines(trx: Trx, scope: Scope, countId: number, columns: Record<string, unknown>): Promise<void> {
  if (columns.scope === 'picked') return;
  const location = locationOf(columns)!;
  const field = SCOPE_FIELDS[String(columns.scope)];
  const narrowed = field ? sql` and items.${sql.ref(field)} = ${Number(columns[field])}` : sql``;
  await sql`
    insert into stock_count_lines (business_id, stock_count_id, item_id, expected, counted, entries)
    select items.business_id, ${countId}, items.id, coalesce(${SELLABLE}, 0), 0, 0
    from items left join stocks on stocks.item_id = items.id and stocks.business_id = items.business_id
      and stocks.location_type = ${location.type} and stocks.location_id = ${location.id}
    where items.business_id = ${scope.businessId} and items.deleted_at is null${narrowed}`.execute(trx);
}

const scopeLabel = (scope: string) => COUNT_SCOPES.find((option) => option.value === scope)!.label.toLowerCase();

const stockCountsStore: ResourceStore = (() => {
  const base = documentStore(stockCounts, {
    async prepare(_trx, _scope, columns) {
      // The scope's own narrowing is required, and no other is taken.
      const wanted = SCOPE_FIELDS[String(columns.scope)];
      const errors: Record<string, string[]> = {};
      for (const [scope, field] of Object.entries(SCOPE_FIELDS)) {
        const label = stockCounts.fields[field].label.toLowerCase();
        const named = scopeLabel(scope);
        if (field === wanted && !columns[field]) errors[field] = [`Pick the ${label}: the items counted are ${named}.`];
        if (field !== wanted && columns[field]) errors[field] = [`The ${label} is only for counting ${named}.`];
      }
      if (Object.keys(errors).length > 0) throw validationError(errors);
      return {};
    },
    async apply(trx, scope, document, _prepared, columns) {
      await startLines(trx, scope, document.id, columns);
    },
  });
  return {
    ...base,
    async decorate(db, scope, records) {
      await base.decorate?.(db, scope, records);
      await decorateCounts(db, scope, records);
    },
    decorated: {
      lines_total: z.number().int().describe('How many items are on the count'),
      lines_counted: z.number().int().describe('How many of them were counted'),
      lines_differing: z
        .number()
        .int()
        .optional()
        .describe('How many counted lines differ from on hand: only when the count is read alone, and not while a blind count is open'),
      difference_value: z
        .number()
        .optional()
        .describe(
          'Their net difference in pesos at the items’ costs: only when the count is read alone, and not while a blind count is open',
        ),
    },
    // Its lines and entries are its own parts: they go with it.
    async remove(trx, scope, id) {
      for (const table of ['stock_count_entries', 'stock_count_lines'] as const) {
        await trx.deleteFrom(table).where('stock_count_id', '=', id).where('business_id', '=', scope.businessId).execute();
      }
      await base.remove(trx, scope, id);
    },
  };
})();

interface CountLineRow {
  id: number;
  item_id: number;
  expected: number;
  counted: number;
  entries: number;
  posted_on_hand: number | null;
  name: string;
  sku: string;
  barcode: string | null;
  unit_of_measurement_id: number;
  unit: string | null;
  on_hand: number | null;
  cost: number | null;
}

/**
 * Every count read gets its tallies (how many lines, how many counted); a count read alone also
 * gets how many counted lines differ from what is on hand and their net value — never the lines
 * themselves, which the sheet reads a page at a time.
 */
async function decorateCounts(db: Db, scope: Scope, records: ApiRecord[]): Promise<void> {
  const ids = records.map((record) => Number(record.id));
  const tallies = await db
    .selectFrom('stock_count_lines')
    .select(['stock_count_id', sql<number>`count(*)`.as('lines'), sql<number>`sum(case when entries > 0 then 1 else 0 end)`.as('counted')])
    .where('stock_count_id', 'in', ids)
    .groupBy('stock_count_id')
    .execute();
  const byCount = new Map(tallies.map((row) => [Number(row.stock_count_id), row]));
  for (const record of records) {
    const tally = byCount.get(Number(record.id));
    record.lines_total = Number(tally?.lines ?? 0);
    record.lines_counted = Number(tally?.counted ?? 0);
  }
  // A blind count being counted says nothing of its differences.
  if (records.length !== 1 || expectedHidden(records[0])) return;
  const [record] = records;
  const location = locationOf(record)!;
  const id = Number(record.id);
  await costsSettled(db, scope.businessId);
  // What each counted line differs by, then the items' costs for those lines only.
  const { rows } = await sql<{ differing: number; value: number | null }>`
    with differing as (
      select lines.item_id, lines.counted - ${ON_HAND} as difference
      from stock_count_lines lines ${stocksAt(location)}
      where lines.stock_count_id = ${id} and lines.business_id = ${scope.businessId}${SHOWN.differences}
    ), costs as (${itemCosts(scope.businessId, String(record.date), sql`select item_id from differing`)})
    select count(*) as differing, sum(differing.difference * costs.cost) as value
    from differing left join costs on costs.item_id = differing.item_id`.execute(db);
  record.lines_differing = Number(rows[0]?.differing ?? 0);
  record.difference_value = centavosToPesos(Math.round(Number(rows[0]?.value ?? 0) / 1000));
}

/** Joins each line's balance at the count's place (none where it has none). */
const stocksAt = (location: Location) => sql`
  left join stocks on stocks.item_id = lines.item_id and stocks.business_id = lines.business_id
    and stocks.location_type = ${location.type} and stocks.location_id = ${location.id}`;

/** On hand for a line (with its balance joined by `stocksAt`), sellable: when the count was posted, else now. */
const ON_HAND = sql`coalesce(lines.posted_on_hand, ${SELLABLE}, 0)`;

/** The lines each filter shows (a line is counted once it has an entry). */
const SHOWN: Record<CountLineFilter, RawBuilder<unknown>> = {
  all: sql``,
  uncounted: sql` and lines.entries = 0`,
  counted: sql` and lines.entries > 0`,
  differences: sql` and lines.entries > 0 and lines.counted <> ${ON_HAND}`,
};

export interface LinesWanted {
  show: CountLineFilter;
  /** Part of the item's name, SKU or barcode. */
  search?: string;
  page: number;
  perPage: number;
}

/**
 * A page of a count's lines, by item name, filtered and searched here rather than on the device:
 * each line with what was expected at the start, what is on hand now (at posting, once posted)
 * and what moved in between, what was counted (null while nothing was), the difference in units
 * and in pesos at the item's moving-average cost on the count's date (docs/costing.md; null for an item never costed).
 */
export async function countLinesPage(db: Db, scope: Scope, countId: number, wanted: LinesWanted) {
  const count = await db
    .selectFrom('stock_counts')
    .selectAll()
    .where('id', '=', countId)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  // A count at a place the user does not view is not there for them, as another business's.
  if (!count || !viewsRecord(placeAccessOf(scope), stockCounts.places!, count)) throw notFound('stock count');
  // Which items differ would tell what is expected of them.
  if (wanted.show === 'differences' && expectedHidden(count)) {
    throw validationError({ show: ['A blind count shows its differences once its counting is finished.'] });
  }
  const search = wanted.search?.trim() ?? '';
  const found =
    search === ''
      ? sql``
      : sql` and (${containsIgnoringCase(db, 'items.name', search)} or ${containsIgnoringCase(db, 'items.sku', search)}
          or ${containsIgnoringCase(db, 'items.barcode', search)})`;
  const where = sql`${SHOWN[wanted.show]}${found}`;
  const data = await readLines(db, scope, count, where, { limit: wanted.perPage, offset: (wanted.page - 1) * wanted.perPage });
  const location = locationOf(count)!;
  const { rows } = await sql<{ total: number }>`
    select count(*) as total from stock_count_lines lines inner join items on items.id = lines.item_id ${stocksAt(location)}
    where lines.stock_count_id = ${countId} and lines.business_id = ${scope.businessId}${where}`.execute(db);
  return { data, meta: listMeta(Number(rows[0]?.total ?? 0), wanted.page, wanted.perPage, data.length) };
}

/**
 * The lines of a count that `where` selects, by item name; costs are looked up for those lines
 * only. A blind count being counted gives each line without what is expected, moved, on hand and
 * different: what was counted, and the item's cost.
 */
async function readLines(
  db: Db,
  scope: Scope,
  count: Record<string, unknown>,
  where: RawBuilder<unknown>,
  { limit, offset }: { limit: number; offset: number },
) {
  const location = locationOf(count)!;
  const id = Number(count.id);
  await costsSettled(db, scope.businessId);
  const { rows } = await sql<CountLineRow>`
    with shown as (
      select lines.id, lines.item_id, lines.expected, lines.counted, lines.entries, lines.posted_on_hand,
        items.name, items.sku, items.barcode, items.unit_of_measurement_id, ${SELLABLE} as on_hand
      from stock_count_lines lines inner join items on items.id = lines.item_id ${stocksAt(location)}
      where lines.stock_count_id = ${id} and lines.business_id = ${scope.businessId}${where}
      order by items.name, lines.id
      limit ${limit} offset ${offset}
    ), costs as (${itemCosts(scope.businessId, String(count.date), sql`select item_id from shown`)})
    select shown.*, units.abbreviation as unit, costs.cost
    from shown
      left join unit_of_measurements units on units.id = shown.unit_of_measurement_id
      left join costs on costs.item_id = shown.item_id
    order by shown.name, shown.id`.execute(db);
  const hidden = expectedHidden(count);
  return rows.map((row) => {
    const onHand = Number(row.posted_on_hand ?? row.on_hand ?? 0);
    const counted = Number(row.entries) > 0 ? Number(row.counted) : null;
    const difference = counted === null ? null : countDifference(counted, onHand);
    const cost = row.cost === null ? null : Number(row.cost);
    const value = difference === null ? null : differenceValue(difference, cost);
    const line = {
      id: Number(row.id),
      item_id: Number(row.item_id),
      item: { id: Number(row.item_id), display: row.name, sku: row.sku, barcode: row.barcode },
      unit_of_measurement_id: Number(row.unit_of_measurement_id),
      unit: row.unit,
      counted: counted === null ? null : fromThousandths(counted),
      entries: Number(row.entries),
      unit_cost: cost === null ? null : centavosToPesos(Math.round(cost)),
    };
    if (hidden) return line;
    return {
      ...line,
      expected: fromThousandths(Number(row.expected)),
      on_hand: fromThousandths(onHand),
      moved: fromThousandths(onHand - Number(row.expected)),
      difference: difference === null ? null : fromThousandths(difference),
      difference_value: value === null ? null : centavosToPesos(value),
    };
  });
}

/** The count's line of one item, as the sheet shows it. */
async function lineOfItem(db: Db, scope: Scope, count: Record<string, unknown>, itemId: number) {
  const [line] = await readLines(db, scope, count, sql` and lines.item_id = ${itemId}`, { limit: 1, offset: 0 });
  return line;
}

/**
 * The count, locked, for a change of its lines (an entry, a line taken off): not found
 * where the user does not view its place, refused (403) where they only view. Read as stored
 * rather than as the engine's record, which adds the count's differences: a scan answers at once
 * however many items the count holds.
 */
async function countToChange(trx: Trx, scope: Scope, countId: number): Promise<Record<string, unknown>> {
  const count = await viewedSource(trx, scope, stockCounts, countId);
  if (!count) throw notFound('stock count');
  await assertOperates(trx, scope, stockCounts, count);
  return count;
}

const refusedUnlessOpen = (row: Record<string, unknown>, verb: string) => {
  if (row.status === 'open') return;
  throw conflict(`Stock count ${String(row.number)} is ${String(row.status)}: nothing can be ${verb} it any more.`);
};

export interface EntryInput {
  item_id: number;
  unit_of_measurement_id?: number | null;
  quantity: number;
}

/**
 * Adds a counted quantity (negative to take back a miscount) to a count's line of the item, making
 * the line when the item is not on the count yet (picked items), with what the ledger holds now as
 * expected. An item outside the count's scope (another brand than the one counted, say) is refused
 * in words. The count is locked first, so an entry, a line taken off and a posting of the same
 * count never interleave; the line's total may not go below zero. Answers the line.
 */
export async function addEntry(trx: Trx, scope: Scope, countId: number, input: EntryInput) {
  const count = await countToChange(trx, scope, countId);
  refusedUnlessOpen(count, 'added to');
  const item = await trx
    .selectFrom('items')
    .select(['id', 'name', 'unit_of_measurement_id', 'brand_id', 'item_classification_id', 'item_type_id'])
    .where('id', '=', input.item_id)
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!item) throw validationError({ item_id: ['The selected item is invalid.'] });
  const onCount = await trx
    .selectFrom('stock_count_lines')
    .select('id')
    .where('stock_count_id', '=', countId)
    .where('item_id', '=', item.id)
    .executeTakeFirst();
  const outside = onCount ? null : outsideScope(count, item, await coveredName(trx, count));
  if (outside) throw validationError({ item_id: [outside] });
  const unitId = input.unit_of_measurement_id ?? item.unit_of_measurement_id;
  const priced = await priceLines(
    trx,
    scope,
    [{ item_id: item.id, unit_of_measurement_id: unitId, quantity: input.quantity, reason: 'count_correction' }],
    { list: null, date: String(count.date), partyId: null, adjusts: true },
  ).catch((error: unknown) => {
    // The line's messages (lines.0.quantity) as the entry's own fields.
    if (!(error instanceof HttpError) || !error.errors) throw error;
    const fields = Object.entries(error.errors).map(([key, value]) => [key.replace(/^lines\.0\./, ''), value]);
    throw validationError(Object.fromEntries(fields));
  });
  const [line] = priced.lines;
  // Less than a thousandth of the base unit (0.0004 kg counted in grams) would count the item as none.
  if (line.baseQuantity === 0) {
    throw validationError({
      quantity: [`${input.quantity} of this unit is less than a thousandth of ${item.name}'s own unit: too little to count.`],
    });
  }
  const location = locationOf(count)!;
  const onHand = await onHandAt(trx, scope, item.id, location);
  await trx
    .insertInto('stock_count_lines')
    .values({ business_id: scope.businessId, stock_count_id: countId, item_id: item.id, expected: onHand, counted: 0, entries: 0 })
    .onConflict((conflictOn) => conflictOn.columns(['stock_count_id', 'item_id']).doNothing())
    .execute();
  const added = await trx
    .updateTable('stock_count_lines')
    .set({ counted: sql`counted + ${line.baseQuantity}`, entries: sql`entries + 1` })
    .where('stock_count_id', '=', countId)
    .where('item_id', '=', item.id)
    .where(sql<boolean>`counted + ${line.baseQuantity} >= 0`)
    .executeTakeFirst();
  if (Number(added.numUpdatedRows) !== 1) {
    throw validationError({ quantity: [`That would leave less than none of ${item.name} counted.`] });
  }
  await trx
    .insertInto('stock_count_entries')
    .values({
      business_id: scope.businessId,
      stock_count_id: countId,
      item_id: item.id,
      unit_of_measurement_id: unitId,
      quantity: line.quantity,
      base_quantity: line.baseQuantity,
      created_by: scope.userId || null,
      created_at: nowIso(),
    })
    .execute();
  // Only the item's line: a scan answers at once however many items the count holds.
  return lineOfItem(trx, scope, count, item.id);
}

/** The name of the brand, item classification or item type a count covers; null for every item or picked items. */
async function coveredName(db: Db, count: Record<string, unknown>): Promise<string | null> {
  const field = SCOPE_FIELDS[String(count.scope)];
  if (!field) return null;
  const table = ({ brand_id: 'brands', item_classification_id: 'item_classifications', item_type_id: 'item_types' } as const)[
    field as 'brand_id' | 'item_classification_id' | 'item_type_id'
  ];
  const row = await db.selectFrom(table).select('name').where('id', '=', Number(count[field])).executeTakeFirst();
  return row?.name ?? null;
}

/**
 * Takes an item's line of an open count back to not counted: what its entries added is gone (a
 * stray scan, an item counted on the wrong count), so posting leaves its stock as it is. Decided
 * under the count's lock, like an entry, and refused once the count is posted or cancelled. The
 * entries go with it — the line is the sum of those left — and the history says who took what
 * off. A line not counted is answered as it is. Answers the line.
 */
export async function uncountLine(trx: Trx, scope: Scope, countId: number, itemId: number) {
  const count = await countToChange(trx, scope, countId);
  refusedUnlessOpen(count, 'taken off');
  const line = await trx
    .selectFrom('stock_count_lines')
    .innerJoin('items', 'items.id', 'stock_count_lines.item_id')
    .select(['stock_count_lines.id', 'stock_count_lines.counted', 'stock_count_lines.entries', 'items.name'])
    .where('stock_count_lines.stock_count_id', '=', countId)
    .where('stock_count_lines.item_id', '=', itemId)
    .where('stock_count_lines.business_id', '=', scope.businessId)
    .executeTakeFirst();
  if (!line) throw validationError({ item_id: ['That item is not on this stock count.'] });
  const cleared = await trx
    .updateTable('stock_count_lines')
    .set({ counted: 0, entries: 0 })
    .where('id', '=', line.id)
    .where('entries', '>', 0)
    .executeTakeFirst();
  if (Number(cleared.numUpdatedRows) === 1) {
    await trx.deleteFrom('stock_count_entries').where('stock_count_id', '=', countId).where('item_id', '=', itemId).execute();
    await recordActivity(trx, scope, {
      resource: stockCounts.name,
      recordId: countId,
      action: 'uncounted',
      summary: `${line.name} taken off the count: ${fromThousandths(Number(line.counted))} counted in ${Number(line.entries)} ${
        Number(line.entries) === 1 ? 'entry' : 'entries'
      }, now not counted.`,
    });
  }
  return lineOfItem(trx, scope, count, itemId);
}

/** Rows at 0 for the counted items that have no balance at the place yet, in item order, as the ledger makes them. */
async function makeBalances(trx: Trx, scope: Scope, countId: number, location: Location): Promise<void> {
  const missing = await trx
    .selectFrom('stock_count_lines as lines')
    .select('lines.item_id')
    .where('lines.stock_count_id', '=', countId)
    .where('lines.business_id', '=', scope.businessId)
    .where('lines.entries', '>', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('stocks')
            .select('stocks.id')
            .whereRef('stocks.business_id', '=', 'lines.business_id')
            .whereRef('stocks.item_id', '=', 'lines.item_id')
            .where('stocks.location_type', '=', location.type)
            .where('stocks.location_id', '=', location.id),
        ),
      ),
    )
    .orderBy('lines.item_id')
    .execute();
  await openBalances(
    trx,
    scope,
    missing.map(({ item_id }) => item_id),
    location,
  );
}

async function onHandAt(db: Db, scope: Scope, itemId: number, location: Location): Promise<number> {
  const row = await balancesAt(db, scope, location)
    .select(['quantity_on_hand', 'quantity_quarantined'])
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return Number(row?.quantity_on_hand ?? 0) - Number(row?.quantity_quarantined ?? 0);
}

/**
 * Posting a count, once — an open one, or a counted one (a blind count only once counted: its
 * lifecycle declares both, and the transition route has checked them on the locked count): the
 * balances of the counted items locked (in the ledger's order) before they are read, so no
 * document moves them between the reading and the adjustment — a balance the item has no row for
 * yet made first, at 0, so that a document making it meanwhile waits for the post (or the post
 * for it) instead of adding to what the post read as none; then one stock adjustment of the
 * differences, dated today, naming the count, which the count names in turn as its status moves.
 */
async function postCount(trx: Trx, scope: Scope, count: Record<string, unknown>): Promise<TransitionDone> {
  const countId = Number(count.id);
  const location = locationOf(count)!;
  await makeBalances(trx, scope, countId, location);
  await forUpdate(
    trx,
    balancesAt(trx, scope, location)
      .select('id')
      .where('item_id', 'in', (eb) =>
        eb.selectFrom('stock_count_lines').select('item_id').where('stock_count_id', '=', countId).where('entries', '>', 0),
      )
      .orderBy('item_id'),
  ).execute();
  await sql`
    update stock_count_lines set posted_on_hand = coalesce((
      select ${SELLABLE} from stocks
      where stocks.business_id = stock_count_lines.business_id and stocks.item_id = stock_count_lines.item_id
        and stocks.location_type = ${location.type} and stocks.location_id = ${location.id}), 0)
    where stock_count_id = ${countId}`.execute(trx);
  const differences = await trx
    .selectFrom('stock_count_lines')
    .innerJoin('items', 'items.id', 'stock_count_lines.item_id')
    .select(['stock_count_lines.item_id', 'items.unit_of_measurement_id', 'stock_count_lines.counted', 'stock_count_lines.posted_on_hand'])
    .where('stock_count_lines.stock_count_id', '=', countId)
    .where('stock_count_lines.entries', '>', 0)
    .where(sql<boolean>`stock_count_lines.counted <> stock_count_lines.posted_on_hand`)
    .orderBy('stock_count_lines.id')
    .execute();
  if (differences.length === 0) return {};
  const place = location.type === 'branch' ? { branch_id: location.id } : { warehouse_id: location.id };
  const adjustment = await createRecord(trx, scope, stockAdjustments, {
    ...place,
    date: todayInManila(),
    notes: `The differences of stock count ${String(count.number)}.`,
    lines: differences.map((line) => ({
      item_id: line.item_id,
      unit_of_measurement_id: line.unit_of_measurement_id,
      quantity: fromThousandths(countDifference(Number(line.counted), Number(line.posted_on_hand))),
      reason: 'count_correction',
    })),
  });
  const adjustmentId = Number(adjustment.id);
  await trx.updateTable('stock_adjustments').set({ stock_count_id: countId }).where('id', '=', adjustmentId).execute();
  return { columns: { stock_adjustment_id: adjustmentId } };
}

/** A count's own work in its lifecycle's forward steps: posting writes the adjustment (finishing changes the status only). */
/** Stock counts: posting one writes its stock adjustment. */
export const countsPart: ServerPart = { definition: stockCounts, store: stockCountsStore, steps: { post: postCount } };
