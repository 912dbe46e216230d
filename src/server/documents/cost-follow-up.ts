import { transientFailure } from '../db/dialect';
import type { Db, Trx } from '../db/scope';
import { costMoved, lockCosts, recostItem, type ItemMoved } from './costing';

/**
 * Costing as a follow-up of the document that moved the goods (docs/costing.md, "When costs are
 * written"). The ledger writes each movement with `costed = 0` and costs nothing itself: posting
 * a sale pays for no costing at all. Once the document's transaction has committed, its answer
 * sent, the follow-up (`settleCosts`, `FOLLOW_UP_MS` later, for the answers given meanwhile too)
 * costs every movement still waiting, in its own transaction, and marks it costed there, so each
 * is costed exactly once:
 *
 * - A round takes the oldest waiting movements of one business, locks their items' cost rows (in
 *   item order, one statement), and only then reads which of those items' movements still wait:
 *   a follow-up of another request or another instance that got there first has marked them, and
 *   this one finds nothing to do.
 * - The documents are costed in the order of their first waiting movement, each as costing
 *   always has (`costMoved`): after every other entry of the item from its state, before some by
 *   walking the item from there.
 * - Whatever still waits — a server stopped between a commit and its follow-up, a write that did
 *   not ask for one — is costed by the next follow-up, by the sweep every `SWEEP_MS`, at the
 *   next start, and before anything reads costs: a report, a document's margin, a count's
 *   difference in pesos, the audit (`settleCosts(db, businessId)` first; when nothing waits, one
 *   look at an index holding only what waits).
 */

/** Movements a round takes at most: their items are locked together. */
const ROUND = 1000;
/** How often an instance looks for movements left waiting. */
export const SWEEP_MS = 10_000;
/** How long an answer's follow-up waits for the answers after it, to cost theirs too (`followUps`). */
export const FOLLOW_UP_MS = 250;

/** What the ledger writes a movement's `costed` as: it waits for its follow-up. */
export const WAITING = 0;

/** Transactions that moved goods: their follow-up is owed once they commit. */
const owing = new WeakSet<object>();

/** The ledger says that this transaction wrote movements to cost. */
export function oweCosts(trx: Trx): void {
  owing.add(trx);
}

/** Whether this transaction wrote movements that wait to be costed. */
export const owesCosts = (trx: Trx): boolean => owing.has(trx);

interface Waiting {
  id: number;
  item_id: number;
  document_type: string;
  document_id: number;
  document_date: string;
  quantity: number;
  in_transit: number;
}

/** What each document's waiting movements did to each item, the documents in the order they first moved. */
function byDocument(movements: readonly Waiting[]) {
  const documents = new Map<string, { type: string; id: number; date: string; moved: Map<number, ItemMoved> }>();
  for (const movement of movements) {
    const key = `${movement.document_type} ${movement.document_id}`;
    let document = documents.get(key);
    if (!document) {
      document = { type: movement.document_type, id: movement.document_id, date: String(movement.document_date), moved: new Map() };
      documents.set(key, document);
    }
    const moved = document.moved.get(movement.item_id) ?? { change: 0, first: movement.id };
    moved.change += Number(movement.quantity) + Number(movement.in_transit);
    moved.first = Math.min(moved.first, movement.id);
    document.moved.set(movement.item_id, moved);
  }
  return [...documents.values()];
}

/**
 * Costs the waiting movements of these items of the business, in the caller's transaction, and
 * marks them costed. Returns how many it costed.
 */
export async function costWaiting(trx: Trx, businessId: number, itemIds: readonly number[]): Promise<number> {
  const locked = await lockCosts(trx, businessId, itemIds);
  const movements: Waiting[] = [];
  const items = [...locked.keys()];
  for (let at = 0; at < items.length; at += ROUND) {
    movements.push(
      ...((await trx
        .selectFrom('stock_movements')
        .select(['id', 'item_id', 'document_type', 'document_id', 'document_date', 'quantity', 'in_transit'])
        .where('business_id', '=', businessId)
        .where('costed', '=', 0)
        .where('item_id', 'in', items.slice(at, at + ROUND))
        .execute()) as Waiting[]),
    );
  }
  if (movements.length === 0) return 0;
  movements.sort((a, b) => a.id - b.id);
  // Never costed before (a new item): all of it from the ledger at once, these movements too.
  const fresh = new Set(items.filter((itemId) => locked.get(itemId)!.fresh));
  for (const itemId of fresh) await recostItem(trx, businessId, itemId);
  for (const document of byDocument(movements.filter((movement) => !fresh.has(movement.item_id)))) {
    // The items' states as the documents before this one left them (their rows are locked already).
    const states = await lockCosts(trx, businessId, [...document.moved.keys()]);
    await costMoved(trx, businessId, document, document.moved, states);
  }
  const ids = movements.map((movement) => movement.id);
  for (let at = 0; at < ids.length; at += ROUND) {
    await trx
      .updateTable('stock_movements')
      .set({ costed: 1 })
      .where('id', 'in', ids.slice(at, at + ROUND))
      .execute();
  }
  return movements.length;
}

/** One round: the oldest waiting movements (of the business, when given), costed. Returns how many were. */
async function settleRound(db: Db, businessId: number | undefined): Promise<number> {
  let waiting = db.selectFrom('stock_movements').select(['business_id', 'item_id']).where('costed', '=', 0);
  if (businessId !== undefined) waiting = waiting.where('business_id', '=', businessId);
  const oldest = await waiting.orderBy('id').limit(ROUND).execute();
  if (oldest.length === 0) return 0;
  const business = oldest[0].business_id;
  const items = [...new Set(oldest.filter((row) => row.business_id === business).map((row) => row.item_id))];
  for (let attempt = 1; ; attempt++) {
    try {
      // None when another follow-up costed them meanwhile: it has ended, and so does this one.
      return await db.transaction().execute((trx) => costWaiting(trx, business, items));
    } catch (error) {
      if (attempt >= 3 || !transientFailure(error)) throw error;
    }
  }
}

/** The follow-ups of each database, one after the other. */
const running = new WeakMap<Db, Promise<void>>();

/**
 * Costs every movement that waits (of the business, when given), after any follow-up already
 * running in this process: what resolves it has been costed.
 */
export function settleCosts(db: Db, businessId?: number): Promise<void> {
  const next = (running.get(db) ?? Promise.resolve())
    .catch(() => undefined)
    .then(async () => {
      while ((await settleRound(db, businessId)) > 0);
    });
  running.set(db, next);
  return next;
}

/**
 * Before costs are read: what waits in the business, costed. Not inside a transaction: its own
 * movements wait for its commit, and those of others are costed by their follow-ups.
 */
export async function costsSettled(db: Db | Trx, businessId: number): Promise<void> {
  if (!db.isTransaction) await settleCosts(db, businessId);
}

interface Logger {
  warn(details: object, message: string): void;
}

/** A follow-up nobody waits for (after an answer, the sweep): one that fails is told and left to the next. */
function settleLater(db: Db, log: Logger): void {
  settleCosts(db).catch((error: unknown) => log.warn({ err: error }, 'Costing the goods moved is left to the next follow-up'));
}

/**
 * The follow-ups of one server: `owe` after each answer whose write moved goods, and a sweep every
 * `SWEEP_MS` for what another instance left waiting. An answer's follow-up waits `FOLLOW_UP_MS`
 * for the answers after it, and costs all of theirs in one round: at a busy counter each sale is
 * not followed at once by a transaction of its own, which slowed the next sale (its request ran
 * after the follow-up's writes and reads, ~1.5 ms slower on SQLite; bench/costing.ts). Nobody
 * waits for it: whatever reads costs costs what waits first (`costsSettled`). `stop` costs what
 * is owed and waits for it.
 */
export function followUps(db: Db, log: Logger): { owe(): void; stop(): Promise<void> } {
  let owed: NodeJS.Timeout | undefined;
  const sweep = setInterval(() => settleLater(db, log), SWEEP_MS);
  sweep.unref();
  return {
    owe() {
      owed ??= setTimeout(() => {
        owed = undefined;
        settleLater(db, log);
      }, FOLLOW_UP_MS);
    },
    async stop() {
      clearInterval(sweep);
      if (owed) {
        clearTimeout(owed);
        owed = undefined;
        settleLater(db, log);
      }
      await running.get(db)?.catch(() => undefined);
    },
  };
}
