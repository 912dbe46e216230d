import { CompiledQuery, sql, type RawBuilder, type Selectable } from 'kysely';
import { atAverage, costed, NO_COST, share, shared, type CostState } from '../../domain/costing';
import { effectMoves, type StockEffect } from '../../domain/effects';
import type { ResourceDefinition } from '../../domain/resource';
import { registry } from '../../domain/resources/registry';
import { isPostgres } from '../db/dialect';
import { giveWay } from '../yielding';
import type { Db, Trx } from '../db/scope';
import type { CostEntriesTable } from '../db/schema';

/**
 * Moving-average cost, kept as the ledger moves (docs/costing.md). Each document that changes an
 * item's business-wide quantity (on hand and in transit, at every place) has one cost entry for the
 * item, dated as the document; entries are walked in (date, sequence) order — within a day, as the
 * documents first moved the item — each costed from the state the one before left (`costed`). A document dated after every entry of the item is costed from
 * the item's state alone; one dated before some (an offline sale replayed, a back-dated receipt)
 * or one undone (a void) walks the item's entries from its place on, in the same transaction, so
 * what every line cost is always what a full recomputation from the ledger (`recostItem`) gives.
 * It runs as the follow-up of the document's commit (cost-follow-up.ts). Every costing of an item
 * locks its `item_costs` row first: two follow-ups costing it wait for each other.
 */

/** How an entry's worth is found: at the average, at what its document gave (`given_value`), or at its lines' sources' cost. */
export type CostBasis = 'average' | 'given' | 'source';

export type CostEntry = Selectable<CostEntriesTable>;

/** A document's line as costing reads it. */
export interface CostedLine {
  id: number;
  document_type: string;
  document_id: number;
  item_id: number;
  quantity: number;
  base_quantity: number;
  unit_price: number;
  amount: number;
  vat: number;
  source_line_id: number | null;
  reason: string | null;
  disposition: string | null;
  cost: number | null;
}

const LINE_COLUMNS = [
  'document_lines.id',
  'document_lines.document_type',
  'document_lines.document_id',
  'document_lines.item_id',
  'document_lines.quantity',
  'document_lines.base_quantity',
  'document_lines.unit_price',
  'document_lines.amount',
  'document_lines.vat',
  'document_lines.source_line_id',
  'document_lines.reason',
  'document_lines.disposition',
  'document_lines.cost',
] as const;

/** The document kinds costing knows, by type: the registry's, or those a test declares. */
export type CostKinds = ReadonlyMap<string, ResourceDefinition>;

export const costKinds = (definitions: readonly ResourceDefinition[]): CostKinds =>
  new Map(definitions.filter((definition) => definition.document).map((definition) => [definition.document!.type, definition]));

let kinds: CostKinds = costKinds(registry);

/** Costs kinds besides the registry's (a kind a test declares). */
export function costAlso(definitions: readonly ResourceDefinition[]): void {
  kinds = new Map([...kinds, ...costKinds(definitions)]);
  ownEffects.clear();
}

/** Each kind's effects that move goods at its own place, as `movedLines` asks for them entry after entry of a walk. */
const ownEffects = new Map<string, StockEffect[]>();

/**
 * The lines of a document that moved its goods at its own place, as its kind declares: a sale's
 * every line, a return's restocked and quarantined ones (not those written off). A kind moving
 * goods only between places (a transfer) has none: what it moves keeps its cost.
 */
function movedLines(type: string, lines: readonly CostedLine[]): CostedLine[] {
  let effects = ownEffects.get(type);
  if (!effects) {
    effects = (kinds.get(type)?.document?.effects?.stock ?? []).filter(
      (effect) => effect.at === 'own' && !effect.rest && (effect.onHand !== 0 || effect.inTransit !== 0),
    );
    ownEffects.set(type, effects);
  }
  return lines.filter((line) => effects.some((effect) => effectMoves(effect, line)));
}

const stateOf = (row: { quantity_after: number; value_after: number; average_value: number; average_quantity: number }): CostState => ({
  quantity: Number(row.quantity_after),
  value: Number(row.value_after),
  averageValue: Number(row.average_value),
  averageQuantity: Number(row.average_quantity),
});

const columnsOf = (state: CostState) => ({
  quantity_after: state.quantity,
  value_after: state.value,
  average_value: state.averageValue,
  average_quantity: state.averageQuantity,
});

export async function vatRegistered(trx: Db, businessId: number): Promise<boolean> {
  const business = await trx.selectFrom('businesses').select('vat_registered').where('id', '=', businessId).executeTakeFirst();
  return Boolean(Number(business?.vat_registered ?? 0));
}

/** What a line paid for its goods: its net amount, with its VAT where the business cannot claim it back. */
const paid = (line: Pick<CostedLine, 'amount' | 'vat'>, registered: boolean) => Number(line.amount) + (registered ? 0 : Number(line.vat));

/** What unvoided bills paid for an order line's goods (net amounts as `paid` counts them) and how much they billed. */
interface Billed {
  paid: number;
  quantity: number;
}

/** Billed order lines, by id: what `billedFor` reads. */
export type BilledLines = ReadonlyMap<number, Billed>;

const NOTHING_BILLED: BilledLines = new Map();

/**
 * What unvoided documents billing the order lines these lines fulfil paid for them
 * (`effects.cost.billedBy`: a receipt's lines, billed by bills), by order line. `without`: a
 * document to leave out though it is not void yet (a bill being voided).
 */
export async function billedFor(
  db: Db,
  businessId: number,
  lines: readonly CostedLine[],
  registered: boolean,
  without?: { type: string; id: number },
): Promise<BilledLines> {
  const orderLines = new Map<string, Set<number>>();
  for (const line of lines) {
    const billedBy = kinds.get(line.document_type)?.document?.effects?.cost?.billedBy;
    if (!billedBy || line.source_line_id === null) continue;
    orderLines.set(billedBy, (orderLines.get(billedBy) ?? new Set()).add(Number(line.source_line_id)));
  }
  const billed = new Map<number, Billed>();
  for (const [type, ids] of orderLines) {
    const table = kinds.get(type)!.table;
    for (const chunk of chunks([...ids])) {
      const leftOut = without?.type === type ? sql`and line.document_id != ${without.id}` : sql``;
      const { rows } = await sql<{ source_line_id: number; amount: number; vat: number; base_quantity: number }>`
        select line.source_line_id, line.amount, line.vat, line.base_quantity
        from document_lines line join ${sql.table(table)} bill on bill.id = line.document_id
        where line.business_id = ${businessId} and line.document_type = ${type} and line.source_line_id in (${sql.join(chunk)})
          and bill.status != 'void' and bill.deleted_at is null ${leftOut}`.execute(db);
      for (const row of rows) {
        const known = billed.get(Number(row.source_line_id)) ?? { paid: 0, quantity: 0 };
        known.paid += paid(row, registered);
        known.quantity += Math.abs(Number(row.base_quantity));
        billed.set(Number(row.source_line_id), known);
      }
    }
  }
  return billed;
}

/**
 * How an entry of `type` for these lines (the document's lines of the item) is worth what it is:
 * `given` with its worth when the kind's `effects.cost` covers every line that moved, `source`
 * when it takes its lines' sources' cost, else at the average. `billed`: what bills paid for the
 * order lines the lines fulfil, where the kind's goods cost what they are billed at.
 */
export function basisOf(
  type: string,
  lines: readonly CostedLine[],
  quantity: number,
  registered: boolean,
  billed: BilledLines = NOTHING_BILLED,
): { basis: CostBasis; given: number | null } {
  const cost = kinds.get(type)?.document?.effects?.cost;
  const moved = movedLines(type, lines);
  const average = { basis: 'average' as const, given: null };
  if (!cost || moved.length === 0 || moved.some((line) => cost.reasons && !cost.reasons.includes(String(line.reason)))) return average;
  if (cost.from === 'source') return moved.every((line) => line.source_line_id !== null) ? { basis: 'source', given: null } : average;
  if (cost.from === 'unit-price' && moved.some((line) => !(Number(line.unit_price) > 0))) return average;
  // A line of an order line billed is worth what the bills paid for it, unit for unit.
  const billedAt = (line: CostedLine) => {
    const bill = cost.billedBy && line.source_line_id !== null ? billed.get(Number(line.source_line_id)) : undefined;
    return bill && bill.quantity > 0 ? share(bill.paid, Math.abs(Number(line.base_quantity)), bill.quantity) : undefined;
  };
  const worth = moved.reduce(
    (sum, line) =>
      sum +
      (cost.from === 'amount'
        ? (billedAt(line) ?? paid(line, registered))
        : share(Number(line.unit_price), Math.abs(Number(line.quantity)), 1000)),
    0,
  );
  const movedQuantity = moved.reduce((sum, line) => sum + Math.abs(Number(line.base_quantity)), 0);
  return { basis: 'given', given: Math.sign(quantity) * share(worth, Math.abs(quantity), movedQuantity) };
}

/** The lines these lines name (`source_line_id`): a return's sold or bought lines. */
export async function sourcesOf(db: Db, lines: readonly CostedLine[]): Promise<Map<number, CostedLine>> {
  const ids = [...new Set(lines.filter((line) => line.source_line_id !== null).map((line) => Number(line.source_line_id)))];
  if (ids.length === 0) return new Map();
  const rows = (await db.selectFrom('document_lines').select(LINE_COLUMNS).where('id', 'in', ids).execute()) as CostedLine[];
  return new Map(rows.map((line) => [line.id, line]));
}

/**
 * What a `source` entry's moved lines are worth, signed as its quantity: each its share of what
 * the line it names cost — a sold line the cost it was stamped with (`restamped` holds those a
 * walk has just changed), a bought line (a bill's) what it paid. Null when a sold line is not costed.
 */
function sourceWorth(
  type: string,
  lines: readonly CostedLine[],
  quantity: number,
  sources: ReadonlyMap<number, CostedLine>,
  registered: boolean,
  restamped: ReadonlyMap<number, number | null>,
): number | null {
  let worth = 0;
  for (const line of movedLines(type, lines)) {
    const source = sources.get(Number(line.source_line_id));
    if (!source) return null;
    const stocked = (kinds.get(source.document_type)?.document?.effects?.stock ?? []).length > 0;
    const cost = stocked ? (restamped.has(source.id) ? restamped.get(source.id)! : source.cost) : paid(source, registered);
    if (cost === null) return null;
    worth += share(Number(cost), Math.abs(Number(line.base_quantity)), Math.abs(Number(source.base_quantity)));
  }
  return Math.sign(quantity) * worth;
}

/** The item's cost row, locked; made (empty) when the item was never costed, which `fresh` says. */
interface ItemLock {
  state: CostState;
  fresh: boolean;
}

/** `average_quantity` of an item's cost row made just now and not costed yet: a real one is never below zero. */
const UNCOSTED = -1;

/** The cost rows of these items (in this order), made (empty) where an item was never costed, or locked: one statement. */
async function lockItems(trx: Trx, businessId: number, itemIds: readonly number[]): Promise<Map<number, ItemLock>> {
  // PostgreSQL locks each row an upsert updates, in the order given.
  const rows = await trx
    .insertInto('item_costs')
    .values(
      itemIds.map((itemId) => ({
        business_id: businessId,
        item_id: itemId,
        quantity: 0,
        value: 0,
        average_value: 0,
        average_quantity: UNCOSTED,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['business_id', 'item_id']).doUpdateSet({ average_quantity: sql`item_costs.average_quantity` }),
    )
    .returning(['item_id', 'quantity', 'value', 'average_value', 'average_quantity'])
    .execute();
  return new Map(
    rows.map((row) => [
      Number(row.item_id),
      {
        fresh: Number(row.average_quantity) === UNCOSTED,
        state: stateOf({
          quantity_after: row.quantity,
          value_after: row.value,
          average_value: row.average_value,
          average_quantity: row.average_quantity,
        }),
      },
    ]),
  );
}

/** The item's state after its last entry, kept on its cost row. */
const saveState = (trx: Trx, businessId: number, itemId: number, state: CostState) =>
  trx
    .updateTable('item_costs')
    .set({ quantity: state.quantity, value: state.value, average_value: state.averageValue, average_quantity: state.averageQuantity })
    .where('business_id', '=', businessId)
    .where('item_id', '=', itemId);

async function saveItemState(trx: Trx, businessId: number, itemId: number, state: CostState): Promise<void> {
  await saveState(trx, businessId, itemId, state).execute();
}

/**
 * Rows a walk reads in one statement: PostgreSQL all of them at once (its statements do not hold
 * the event loop); SQLite's are synchronous, so a few hundred at a time, giving way between.
 */
const perRead = (trx: Trx) => (isPostgres(trx) ? 50_000 : 500);

/** The lines of these documents of one item. */
async function linesOf(trx: Trx, businessId: number, type: string, documentIds: readonly number[], itemId: number): Promise<CostedLine[]> {
  if (documentIds.length === 0) return [];
  return (await trx
    .selectFrom('document_lines')
    .select(LINE_COLUMNS)
    .where('business_id', '=', businessId)
    .where('document_type', '=', type)
    .where('document_id', isPostgres(trx) ? '=' : 'in', isPostgres(trx) ? sql<number>`any(${documentIds}::integer[])` : documentIds)
    .where('item_id', '=', itemId)
    .orderBy('position')
    .execute()) as CostedLine[];
}

/** Whether a kind's lines keep what the goods they carry between places were worth (`effects.carries`: a transfer). */
const carries = (type: string) => Boolean(kinds.get(type)?.document?.effects?.carries);

/**
 * Each moved line's cost: the entry's worth shared by quantity; the other lines none. A kind
 * carrying goods between places stamps every line at the average before its entry (`before`).
 */
function stamps(type: string, lines: readonly CostedLine[], value: number, before: CostState): Map<number, number | null> {
  if (carries(type)) return new Map(lines.map((line) => [line.id, atAverage(before, Math.abs(Number(line.base_quantity)))]));
  const moved = movedLines(type, lines);
  const parts = shared(
    Math.abs(value),
    moved.map((line) => Number(line.base_quantity)),
  );
  const stamped = new Map<number, number | null>(lines.map((line) => [line.id, null]));
  moved.forEach((line, index) => stamped.set(line.id, parts[index]));
  return stamped;
}

/**
 * Rows of a table set by id, each cell cast so both databases read the same numbers: on
 * PostgreSQL all in one statement, a column to an array; on SQLite a row at a time, giving way
 * every hundred.
 */
async function updateById(
  trx: Trx,
  table: 'cost_entries' | 'document_lines',
  columns: readonly string[],
  rows: readonly (number | null)[][],
) {
  if (rows.length === 0) return;
  if (isPostgres(trx)) {
    const names = ['id', ...columns];
    const arrays = names.map((_, at) => sql`cast(${rows.map((row) => row[at])} as bigint[])`);
    const sets = sql.join(columns.map((column) => sql`${sql.ref(column)} = v.${sql.ref(column)}`));
    await sql`update ${sql.table(table)} set ${sets} from unnest(${sql.join(arrays)}) as v(${sql.join(names.map((name) => sql.ref(name)))})
      where ${sql.table(table)}.id = v.id`.execute(trx);
    return;
  }
  // SQLite: a row at a time, one statement prepared once (kept by the driver), sent as it is: a
  // statement of a few hundred rows costs more to build than these do to run.
  const text = `update ${table} set ${columns.map((column) => `${column} = cast(? as integer)`).join(', ')} where id = ?`;
  for (const [at, [id, ...cells]] of rows.entries()) {
    // A walk of thousands of entries: the requests waiting meanwhile are answered between rows.
    if (at % 100 === 0) await giveWay();
    await trx.executeQuery(CompiledQuery.raw(text, [...cells, id]));
  }
}

/** Where an entry stands in its item's order: its date, then its document's first movement of the item. */
interface Place {
  date: string;
  sequence: number;
}

/** Lines by their document, `type id`. */
export function byDocument(lines: readonly CostedLine[]): Map<string, CostedLine[]> {
  const grouped = new Map<string, CostedLine[]>();
  for (const line of lines) {
    const key = `${line.document_type} ${line.document_id}`;
    grouped.set(key, [...(grouped.get(key) ?? []), line]);
  }
  return grouped;
}

/** What costing an item's entries in order from `state` gives: each entry's value and state after, each line's cost. */
export interface CostPlan {
  entries: { entry: CostEntry; value: number; after: CostState }[];
  lineCosts: Map<number, number | null>;
  state: CostState;
}

/** Entries costed between two looks at whether other requests wait (`giveWay`). */
const ENTRIES_PER_TURN = 100;

/**
 * Costs entries in their order from `state`, each from the one before (`costed`): the arithmetic
 * a walk writes and the audit checks, reading nothing but what it is given — the entries, their
 * documents' lines of the item, and the lines those name. Thousands of entries take a while: it
 * gives way to other requests as it goes.
 */
export async function planCosts(
  state: CostState,
  entries: readonly CostEntry[],
  lines: ReadonlyMap<string, readonly CostedLine[]>,
  sources: ReadonlyMap<number, CostedLine>,
  registered: boolean,
): Promise<CostPlan> {
  const lineCosts = new Map<number, number | null>();
  const planned: CostPlan['entries'] = [];
  let now = state;
  for (const [index, entry] of entries.entries()) {
    if (index % ENTRIES_PER_TURN === ENTRIES_PER_TURN - 1) await giveWay();
    const own = lines.get(`${entry.document_type} ${entry.document_id}`) ?? [];
    const quantity = Number(entry.quantity);
    const given =
      entry.basis === 'given'
        ? Number(entry.given_value)
        : entry.basis === 'source'
          ? sourceWorth(entry.document_type, own, quantity, sources, registered, lineCosts)
          : null;
    const { value, after } = costed(now, quantity, given);
    planned.push({ entry, value, after });
    for (const [lineId, cost] of stamps(entry.document_type, own, value, now)) lineCosts.set(lineId, cost);
    now = after;
  }
  return { entries: planned, lineCosts, state: now };
}

/** An entry's figures as costing them again gives them, where they differ from those kept. */
const differs = (entry: CostEntry, value: number, after: CostState) =>
  Number(entry.value) !== value ||
  Number(entry.quantity_after) !== after.quantity ||
  Number(entry.value_after) !== after.value ||
  Number(entry.average_value) !== after.averageValue ||
  Number(entry.average_quantity) !== after.averageQuantity;

/**
 * Walks the item's entries from `from` on, costing each from the one before, and writes what
 * changed: entries, their lines' costs, the item's state.
 */
async function walk(trx: Trx, businessId: number, itemId: number, from: Place, registered: boolean) {
  // From `from` on, in the item's order: a row comparison its index answers.
  const later = sql<boolean>`(date, sequence) >= (${from.date}, ${from.sequence})`;
  const prior = await trx
    .selectFrom('cost_entries')
    .select(['quantity_after', 'value_after', 'average_value', 'average_quantity'])
    .where('business_id', '=', businessId)
    .where('item_id', '=', itemId)
    .where(sql<boolean>`not ${later}`)
    .orderBy('date', 'desc')
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  const entries: CostEntry[] = [];
  for (let page = later; ;) {
    await giveWay();
    const read = (await trx
      .selectFrom('cost_entries')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('item_id', '=', itemId)
      .where(page)
      .orderBy('date')
      .orderBy('sequence')
      .limit(perRead(trx))
      .execute()) as CostEntry[];
    entries.push(...read);
    if (read.length < perRead(trx)) break;
    const last = read.at(-1)!;
    page = sql<boolean>`(date, sequence) > (${last.date}, ${last.sequence})`;
  }
  const lines: CostedLine[] = [];
  for (const type of new Set(entries.map((entry) => entry.document_type))) {
    const ids = entries.filter((entry) => entry.document_type === type).map((entry) => entry.document_id);
    for (let at = 0; at < ids.length; at += perRead(trx)) {
      await giveWay();
      lines.push(...(await linesOf(trx, businessId, type, ids.slice(at, at + perRead(trx)), itemId)));
    }
  }
  await giveWay();
  const plan = await planCosts(prior ? stateOf(prior) : NO_COST, entries, byDocument(lines), await sourcesOf(trx, lines), registered);
  const entryRows = plan.entries
    .filter(({ entry, value, after }) => differs(entry, value, after))
    .map(({ entry, value, after }) => [entry.id, value, after.quantity, after.value, after.averageValue, after.averageQuantity]);
  const kept = new Map(lines.map((line) => [line.id, line.cost === null ? null : Number(line.cost)]));
  const lineRows = [...plan.lineCosts].filter(([lineId, cost]) => kept.get(lineId) !== cost);
  await updateById(trx, 'cost_entries', ['value', 'quantity_after', 'value_after', 'average_value', 'average_quantity'], entryRows);
  await updateById(trx, 'document_lines', ['cost'], lineRows);
  await saveItemState(trx, businessId, itemId, plan.state);
}

/** The lines of the business's cost entries' documents, of each entry's item, beside their entry (`entry`). */
export function entryLines(db: Db, businessId: number) {
  return db
    .selectFrom('document_lines')
    .innerJoin('cost_entries as entry', (join) =>
      join
        .onRef('entry.document_type', '=', 'document_lines.document_type')
        .onRef('entry.document_id', '=', 'document_lines.document_id')
        .onRef('entry.item_id', '=', 'document_lines.item_id'),
    )
    .select(LINE_COLUMNS)
    .where('entry.business_id', '=', businessId)
    .where('document_lines.business_id', '=', businessId)
    .orderBy('document_lines.position');
}

/** A document as the costing reads it: its type, id and date (the movements it wrote are the ledger's). */
export interface CostedDocument {
  type: string;
  id: number;
  date: string;
}

/** What a document's movements just did to an item: its change (on hand and in transit, at every place), and the first one's id. */
export interface ItemMoved {
  change: number;
  first: number;
}

/** Whether a kind moves goods between places (a transfer, a receive): its first movement of an item may be an earlier one's. */
const betweenPlaces = (type: string) => (kinds.get(type)?.document?.effects?.stock ?? []).some((effect) => effect.at !== 'own');

/** Where a document's first movement of an item puts its entry. */
async function firstMovement(trx: Trx, businessId: number, document: CostedDocument, itemId: number): Promise<Place> {
  const first = await trx
    .selectFrom('stock_movements')
    .select(['id', 'document_date'])
    .where('document_type', '=', document.type)
    .where('document_id', '=', document.id)
    .where('item_id', '=', itemId)
    .where('business_id', '=', businessId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  return { date: String(first.document_date), sequence: first.id };
}

/** The items' cost rows, locked in item order (one statement per thousand); which of them were never costed. */
export async function lockCosts(trx: Trx, businessId: number, itemIds: readonly number[]): Promise<Map<number, ItemLock>> {
  const locked = new Map<number, ItemLock>();
  for (const chunk of chunks([...new Set(itemIds)].sort((a, b) => a - b))) {
    for (const [itemId, lock] of await lockItems(trx, businessId, chunk)) locked.set(itemId, lock);
  }
  return locked;
}

/** Items a statement at a time: a stock count's may be thousands, more than a statement's parameters hold at once. */
function chunks<T>(all: readonly T[], size = 1000): T[][] {
  const parts: T[][] = [];
  for (let at = 0; at < all.length; at += size) parts.push(all.slice(at, at + size));
  return parts;
}

/** Where each item's last entry stands, and the document's own entry of it (when the document moved it before: a void, a change). */
interface ItemPosition {
  last: Place | undefined;
  ownId: number | undefined;
}

/** Each item's position, in one statement: two index seeks per item on cost_entries. */
async function positionsOf(trx: Trx, businessId: number, document: CostedDocument, itemIds: readonly number[]) {
  const last = (column: 'date' | 'sequence') => sql`(select entry.${sql.ref(column)} from cost_entries entry
    where entry.business_id = costs.business_id and entry.item_id = costs.item_id
    order by entry.date desc, entry.sequence desc limit 1)`;
  const { rows } = await sql<{ item_id: number; last_date: string | null; last_sequence: number | null; own_id: number | null }>`
    select costs.item_id, ${last('date')} as last_date, ${last('sequence')} as last_sequence,
      (select own.id from cost_entries own where own.business_id = costs.business_id and own.document_type = ${document.type}
        and own.document_id = ${document.id} and own.item_id = costs.item_id) as own_id
    from item_costs costs
    where costs.business_id = ${businessId} and costs.item_id in (${sql.join(itemIds)})`.execute(trx);
  return new Map<number, ItemPosition>(
    rows.map((row) => [
      Number(row.item_id),
      {
        last: row.last_date === null ? undefined : { date: String(row.last_date), sequence: Number(row.last_sequence) },
        ownId: row.own_id === null ? undefined : Number(row.own_id),
      },
    ]),
  );
}

/**
 * Whether a document carrying goods between places (`carries`) still carries the item: its goods
 * taken off hand and not put back (a void puts them back).
 */
async function carriesStill(trx: Trx, businessId: number, document: CostedDocument, itemId: number): Promise<boolean> {
  if (!carries(document.type)) return false;
  const row = await trx
    .selectFrom('stock_movements')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('on_hand'))
    .where('business_id', '=', businessId)
    .where('document_type', '=', document.type)
    .where('document_id', '=', document.id)
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  return Number(row.on_hand) !== 0;
}

/** Whether `a` stands after `b` in an item's order. */
const after = (a: Place, b: Place) => a.date > b.date || (a.date === b.date && a.sequence > b.sequence);

/** The document's lines of these items, by item. */
async function documentLinesOf(trx: Trx, businessId: number, document: CostedDocument, itemIds: readonly number[]) {
  const lines = (await trx
    .selectFrom('document_lines')
    .select(LINE_COLUMNS)
    .where('business_id', '=', businessId)
    .where('document_type', '=', document.type)
    .where('document_id', '=', document.id)
    .where('item_id', 'in', itemIds)
    .orderBy('position')
    .execute()) as CostedLine[];
  const byItem = new Map<number, CostedLine[]>();
  for (const line of lines) byItem.set(Number(line.item_id), [...(byItem.get(Number(line.item_id)) ?? []), line]);
  return byItem;
}

/** Lines' costs set, `[id, cost]` each: a statement for a few lines (a document's of one item). */
const stampLines = (rows: readonly (readonly [number, number | null])[]) =>
  sql`update document_lines set cost = case ${sql.join(
    rows.map(([id, cost]) => sql`when id = ${id} then cast(${cost} as bigint)`),
    sql` `,
  )} end where id in (${sql.join(rows.map(([id]) => id))})`;

/**
 * Statements writing different rows, sent as one: on PostgreSQL as the parts of one statement (one
 * round trip; its parts see the same snapshot, which writes to different rows do not mind), on
 * SQLite in turn.
 */
async function writeTogether(trx: Trx, statements: readonly RawBuilder<unknown>[]): Promise<void> {
  if (!isPostgres(trx) || statements.length < 2) {
    for (const statement of statements) await statement.execute(trx);
    return;
  }
  const parts = statements.slice(0, -1).map((statement, at) => sql`${sql.raw(`w${at}`)} as (${statement})`);
  await sql`with ${sql.join(parts)} ${statements.at(-1)!}`.execute(trx);
}

/**
 * Costs what a document moved: `moved`, its change per item (on hand and in transit, at every
 * place) in its movements waiting to be costed, each item locked by `lockCosts` first and costed
 * before (one never costed is costed whole by `recostItem` instead). The document's
 * entry of each item takes the change; an entry left at nothing (the document voided) goes, its
 * lines no longer costed. A new entry after every other of its item is written with its lines'
 * costs and the item's state in one go; one before some walks the item from there.
 */
export async function costMoved(
  trx: Trx,
  businessId: number,
  document: CostedDocument,
  moved: ReadonlyMap<number, ItemMoved>,
  locked: ReadonlyMap<number, ItemLock>,
): Promise<void> {
  // A transfer changes no item's quantity, but carries its goods' cost: it has its entry all the same.
  const itemIds = [...moved.keys()].filter((itemId) => moved.get(itemId)!.change !== 0 || carries(document.type)).sort((a, b) => a - b);
  for (const chunk of chunks(itemIds)) await costChunk(trx, businessId, document, moved, locked, chunk);
}

/** `costMoved` for some of the items already costed: their positions and lines read once for all of them. */
async function costChunk(
  trx: Trx,
  businessId: number,
  document: CostedDocument,
  moved: ReadonlyMap<number, ItemMoved>,
  locked: ReadonlyMap<number, ItemLock>,
  itemIds: readonly number[],
): Promise<void> {
  let registeredKnown: boolean | undefined;
  const registered = async () => (registeredKnown ??= await vatRegistered(trx, businessId));
  const positions = await positionsOf(trx, businessId, document, itemIds);
  const linesByItem = await documentLinesOf(trx, businessId, document, itemIds);
  // What bills paid for what a receipt received, read once for all its items (when it comes to them).
  let billedKnown: BilledLines | undefined;
  const billed = async () =>
    (billedKnown ??= kinds.get(document.type)?.document?.effects?.cost?.billedBy
      ? await billedFor(trx, businessId, [...linesByItem.values()].flat(), await registered())
      : NOTHING_BILLED);
  for (const itemId of itemIds) {
    const { state } = locked.get(itemId)!;
    const { last, ownId } = positions.get(itemId)!;
    const change = moved.get(itemId)!.change;
    const lines = linesByItem.get(itemId) ?? [];
    if (ownId !== undefined) {
      const entry = await trx.selectFrom('cost_entries').selectAll().where('id', '=', ownId).executeTakeFirstOrThrow();
      const quantity = Number(entry.quantity) + change;
      if (quantity === 0 && !(await carriesStill(trx, businessId, document, itemId))) {
        await trx.deleteFrom('cost_entries').where('id', '=', entry.id).execute();
        await updateById(
          trx,
          'document_lines',
          ['cost'],
          lines.filter((line) => line.cost !== null).map((line) => [line.id, null]),
        );
      } else {
        const given = entry.given_value === null ? null : share(Number(entry.given_value), quantity, Number(entry.quantity));
        await trx.updateTable('cost_entries').set({ quantity, given_value: given }).where('id', '=', entry.id).execute();
      }
      await walk(trx, businessId, itemId, { date: String(entry.date), sequence: Number(entry.sequence) }, await registered());
      continue;
    }
    // A transfer voided before it was costed: nothing to carry.
    if (change === 0 && !(await carriesStill(trx, businessId, document, itemId))) continue;
    // Dated and ordered as its first movement of the item: one of these, unless its kind moves goods
    // between places, whose goods lost on closing were first moved when dispatched.
    const place: Place = betweenPlaces(document.type)
      ? await firstMovement(trx, businessId, document, itemId)
      : { date: document.date, sequence: moved.get(itemId)!.first };
    // Only a kind that says what its goods are worth reads whether the business claims VAT back.
    const worthDeclared = Boolean(kinds.get(document.type)?.document?.effects?.cost);
    const { basis, given } = basisOf(document.type, lines, change, worthDeclared && (await registered()), await billed());
    const worth =
      basis === 'source' ? sourceWorth(document.type, lines, change, await sourcesOf(trx, lines), await registered(), new Map()) : given;
    const { value, after: held } = costed(state, change, worth);
    const entry = trx.insertInto('cost_entries').values({
      business_id: businessId,
      item_id: itemId,
      date: place.date,
      sequence: place.sequence,
      document_type: document.type,
      document_id: document.id,
      quantity: change,
      basis,
      given_value: given,
      value,
      ...columnsOf(held),
    });
    if (last && after(last, place)) {
      // Dated before entries already costed: they are costed again from it.
      await entry.execute();
      await walk(trx, businessId, itemId, place, await registered());
      continue;
    }
    const lineRows = [...stamps(document.type, lines, value, state)].filter((row): row is [number, number] => row[1] !== null);
    await writeTogether(trx, [
      sql`${entry}`,
      ...(lineRows.length > 0 ? [stampLines(lineRows)] : []),
      sql`${saveState(trx, businessId, itemId, held)}`,
    ]);
  }
}

/**
 * A bill made or voided (`bill`; `voided` while its status is not void yet): the goods received
 * against the order lines it bills (`orderLineIds`) are worth what unvoided bills now pay for
 * them, so each receipt's entry of them takes its new worth and its item is walked from there —
 * every later sale costed again. In the bill's transaction, its items locked first as every
 * costing locks them: a receipt's follow-up running beside it reads the bill after it commits.
 */
export async function costBilled(
  trx: Trx,
  businessId: number,
  bill: { type: string; id: number; voided: boolean },
  orderLineIds: readonly number[],
): Promise<void> {
  const receiving = [...kinds.values()]
    .filter((kind) => kind.document?.effects?.cost?.billedBy === bill.type)
    .map((kind) => kind.document!.type);
  if (receiving.length === 0 || orderLineIds.length === 0) return;
  const received: { document_type: string; document_id: number; item_id: number }[] = [];
  for (const chunk of chunks([...new Set(orderLineIds)])) {
    received.push(
      ...(await trx
        .selectFrom('document_lines')
        .select(['document_type', 'document_id', 'item_id'])
        .where('business_id', '=', businessId)
        .where('document_type', 'in', receiving)
        .where('source_line_id', 'in', chunk)
        .execute()),
    );
  }
  if (received.length === 0) return;
  const locked = await lockCosts(
    trx,
    businessId,
    received.map((line) => line.item_id),
  );
  const registered = await vatRegistered(trx, businessId);
  const without = bill.voided ? bill : undefined;
  for (const [itemId, { fresh }] of locked) {
    // Never costed: its receipts' movements wait, and are costed at what bills pay when they are.
    if (fresh) continue;
    const documents = received.filter((line) => line.item_id === itemId);
    let from: Place | undefined;
    for (const type of new Set(documents.map((line) => line.document_type))) {
      const ids = [...new Set(documents.filter((line) => line.document_type === type).map((line) => line.document_id))];
      // A receipt whose movements still wait has no entry yet: its follow-up costs it at what the bills pay then.
      const entries = await trx
        .selectFrom('cost_entries')
        .selectAll()
        .where('business_id', '=', businessId)
        .where('item_id', '=', itemId)
        .where('document_type', '=', type)
        .where('document_id', 'in', ids)
        .execute();
      const lines = byDocument(await linesOf(trx, businessId, type, ids, itemId));
      const billed = await billedFor(trx, businessId, [...lines.values()].flat(), registered, without);
      for (const entry of entries) {
        const own = lines.get(`${entry.document_type} ${entry.document_id}`) ?? [];
        const { basis, given } = basisOf(entry.document_type, own, Number(entry.quantity), registered, billed);
        if (basis === entry.basis && given === (entry.given_value === null ? null : Number(entry.given_value))) continue;
        await trx.updateTable('cost_entries').set({ basis, given_value: given }).where('id', '=', entry.id).execute();
        const place = { date: String(entry.date), sequence: Number(entry.sequence) };
        if (!from || after(from, place)) from = place;
      }
    }
    if (from) await walk(trx, businessId, itemId, from, registered);
  }
}

/**
 * The item's cost recomputed from the ledger, whatever was kept: its entries made again from its
 * movements (one per document, dated and ordered as the document's first movement of it), each
 * document's worth read again from its lines, and every entry walked from the first. What the
 * incremental costing keeps always equals this; the audit and the tests compare the two.
 */
export async function recostItem(trx: Trx, businessId: number, itemId: number): Promise<void> {
  const registered = await vatRegistered(trx, businessId);
  await trx.deleteFrom('cost_entries').where('business_id', '=', businessId).where('item_id', '=', itemId).execute();
  // Its movements, read by the balances that hold them (one index range per place), oldest first.
  const movements = await trx
    .selectFrom('stock_movements')
    .select(['id', 'document_type', 'document_id', 'document_date', 'quantity', 'in_transit', 'costed'])
    .where('stock_id', 'in', trx.selectFrom('stocks').select('id').where('business_id', '=', businessId).where('item_id', '=', itemId))
    .orderBy('id')
    .execute();
  // One group per document: what it moved in all (and on hand alone, for a transfer), dated and
  // ordered by its first movement (a void's come later, dated later).
  const groups = new Map<string, { type: string; id: number; quantity: number; onHand: number; place: Place }>();
  for (const movement of movements) {
    const key = `${movement.document_type} ${movement.document_id}`;
    const group = groups.get(key) ?? {
      type: movement.document_type,
      id: movement.document_id,
      quantity: 0,
      onHand: 0,
      place: { date: String(movement.document_date), sequence: movement.id },
    };
    group.quantity += Number(movement.quantity) + Number(movement.in_transit);
    group.onHand += Number(movement.quantity);
    groups.set(key, group);
  }
  const lines: CostedLine[] = [];
  for (const type of new Set([...groups.values()].map((group) => group.type))) {
    const ids = [...groups.values()].filter((group) => group.type === type).map((group) => group.id);
    for (let at = 0; at < ids.length; at += perRead(trx)) {
      lines.push(...(await linesOf(trx, businessId, type, ids.slice(at, at + perRead(trx)), itemId)));
    }
  }
  const linesByDocument = byDocument(lines);
  // Those of its movements that waited for their follow-up are costed now, with the rest.
  const waited = movements.filter((movement) => Number(movement.costed) === 0).map((movement) => movement.id);
  for (const chunk of chunks(waited)) await trx.updateTable('stock_movements').set({ costed: 1 }).where('id', 'in', chunk).execute();
  // Lines of documents that no longer move the item (voided) cost nothing.
  const moves = (group: { type: string; quantity: number; onHand: number }) =>
    group.quantity !== 0 || (carries(group.type) && group.onHand !== 0);
  const undone = [...groups.values()].filter((group) => !moves(group));
  const uncosted = undone.flatMap((group) => (linesByDocument.get(`${group.type} ${group.id}`) ?? []).filter((line) => line.cost !== null));
  await updateById(
    trx,
    'document_lines',
    ['cost'],
    uncosted.map((line) => [line.id, null]),
  );
  const billed = await billedFor(trx, businessId, lines, registered);
  const entries = [...groups.values()]
    .filter(moves)
    .sort((a, b) => (a.place.date < b.place.date ? -1 : a.place.date > b.place.date ? 1 : a.place.sequence - b.place.sequence))
    .map((group) => {
      const own = linesByDocument.get(`${group.type} ${group.id}`) ?? [];
      const { basis, given } = basisOf(group.type, own, group.quantity, registered, billed);
      return {
        business_id: businessId,
        item_id: itemId,
        date: group.place.date,
        sequence: group.place.sequence,
        document_type: group.type,
        document_id: group.id,
        quantity: group.quantity,
        basis,
        given_value: given,
        value: 0,
        ...columnsOf(NO_COST),
      };
    });
  for (let at = 0; at < entries.length; at += 200)
    await trx
      .insertInto('cost_entries')
      .values(entries.slice(at, at + 200))
      .execute();
  if (entries.length > 0) await walk(trx, businessId, itemId, { date: entries[0].date, sequence: entries[0].sequence }, registered);
  else await saveItemState(trx, businessId, itemId, NO_COST);
}

/**
 * Items moved before costing was kept (a database an older Bodega made) costed from the ledger,
 * each in its own transaction; an instance starting beside this one waits on the item's lock and
 * finds it costed. Returns how many were.
 */
export async function costUncosted(db: Db): Promise<number> {
  const uncosted = await db
    .selectFrom('stocks')
    .select(['business_id', 'item_id'])
    .distinct()
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('item_costs')
            .select('item_costs.id')
            .whereRef('item_costs.business_id', '=', 'stocks.business_id')
            .whereRef('item_costs.item_id', '=', 'stocks.item_id'),
        ),
      ),
    )
    .execute();
  for (const { business_id: businessId, item_id: itemId } of uncosted) {
    await db.transaction().execute(async (trx) => {
      if ((await lockItems(trx, businessId, [itemId])).get(itemId)!.fresh) await recostItem(trx, businessId, itemId);
    });
  }
  return uncosted.length;
}
