import type { ResourceDefinition } from '../../domain/resource';
import { keptRecords } from './kept-records';
import { nextTurn } from './next-turn';
import { offlineDatabase, onRecordsChanged, type RecordsChanged } from './offline-store';
import { TrigramIndex } from './text-index';

/**
 * The records of one resource kept on this device for a business, held in memory so that a
 * search typed offline answers while typing (kept-search.ts asks it): read once from IndexedDB,
 * on first use, then kept current as the kept records change (offline-store.ts tells every change,
 * made in this tab or another). It holds the records in id order, each with its text lowercased
 * once — the picker's fields in one haystack, each textual search field alone — and, for the
 * unique text fields (an item's SKU and barcode), a map from value to record, so a scan finds its
 * item without looking at the others; and the pickers' haystacks by their trigrams (text-index.ts),
 * so a name typed looks only at the records holding its every run of three characters. What a
 * query needs beyond that is made when first asked: a map of another field's values, dropped when
 * the records change; the records in another field's order, kept current as they change.
 */

type Row = Readonly<Record<string, unknown>>;

/** The longest stretch an index being made holds the page: 12 ms here is 48 ms on a phone four times slower, under a 50 ms long task. */
const SLICE_MS = 12;

/** Text fields searched by any part (others, and every field when strict, by the whole value). */
export const TEXTUAL = new Set(['text', 'textarea', 'email']);
/** Between the picker's fields in the haystack: typed text never holds it, so no match spans two fields. */
export const SEPARATOR = '\u0001';

/** One kept record, with its text lowercased once. */
export interface Entry {
  id: number | string;
  record: Row;
  trashed: boolean;
  /** The picker's fields, lowercased, joined by SEPARATOR. */
  picker: string;
  /** Each textual search field's value lowercased (null when it holds none), in `textFields` order. */
  text: (string | null)[];
  /**
   * Its number in the index, kept while its picker says the same (a record renamed takes a new
   * one): what the picker's trigrams list it by, and what an order's `place` is read by.
   */
  slot: number;
}

/**
 * Records in another field's order: those holding a value (ascending, then by id), then those
 * holding none (by id); and where each record stands in it, by its slot (`place`), so a search
 * marks its matches at their places in whatever order it finds them.
 */
export interface SortedEntries {
  entries: Entry[];
  withValue: number;
  place: Int32Array;
}

const lowered = (value: unknown) => (value === null || value === undefined ? null : String(value).toLowerCase());

/** Ids in their order: numbers by value (a server's ids), before any client key. */
export function compareIds(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Two values of a field in ascending order, as a list sorts them (neither missing). */
export const compareValues = (x: unknown, y: unknown): number => (x === y ? 0 : (x as number) < (y as number) ? -1 : 1);

/** Two records in `field`'s order (see SortedEntries). */
function inOrderOf(field: string): (a: Entry, b: Entry) => number {
  return (a, b) => {
    const x = a.record[field];
    const y = b.record[field];
    const missingX = x === null || x === undefined;
    if (missingX !== (y === null || y === undefined)) return missingX ? 1 : -1;
    return (missingX ? 0 : compareValues(x, y)) || compareIds(a.id, b.id);
  };
}

/** Above this many records changed at once, the id order is made again whole rather than one record at a time. */
const MANY = 200;

export class KeptIndex {
  /** The textual fields among the resource's search fields, whose lowercased values each entry holds. */
  readonly textFields: readonly string[];
  private readonly textAt: ReadonlyMap<string, number>;
  /** The unique text fields a search may name, kept in maps always. */
  private readonly uniqueFields: readonly string[];
  private entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  /** Each record at its slot; undefined where one was let go (the record removed, or renamed to another slot). */
  private slots: (Entry | undefined)[] = [];
  /** How many slots were let go since the records were last numbered. */
  private letGo = 0;
  /** The pickers' trigrams, listing slots: made as the records come, kept current as they change. */
  private readonly grams = new TrigramIndex(SEPARATOR);
  private readonly unique = new Map<string, Map<string, Entry[]>>();
  /** Made when first asked, dropped on any change. */
  private readonly equalMaps = new Map<string, Map<string, Entry[]>>();
  /** Made when first asked (a sort of every record), then kept current as records change. */
  private readonly orders = new Map<string, SortedEntries>();

  constructor(
    readonly definition: ResourceDefinition,
    records: Iterable<Row> = [],
  ) {
    const searched = definition.search.filter((name) => TEXTUAL.has(definition.fields[name]?.kind ?? ''));
    this.textFields = searched;
    this.textAt = new Map(searched.map((name, at) => [name, at]));
    this.uniqueFields = searched.filter((name) => definition.fields[name]?.unique);
    for (const name of this.uniqueFields) this.unique.set(name, new Map());
    // Entries made in id order, so a search going through them reads memory in order.
    const sorted = [...records].sort((a, b) => compareIds(a.id as number | string, b.id as number | string));
    for (const record of sorted) this.take(record);
    this.order();
  }

  /**
   * An index made from records read a chunk at a time (from IndexedDB), the page answering
   * between chunks and within them every SLICE_MS: each record's text is lowercased, and its
   * trigrams listed, as it comes. On a slow phone tens of thousands of records take seconds; no
   * stretch of them may hold a tap or a frame.
   */
  static async fromChunks(definition: ResourceDefinition, chunks: AsyncIterable<readonly Row[]>): Promise<KeptIndex> {
    const index = new KeptIndex(definition);
    let sliceStart = performance.now();
    for await (const chunk of chunks) {
      for (const record of chunk) {
        index.take(record);
        if (performance.now() - sliceStart < SLICE_MS) continue;
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    index.order();
    return index;
  }

  /**
   * Takes a record in, out of order until `order`. It keeps the slot of the record it replaces
   * while its picker says the same; otherwise it takes a new slot, listed under its trigrams, and
   * the old slot's listings stay behind for the search to find let go.
   */
  private take(record: Row): Entry {
    const key = String(record.id);
    const before = this.byId.get(key);
    const entry = this.entryOf(record);
    if (before) this.forgetUnique(before);
    if (before && before.picker === entry.picker) entry.slot = before.slot;
    else {
      if (before) this.letGoOf(before);
      entry.slot = this.slots.length;
      this.grams.add(entry.slot, entry.picker);
    }
    this.slots[entry.slot] = entry;
    this.byId.set(key, entry);
    this.rememberUnique(entry);
    return entry;
  }

  private letGoOf(entry: Entry): void {
    this.slots[entry.slot] = undefined;
    this.letGo += 1;
  }

  private order(): void {
    this.entries = [...this.byId.values()].sort((a, b) => compareIds(a.id, b.id));
  }

  /** How many records it holds. */
  get size(): number {
    return this.entries.length;
  }

  /** Every record, in id order. */
  all(): readonly Entry[] {
    return this.entries;
  }

  /** Where a search field's lowercased value is held in each entry's `text`; undefined for a field not textual. */
  textIndexOf(field: string): number | undefined {
    return this.textAt.get(field);
  }

  /** The records whose `field`, lowercased, is `value` exactly, in id order. */
  equalTo(field: string, value: string): readonly Entry[] {
    const found = (this.unique.get(field) ?? this.equalMap(field)).get(value) ?? [];
    return found.length > 1 ? [...found].sort((a, b) => compareIds(a.id, b.id)) : found;
  }

  /**
   * The records whose picker holds `term` (lowercased), in id order: the candidates of its
   * trigrams, each tested. Null for a term they cannot find (under three characters, or holding
   * SEPARATOR) or whose every trigram is in most records (an SKU's "sku"), which the caller tests
   * every record for: as quick then, and without a list of them all to sort.
   */
  pickerHolding(term: string): Entry[] | null {
    if (term.length < 3 || term.includes(SEPARATOR)) return null;
    const candidates = this.grams.candidates(term, this.entries.length / 2);
    if (!candidates) return null;
    const found: Entry[] = [];
    for (const slot of candidates) {
      // A candidate may be a slot let go, or a picker holding the term's trigrams apart: only a test tells.
      const entry = this.slots[slot];
      if (entry !== undefined && entry.picker.includes(term)) found.push(entry);
    }
    return found.sort((a, b) => compareIds(a.id, b.id));
  }

  /** The records in `field`'s order (see SortedEntries), made once, then kept current as the records change. */
  sortedBy(field: string): SortedEntries {
    let order = this.orders.get(field);
    if (!order) {
      const entries = this.entries;
      const values = entries.map(({ record }) => record[field]);
      const missing = (at: number) => values[at] === null || values[at] === undefined;
      // Among the same values, the id order is the positions' own.
      const positions = Array.from({ length: entries.length }, (_, at) => at);
      positions.sort((a, b) => {
        if (missing(a) !== missing(b)) return missing(a) ? 1 : -1;
        return (missing(a) ? 0 : compareValues(values[a], values[b])) || a - b;
      });
      const withValue = positions.findIndex(missing);
      const sorted = positions.map((at) => entries[at]);
      order = { entries: sorted, withValue: withValue < 0 ? entries.length : withValue, place: this.placesOf(sorted) };
      this.orders.set(field, order);
    }
    return order;
  }

  /** Takes records as they are now: new ones join, kept ones are replaced. */
  put(records: readonly Row[]): void {
    if (records.length === 0) return;
    const many = records.length > MANY;
    const gone: Entry[] = [];
    const added: Entry[] = [];
    for (const record of records) {
      const before = this.byId.get(String(record.id));
      const entry = this.take(record);
      if (before) gone.push(before);
      added.push(entry);
      if (many) continue;
      const at = this.positionOf(entry.id);
      if (before) this.entries[at] = entry;
      else this.entries.splice(at, 0, entry);
    }
    if (many) this.order();
    this.changed(gone, added);
  }

  /** Lets records go, by id. */
  remove(ids: readonly (number | string)[]): void {
    if (ids.length === 0) return;
    const gone = new Set<Entry>();
    for (const id of ids) {
      const entry = this.byId.get(String(id));
      if (!entry) continue;
      this.byId.delete(String(id));
      this.forgetUnique(entry);
      this.letGoOf(entry);
      gone.add(entry);
    }
    if (gone.size > MANY) this.entries = this.entries.filter((entry) => !gone.has(entry));
    else for (const entry of gone) this.entries.splice(this.positionOf(entry.id), 1);
    this.changed([...gone], []);
  }

  private entryOf(record: Row): Entry {
    const text = this.textFields.map((name) => lowered(record[name]));
    // A picker's field is most often a search field too (an item's name, SKU, barcode): lowercased once.
    const picker = (this.definition.pickerFields ?? [])
      .map((name) => {
        const at = this.textAt.get(name);
        return (at === undefined ? lowered(record[name]) : text[at]) ?? '';
      })
      .join(SEPARATOR);
    // Its slot is given by `take`.
    return { id: record.id as number | string, record, trashed: Boolean(record.deleted_at), picker, text, slot: -1 };
  }

  /** Where an id is, or would go, in the id order. */
  private positionOf(id: number | string): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareIds(this.entries[middle].id, id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private rememberUnique(entry: Entry): void {
    for (const name of this.uniqueFields) {
      const value = entry.text[this.textAt.get(name)!];
      if (value === null) continue;
      const map = this.unique.get(name)!;
      const held = map.get(value);
      if (held) held.push(entry);
      else map.set(value, [entry]);
    }
  }

  private forgetUnique(entry: Entry): void {
    for (const name of this.uniqueFields) {
      const value = entry.text[this.textAt.get(name)!];
      if (value === null) continue;
      const map = this.unique.get(name)!;
      const left = (map.get(value) ?? []).filter((held) => held !== entry);
      if (left.length > 0) map.set(value, left);
      else map.delete(value);
    }
  }

  /** A field's values, lowercased, to the records holding each: made once until the records change. */
  private equalMap(field: string): Map<string, Entry[]> {
    let map = this.equalMaps.get(field);
    if (!map) {
      map = new Map();
      const at = this.textAt.get(field);
      for (const entry of this.entries) {
        const value = at === undefined ? lowered(entry.record[field]) : entry.text[at];
        if (value === null) continue;
        const held = map.get(value);
        if (held) held.push(entry);
        else map.set(value, [entry]);
      }
      this.equalMaps.set(field, map);
    }
    return map;
  }

  /** Where each record of an order stands in it, by slot. */
  private placesOf(entries: readonly Entry[]): Int32Array {
    const place = new Int32Array(this.slots.length);
    for (let at = 0; at < entries.length; at += 1) place[entries[at].slot] = at;
    return place;
  }

  /**
   * Records replaced or let go (`gone`) and taken in (`added`): the orders made follow, without a
   * sort of every record — the gone found by their places and left out, the added (those not
   * replaced again since) merged in at theirs. Once more slots were let go than records are held,
   * the records are numbered again, so the trigrams' lists and the orders' places stay small.
   */
  private changed(gone: readonly Entry[], added: readonly Entry[]): void {
    this.equalMaps.clear();
    const current = added.filter((entry) => this.slots[entry.slot] === entry);
    for (const [field, order] of this.orders) {
      const { entries, place } = order;
      const out = new Uint8Array(entries.length);
      let withValue = order.withValue;
      for (const entry of gone) {
        const at = entry.slot < place.length ? place[entry.slot] : -1;
        if (entries[at] !== entry) continue; // Taken in and replaced within the same change: never placed.
        out[at] = 1;
        if (at < order.withValue) withValue -= 1;
      }
      const inOrder = inOrderOf(field);
      const coming = [...current].sort(inOrder);
      // Where each added record goes among the records before the change (whose own values placed them).
      const goes = coming.map((entry) => {
        let [low, high] = [0, entries.length];
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (inOrder(entries[middle], entry) < 0) low = middle + 1;
          else high = middle;
        }
        return low;
      });
      const merged: Entry[] = [];
      let next = 0;
      for (let at = 0; at <= entries.length; at += 1) {
        for (; next < coming.length && goes[next] === at; next += 1) {
          merged.push(coming[next]);
          const value = coming[next].record[field];
          if (value !== null && value !== undefined) withValue += 1;
        }
        if (at < entries.length && out[at] === 0) merged.push(entries[at]);
      }
      this.orders.set(field, { entries: merged, withValue, place: this.placesOf(merged) });
    }
    if (this.letGo > this.entries.length) this.renumber();
  }

  /** Numbers the records held again, from 0 in their slots' order, leaving out the slots let go. */
  private renumber(): void {
    const to = new Int32Array(this.slots.length).fill(-1);
    const held: Entry[] = [];
    for (const [slot, entry] of this.slots.entries()) {
      if (entry === undefined) continue;
      to[slot] = held.length;
      entry.slot = held.length;
      held.push(entry);
    }
    this.slots = held;
    this.letGo = 0;
    this.grams.renumber(to);
    for (const [field, order] of this.orders) this.orders.set(field, { ...order, place: this.placesOf(order.entries) });
  }
}

interface Held {
  index: Promise<KeptIndex>;
  /** Changes heard while it is being read, taken in once it is. */
  heard: Exclude<RecordsChanged['change'], 'all'>[] | null;
  made: KeptIndex | null;
}

/** The indexes of the open store, by `{businessId}|{resource}`. */
const held = new Map<string, Held>();

/**
 * The index of a resource's kept records in a business, made on first use; null when no store is
 * open or it cannot be read.
 */
export async function keptIndex(businessId: number, definition: ResourceDefinition): Promise<KeptIndex | null> {
  const database = offlineDatabase();
  if (!database) return null;
  const key = `${businessId}|${definition.name}`;
  let entry = held.get(key);
  if (!entry) {
    const reading: Held = { index: undefined as unknown as Promise<KeptIndex>, heard: [], made: null };
    reading.index = (async () => {
      const index = await KeptIndex.fromChunks(definition, keptRecords(await database, businessId, definition.name));
      for (const change of reading.heard ?? []) apply(index, change);
      reading.heard = null;
      reading.made = index;
      return index;
    })();
    reading.index.catch(() => {
      if (held.get(key) === reading) held.delete(key);
    });
    held.set(key, reading);
    entry = reading;
  }
  return entry.index.catch(() => null);
}

/** Whether the index of a resource's kept records in a business is made (and so answers at once). */
export function madeKeptIndex(businessId: number, definition: ResourceDefinition): boolean {
  return Boolean(held.get(`${businessId}|${definition.name}`)?.made);
}

/** Makes the index of a resource ahead (the device went offline: the first scan need not wait). */
export function warmKeptIndex(businessId: number, definition: ResourceDefinition): void {
  void keptIndex(businessId, definition);
}

function apply(index: KeptIndex, change: Exclude<RecordsChanged['change'], 'all'>): void {
  if (change.removed) index.remove(change.removed);
  if (change.put) index.put(change.put);
}

/** Kept records changed (here or in another tab): the indexes follow, or go to be read again. */
function hear({ businessId, resource, change }: RecordsChanged): void {
  if (businessId === null) {
    held.clear();
    return;
  }
  for (const [key, entry] of held) {
    const [business, name] = [Number(key.slice(0, key.indexOf('|'))), key.slice(key.indexOf('|') + 1)];
    if (business !== businessId || (resource !== null && name !== resource)) continue;
    if (change === 'all') held.delete(key);
    else if (entry.made) apply(entry.made, change);
    else entry.heard?.push(change);
  }
}

onRecordsChanged(hear);
