import { documentNumber, todayInManila, type Location } from '../../domain/documents';
import { viewsRecord } from '../../domain/places';
import { margin, sellsGoods } from '../../domain/costing';
import { centavosToPesos } from '../../domain/money';
import { holdsAny, VIEW_COSTS_PERMISSION } from '../../domain/permissions';
import { fromThousandths } from '../../domain/quantity';
import { statusLabel, trashableIn, trashRefusal, type Transition } from '../../domain/lifecycle';
import type { ResourceDefinition } from '../../domain/resource';
import { linesInputOf, type LineInput } from '../../domain/document-lines';
import { registry } from '../../domain/resources/registry';
import { forUpdate } from '../db/dialect';
import { conflict } from '../errors';
import type { ApiRecord } from '../resources/codec';
import { contactKindErrors } from '../resources/contact-kinds';
import { assertOperates, placeAccessOf } from '../resources/places';
import { businessTableStore, type ResourceStore } from '../resources/store';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import { effectMoves, type EffectLine, type StockEffect } from '../../domain/effects';
import { costsSettled } from './cost-follow-up';
import { move, type DocumentRef, type Movement } from './ledger';
import { insertLines, priceLines, storedLines, type PricedLines, type StoredLine } from './lines';
import { numberedInput, sequenceFromBlock } from './number-blocks';
import { nextDocumentNumber, nextReferenceNumber } from './numbering';
import { decorateParticulars, keepParticulars } from './particulars';

/**
 * The store of a document resource: the generic business table, plus what every document does —
 * exactly one location, a number and reference number assigned in the creating transaction,
 * lines priced and stored with their totals, lines returned with every read — and the hooks by
 * which each kind moves stock or money and refuses a delete that would leave them wrong.
 */

export interface Prepared {
  /** Columns the kind sets itself: totals, balance, a payment's contact and location … (its status is its lifecycle's start). */
  columns?: Record<string, unknown>;
  lines?: PricedLines;
}

export interface DocumentHooks {
  /** Checks the document against what it draws on (its purchase order, its bill) and prices it. */
  prepare(trx: Trx, scope: Scope, columns: Record<string, unknown>, input: Record<string, unknown>): Promise<Prepared>;
  /**
   * The place columns of a kind that takes its places from the document it is made from: a
   * receive's ends are its transfer's, a payment's place its bill's. Prepare sets them; the store
   * reads them first, so who may make it is settled before anything of the source's state is said.
   */
  placesFrom?(source: Record<string, unknown>): Record<string, unknown>;
  /**
   * What it does beyond its own rows once they exist: money onto a balance, a source's lines
   * fulfilled, goods between two places. (Goods in or out at its one place, as its spec's `stock`
   * says, are moved before.)
   */
  apply?(trx: Trx, scope: Scope, document: DocumentRef, prepared: Prepared, columns: Record<string, unknown>): Promise<void>;
  /** Replaces the lines of a document that allows it (a purchase order nothing was received against), or refuses. */
  relines?(trx: Trx, scope: Scope, row: Record<string, unknown>, lines: LineInput[]): Promise<PricedLines>;
}

/**
 * What an undoing transition of the kind's lifecycle (void, cancel, close) undoes beyond the status: stock
 * moved back, a balance owed again, a source document reopened, what never arrived written off.
 * It refuses (throws) what it cannot undo; the route has checked the status the transition starts
 * from, and sets the one it leaves. `given`: the reason and note of one that asks for them. What
 * it answers, if anything, is the history's words for what it did.
 */
export type Reversal = (
  trx: Trx,
  scope: Scope,
  row: Record<string, unknown>,
  given?: { reason?: string | null; note?: string | null },
) => Promise<string | void>;

/** What a transition did beyond its status: columns it set with it (a posted count's stock adjustment), and the history's words. */
export interface TransitionDone {
  columns?: Record<string, unknown>;
  summary?: string;
}

/**
 * What a forward transition of the kind's lifecycle (a count's post) does beyond the status: the
 * kind's own work, decided on the locked row the route read. It refuses (throws) what it cannot
 * do; the route has checked the status and whatever else the declaration says blocks it.
 */
export type StepWork = (trx: Trx, scope: Scope, row: Record<string, unknown>) => Promise<TransitionDone>;

/** What any transition does beyond its status, as the route takes it. */
export type TransitionWork = (
  trx: Trx,
  scope: Scope,
  row: Record<string, unknown>,
  given?: { reason?: string | null; note?: string | null },
) => Promise<TransitionDone>;

const works = new Map<string, TransitionWork>();

/** Keeps a kind's work for its transitions, each of which its lifecycle declares, going that way. */
function registerWork<Work>(
  definition: ResourceDefinition,
  byTransition: Partial<Record<string, Work>>,
  direction: Transition['direction'],
  asWork: (work: Work) => TransitionWork,
): void {
  const what = direction === 'undo' ? 'reversal' : 'step';
  const declared = definition.document?.lifecycle.transitions ?? [];
  for (const [name, work] of Object.entries(byTransition)) {
    if (!work) continue;
    const transition = declared.find((each) => each.name === name);
    if (!transition) throw new Error(`${definition.name} has a ${name} ${what}, but its lifecycle declares no ${name} transition.`);
    if (transition.direction !== direction)
      throw new Error(`${definition.name} has a ${name} ${what}, but its ${name} transition is not ${direction}.`);
    works.set(`${definition.name}/${name}`, asWork(work));
  }
}

/**
 * Registers what a kind's transitions reverse (where the app is composed). Each must be an
 * undoing transition its kind's lifecycle declares; registering one again replaces it.
 */
export function registerReversals(definition: ResourceDefinition, reversals: Partial<Record<string, Reversal>>): void {
  registerWork(definition, reversals, 'undo', (reversal) => async (...args) => {
    const summary = await reversal(...args);
    return summary ? { summary } : {};
  });
}

/**
 * Registers a kind's own work for its forward transitions (where the app is composed): a count's
 * post writes its stock adjustment. Each must be a forward transition its kind declares.
 */
export function registerSteps(definition: ResourceDefinition, steps: Partial<Record<string, StepWork>>): void {
  registerWork(definition, steps, 'forward', (step) => step);
}

/** What a transition of a kind does beyond its status; none when it only changes the status (a quotation's cancel, a count's finish). */
export const workOf = (resource: string, transition: Transition['name']): TransitionWork | undefined =>
  works.get(`${resource}/${transition}`);

/**
 * The documents a kind may be made from, as their lifecycles declare it: a receive order from a
 * purchase order (named by `purchase_order_id`) while the order is open or partially received.
 */
function sourcesOf(definition: ResourceDefinition) {
  return registry.flatMap((source) =>
    (source.document?.lifecycle.followOns ?? [])
      .filter((followOn) => followOn.resource === definition.name)
      .map((followOn) => ({ source, followOn })),
  );
}

/**
 * A live (untrashed) document of the business, its row locked until the transaction ends: what
 * a void or cancel decides on, and what a document made from it (a receipt from its order, a
 * payment from its invoice) checks and then moves, cannot change under either.
 */
export async function liveSource(trx: Trx, scope: Scope, table: string, id: number): Promise<Record<string, unknown> | undefined> {
  return (await forUpdate(
    trx,
    untyped(trx)
      .selectFrom(table)
      .selectAll()
      .where('id', '=', id)
      .where('business_id', '=', scope.businessId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst()) as Record<string, unknown> | undefined;
}

/**
 * The live source a document is made from (`liveSource`, locked), when the user may see it: one
 * at places they do not view is answered as one that does not exist (undefined), so naming its id
 * tells them nothing a list would not. Reversals lock their sources with `liveSource` itself: a
 * lock tells nothing, and a void must take it whoever voids.
 */
export async function viewedSource(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  id: number,
): Promise<Record<string, unknown> | undefined> {
  const row = await liveSource(trx, scope, definition.table, id);
  if (!row || !definition.places) return row;
  return viewsRecord(placeAccessOf(scope), definition.places, row) ? row : undefined;
}

/** The names of warehouses and branches, keyed `warehouse:3`, for showing where documents and stocks are. */
export async function locationNames(db: Db, locations: readonly { type: unknown; id: unknown }[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [type, table] of [
    ['branch', 'branches'],
    ['warehouse', 'warehouses'],
  ] as const) {
    const ids = [...new Set(locations.filter((location) => location.type === type).map((location) => Number(location.id)))];
    if (ids.length === 0) continue;
    for (const row of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', ids).execute()) {
      names.set(`${type}:${row.id}`, row.name);
    }
  }
  return names;
}

/** Both ends of a transfer must be live locations of the business, and not the same one. */
async function twoLocationErrors(db: Db, scope: Scope, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const side of ['from', 'to'] as const) {
    const type = values[`${side}_location_type`];
    const id = values[`${side}_location_id`];
    if (!type || !id) continue;
    const found = await db
      .selectFrom(type === 'branch' ? 'branches' : 'warehouses')
      .select('id')
      .where('id', '=', Number(id))
      .where('business_id', '=', scope.businessId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!found) errors[`${side}_location_id`] = [`The selected ${side} location is invalid.`];
  }
  if (values.from_location_type === values.to_location_type && values.from_location_id === values.to_location_id) {
    errors.to_location_id = ['The to location must be another location than the from location.'];
  }
  return errors;
}

export function locationOf(columns: Record<string, unknown>): Location | undefined {
  if (columns.from_location_type) return { type: columns.from_location_type as Location['type'], id: Number(columns.from_location_id) };
  if (columns.branch_id) return { type: 'branch', id: Number(columns.branch_id) };
  if (columns.warehouse_id) return { type: 'warehouse', id: Number(columns.warehouse_id) };
  return undefined;
}

/** The effects a kind's making moves at its own place, and its void moves back (not between places, nor on closing). */
export const ownPlaceEffects = (definition: ResourceDefinition): StockEffect[] =>
  (definition.document?.effects?.stock ?? []).filter((effect) => effect.at === 'own' && effect.inTransit === 0 && !effect.rest);

/**
 * The movements a document's lines make at its place, as its kind declares (`effects.stock`):
 * a receipt's put goods in stock, an invoice's take them out, a return's restocked lines come back
 * and its quarantined ones come back into quarantine — or, `back` (a void), the reverse of each.
 */
export function ownMovements(definition: ResourceDefinition, lines: readonly EffectLine[], location: Location, back = false): Movement[] {
  const sign = back ? -1 : 1;
  return ownPlaceEffects(definition).flatMap((effect) =>
    lines
      .filter((line) => effectMoves(effect, line))
      .map((line) => ({
        itemId: line.itemId,
        location,
        quantity: sign * effect.onHand * line.baseQuantity,
        quarantined: sign * (effect.quarantined ?? 0) * line.baseQuantity,
      })),
  );
}

/** A stored line as the effects read it. */
const effectLine = (line: StoredLine): EffectLine => ({
  itemId: line.item_id,
  baseQuantity: line.base_quantity,
  reason: line.reason,
  disposition: line.disposition,
});

/**
 * A void moving the goods of a document at its place back, dated today, as its kind declares
 * (`ownMovements`): what a receipt put in stock leaves it, what an invoice took out returns.
 */
export async function moveBack(trx: Trx, scope: Scope, row: Record<string, unknown>, definition: ResourceDefinition): Promise<void> {
  const type = definition.document!.type;
  const lines = await storedLines(trx, type, [Number(row.id)]);
  await move(
    trx,
    scope,
    { type, id: Number(row.id), number: String(row.number), date: todayInManila() },
    ownMovements(definition, lines.map(effectLine), locationOf(row)!, true),
  );
}

/** A document is at a branch or a warehouse — exactly one. */
export function locationErrors(values: Record<string, unknown>): Record<string, string[]> {
  const both = Boolean(values.branch_id) && Boolean(values.warehouse_id);
  if (both) return { warehouse_id: ['Choose a branch or a warehouse, not both.'] };
  if (!values.branch_id && !values.warehouse_id) return { branch_id: ['The branch or warehouse field is required.'] };
  return {};
}

/**
 * The lines of a read, in pesos and units as the API speaks them. To a user who sees costs, each
 * line also says what its goods cost and, on a sale, its margin, and the sale its cost of goods
 * and margin (null while a line is not costed).
 */
async function decorateLines(db: Db, scope: Scope, definition: ResourceDefinition, records: ApiRecord[]): Promise<void> {
  const type = definition.document!.type;
  const costs = holdsAny(scope.permissions, [VIEW_COSTS_PERMISSION]);
  const sells = costs && sellsGoods(definition);
  if (costs) await costsSettled(db, scope.businessId);
  // An adjustment's lines say why; a return's also what became of the goods.
  const reasoned = definition.document!.lines === 'adjustments' || definition.document!.lines === 'returns';
  const disposed = definition.document!.lines === 'returns';
  const lines = await storedLines(
    db,
    type,
    records.map((record) => Number(record.id)),
  );
  const items = new Map<number, { name: string; sku: string }>();
  const units = new Map<number, string>();
  if (lines.length > 0) {
    for (const row of await db
      .selectFrom('items')
      .select(['id', 'name', 'sku'])
      .where('id', 'in', [...new Set(lines.map((line) => line.item_id))])
      .execute()) {
      items.set(row.id, { name: row.name, sku: row.sku });
    }
    for (const row of await db
      .selectFrom('unit_of_measurements')
      .select(['id', 'abbreviation'])
      .where('id', 'in', [...new Set(lines.map((line) => line.unit_of_measurement_id))])
      .execute()) {
      units.set(row.id, row.abbreviation);
    }
  }
  const byDocument = new Map<number, unknown[]>();
  for (const line of lines) {
    const item = items.get(line.item_id);
    const list = byDocument.get(line.document_id) ?? [];
    list.push({
      id: line.id,
      item_id: line.item_id,
      item: item ? { id: line.item_id, display: item.name, sku: item.sku } : null,
      unit_of_measurement_id: line.unit_of_measurement_id,
      unit: units.get(line.unit_of_measurement_id) ?? null,
      quantity: fromThousandths(line.quantity),
      unit_price: centavosToPesos(line.unit_price),
      discount_percent: line.discount_percent / 100,
      vat_category: line.vat_category,
      sc_pwd: Boolean(line.sc_pwd),
      amount: centavosToPesos(line.amount),
      vat: centavosToPesos(line.vat),
      source_line_id: line.source_line_id,
      quantity_done: fromThousandths(line.quantity_done),
      ...(reasoned && { reason: line.reason, note: line.note }),
      ...(disposed && { disposition: line.disposition }),
      ...(costs && { cost: line.cost === null ? null : centavosToPesos(line.cost) }),
      ...(sells && { margin: line.cost === null ? null : centavosToPesos(line.amount - line.cost) }),
    });
    byDocument.set(line.document_id, list);
  }
  for (const record of records) record.lines = byDocument.get(record.id) ?? [];
  if (!sells) return;
  for (const record of records) {
    const own = lines.filter((line) => line.document_id === record.id);
    const costed = own.every((line) => line.cost !== null);
    const net = own.reduce((sum, line) => sum + line.amount, 0);
    const cost = own.reduce((sum, line) => sum + (line.cost ?? 0), 0);
    const figures = margin(net, cost);
    record.cost_of_goods = costed ? centavosToPesos(cost) : null;
    record.margin = costed ? centavosToPesos(figures.margin) : null;
    record.margin_percent = costed ? figures.percent : null;
  }
}

export function documentStore(definition: ResourceDefinition, hooks: DocumentHooks): ResourceStore {
  const spec = definition.document!;
  const base = businessTableStore(definition);
  const madeFrom = sourcesOf(definition);
  return {
    ...base,
    // Each document is numbered, lined and moves its stock as it is inserted: one at a time.
    insertMany: undefined,
    createFields: {
      ...(spec.lines === 'none' ? {} : { lines: linesInputOf(spec) }),
      numbered: numberedInput,
    },
    updateFields: hooks.relines ? { lines: linesInputOf(spec).optional() } : undefined,
    async update(trx, scope, id, columns, input) {
      if (input.lines && hooks.relines) {
        const row = await untyped(trx).selectFrom(definition.table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const priced = await hooks.relines(trx, scope, { ...row, ...columns }, input.lines as LineInput[]);
        await trx.deleteFrom('document_lines').where('document_type', '=', spec.type).where('document_id', '=', id).execute();
        await insertLines(trx, scope, spec.type, id, priced.lines);
        await base.update(trx, scope, id, { ...columns, ...priced.totals }, input);
        return;
      }
      await base.update(trx, scope, id, columns, input);
    },
    async validate(db, scope, values, exceptId) {
      if (exceptId !== undefined) return {};
      // The location is the document's own unless the kind takes it from its source (a payment's bill).
      if (spec.twoLocations) return definition.fields.from_location_type.computed ? {} : twoLocationErrors(db, scope, values);
      const location = definition.fields.branch_id?.computed ? {} : locationErrors(values);
      return { ...location, ...(await contactKindErrors(db, scope, definition, values)) };
    },
    async insert(trx, scope, columns, input) {
      // The source first, locked: one the user sees, in a status its lifecycle makes this kind from.
      // Where the new document takes its places from it, the user must operate there first: one
      // who may never make it is refused (403) as such, whatever the source's state.
      for (const { source, followOn } of madeFrom) {
        if (columns[followOn.field] === null || columns[followOn.field] === undefined) continue;
        const row = await viewedSource(trx, scope, source, Number(columns[followOn.field]));
        if (row && hooks.placesFrom) await assertOperates(trx, scope, definition, { ...columns, ...hooks.placesFrom(row) });
        if (row && !followOn.from.includes(String(row.status))) {
          const status = statusLabel(String(row.status)).toLowerCase();
          throw conflict(
            `${source.singular} ${String(row.number)} is ${status}: no ${definition.singular.toLowerCase()} can be made from it.`,
          );
        }
      }
      const prepared = await hooks.prepare(trx, scope, columns, { ...input, lines: input.lines as LineInput[] | undefined });
      // A new document starts where its lifecycle says.
      const row: Record<string, unknown> = { ...columns, ...prepared.columns, status: spec.lifecycle.start };
      // Its places are all known now: refused where the user does not operate before anything is
      // numbered or moved, so no refusal of the ledger tells them what is on hand at a place that
      // is not theirs.
      await assertOperates(trx, scope, definition, row);
      const location = locationOf(row);
      if (!location) throw conflict('The document has no branch or warehouse.');
      const date = String(row.date);
      // A number the device took offline from its block (number-blocks.ts), or the series' next.
      const numbered = input.numbered as { block_id: number; sequence: number } | undefined;
      const number = numbered
        ? documentNumber(spec.prefix, date, location, await sequenceFromBlock(trx, scope, spec.type, location, date, numbered))
        : await nextDocumentNumber(trx, scope, spec.type, spec.prefix, date, location);
      const referenceNumber = row.contact_id ? await nextReferenceNumber(trx, scope, spec.type, date, Number(row.contact_id)) : null;
      // Goods moved between locations have no totals nor reference number.
      const money = spec.lines === 'priced' || spec.lines === 'returns' ? { ...prepared.lines?.totals } : {};
      const reference = 'contact_id' in definition.fields ? { reference_number: referenceNumber } : {};
      const id = await base.insert(trx, scope, { ...row, ...money, ...reference, number, created_by: scope.userId || null }, input);
      if (prepared.lines) await insertLines(trx, scope, spec.type, id, prepared.lines.lines);
      // What it is issued with, as its business, place and contact are now: what every print of it shows.
      await keepParticulars(trx, scope, { type: spec.type, id, location, contactId: row.contact_id });
      const document = { type: spec.type, id, number, date };
      // A document at one place moves its goods there as its kind declares: in (a receipt), out (a
      // sale), by each line's sign (an adjustment), by each line's disposition (a return).
      if (prepared.lines) await move(trx, scope, document, ownMovements(definition, prepared.lines.lines, location));
      await hooks.apply?.(trx, scope, document, prepared, row);
      return id;
    },
    async beforeTrash(trx, scope, id) {
      const row = await untyped(trx)
        .selectFrom(definition.table)
        .select(['number', 'status'])
        .where('id', '=', id)
        .where('business_id', '=', scope.businessId)
        .executeTakeFirstOrThrow();
      const status = String(row.status);
      // One that moved stock or money is undone (voided, cancelled) before it goes to the trash.
      if (!trashableIn(spec.lifecycle, status))
        throw conflict(trashRefusal(spec.lifecycle, definition.singular, String(row.number), status));
    },
    async extraUsage(db, _scope, id) {
      const row = await db
        .selectFrom('stock_movements')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('document_type', '=', spec.type)
        .where('document_id', '=', id)
        .executeTakeFirstOrThrow();
      const count = Number(row.count);
      return count > 0 ? [{ label: 'stock movements (the stock ledger keeps them)', count }] : [];
    },
    async decorate(db, scope, records) {
      if (spec.lines !== 'none') await decorateLines(db, scope, definition, records);
      await decorateParticulars(db, scope, spec.type, records);
      if (spec.twoLocations) {
        const ends = records.flatMap((record) => [
          { type: record.from_location_type, id: record.from_location_id },
          { type: record.to_location_type, id: record.to_location_id },
        ]);
        const names = await locationNames(db, ends);
        for (const record of records) {
          for (const side of ['from', 'to']) {
            const id = record[`${side}_location_id`];
            record[`${side}_location`] = { id, display: names.get(`${String(record[`${side}_location_type`])}:${String(id)}`) ?? null };
          }
        }
      }
    },
  };
}

/**
 * The store of a document kind with no rules beyond its declaration: its lines priced as given,
 * with no price list (signed, each with its reason, for `lines: 'adjustments'`), its stock moved
 * as its spec says.
 */
export function declaredDocumentStore(definition: ResourceDefinition): ResourceStore {
  const document = definition.document!;
  return documentStore(definition, {
    async prepare(trx, scope, columns, input) {
      if (document.lines === 'none') return {};
      const context = { list: null, date: String(columns.date), partyId: null, adjusts: document.lines === 'adjustments' };
      return { lines: await priceLines(trx, scope, input.lines as LineInput[], context) };
    },
  });
}
