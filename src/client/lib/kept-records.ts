import type { Table } from 'dexie';
import { belongsToWorkingSet } from '../../domain/working-set';
import { nextTurn } from './next-turn';
import type { KeptPage, KeptPageSummary, OfflineDatabase, SavedRecord } from './offline-store';

/**
 * The records the device keeps of a resource, in two places (docs/architecture.md, "Offline"):
 *
 * - **pages**: the working set as the server sent it, a few hundred records to an IndexedDB row,
 *   each row holding every kept record with an id in its range (after `after`, up to `last`). One
 *   row per record made the first download of a big business write for minutes and take hundreds
 *   of megabytes; a row per page writes in seconds, and the browser compresses its large values.
 * - **rows** (the `records` table): one record each, as lists and views saved it, and as the
 *   working set's changes brought it since its pages came.
 *
 * A record held in both is read as the newer copy (by version, then by when it was saved). A page
 * is the whole truth of its range when it comes: rows of the working set in it, older than it, go.
 * Beside each page, under its key, is its summary (`pageSummaries`: its ids, and those in the
 * trash), written and deleted with it by `putPage` and `deletePage` alone, in the same transaction.
 */

type Row = Record<string, unknown>;

/** A kept record's version, for which of two copies is newer; none: older than any. */
export const versionOf = (record: Readonly<Record<string, unknown>> | undefined) =>
  typeof record?.version === 'number' ? record.version : Number.NEGATIVE_INFINITY;

/** Records to a page row: a write of one holds the page for a few milliseconds on a slow phone. */
export const PAGE_ROWS = 250;

/** A record as the `records` table keeps it. */
export function keptRow(businessId: number, resource: string, record: Record<string, unknown>, savedAt: number): SavedRecord {
  return { key: `${businessId}|${resource}|${String(record.id)}`, businessId, resource, record, savedAt };
}

/** One copy of a record, and when the device saved it. */
export interface KeptCopy {
  record: Row;
  savedAt: number;
}

/** What reading kept records needs. */
type KeptDatabase = Pick<OfflineDatabase, 'pages' | 'records'>;
/** What writing pages needs: their summaries are written with them. */
type PagesDatabase = Pick<OfflineDatabase, 'pages' | 'pageSummaries' | 'records'>;

/** Whether `a` is a later copy of a record than `b`: a higher version, or at the same one saved later. */
export function isNewer(a: KeptCopy, b: KeptCopy): boolean {
  const [x, y] = [versionOf(a.record), versionOf(b.record)];
  if (x !== y) return x > y;
  return a.savedAt > b.savedAt;
}

const newest = (a: KeptCopy | undefined, b: KeptCopy | undefined) => (a && b ? (isNewer(a, b) ? a : b) : (a ?? b));

type PageKey = [number, string, number, number];

export const pageKey = (page: Pick<KeptPage, 'businessId' | 'resource' | 'after' | 'last'>) =>
  [page.businessId, page.resource, page.after, page.last] as PageKey;

/** Whether a record is in the trash, as kept-index.ts tells it. */
export const trashed = (record: Readonly<Row> | undefined) => Boolean(record?.deleted_at);

/** What a page's summary says of it: its records' ids in order, and those in the trash. */
export function summaryOf(page: KeptPage): KeptPageSummary {
  const { businessId, resource, after, last } = page;
  const ids = page.records.map((record) => record.id as number);
  const inTrash = page.records.filter((record) => trashed(record)).map((record) => record.id as number);
  return { businessId, resource, after, last, ids, trashed: inTrash };
}

/**
 * Writes a page and its summary: every write of a page goes through here, inside a transaction
 * over both. A chain of Dexie's own promises, not an async function: each native one awaited
 * between them is a turn in which Dexie may lose the transaction, and one more here made a merge
 * of many pages (`mergeIntoPages`) end it too early.
 */
const putPage = (db: PagesDatabase, page: KeptPage) => db.pages.put(page).then(() => db.pageSummaries.put(summaryOf(page)));

/** Deletes a page and its summary, as `putPage` writes them. */
const deletePage = (db: PagesDatabase, key: PageKey) => db.pages.delete(key).then(() => db.pageSummaries.delete(key));

/** A resource's pages in `table` (the pages, or their summaries), lowest ids first. */
export const pagesOf = <T>(table: Table<T, PageKey>, businessId: number, resource: string) =>
  table
    .where('[businessId+resource+after+last]')
    .between([businessId, resource, -Infinity, -Infinity], [businessId, resource, Infinity, Infinity], true, true);

/** Where an id is in a page's records (ascending by id), or -1. */
function positionIn(records: readonly Row[], id: number): number {
  let low = 0;
  let high = records.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = Number(records[middle].id);
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The page whose range holds an id, if any. */
export async function pageHolding(db: KeptDatabase, businessId: number, resource: string, id: number): Promise<KeptPage | undefined> {
  const page = await db.pages
    .where('[businessId+resource+after+last]')
    .between([businessId, resource, -Infinity, -Infinity], [businessId, resource, id, -Infinity], true, false)
    .last();
  return page && id <= page.last ? page : undefined;
}

/** One kept record: its row or its page's copy, whichever is newer. */
export async function keptRecord(
  db: KeptDatabase,
  businessId: number,
  resource: string,
  id: number | string,
): Promise<KeptCopy | undefined> {
  const [row, page] = await Promise.all([
    db.records.get(`${businessId}|${resource}|${String(id)}`),
    typeof id === 'number' ? pageHolding(db, businessId, resource, id) : undefined,
  ]);
  const at = page ? positionIn(page.records, id as number) : -1;
  return newest(row, page && at >= 0 ? { record: page.records[at], savedAt: page.savedAt } : undefined);
}

/**
 * Pages read from IndexedDB at a time while every record is read, the page answering between: one,
 * since the browser makes a page's thousand records in one go as the read answers — on a phone
 * four times slower, a long task each (bench/trace.ts), twice as long for two.
 */
const PAGES_READ = 1;

/**
 * Every record of a resource kept for the business, a chunk at a time (a page's records, each
 * replaced by its row where that is newer; then the rows no page holds), the browser answering
 * input between chunks.
 */
export async function* keptRecords(db: KeptDatabase, businessId: number, resource: string): AsyncGenerator<Row[]> {
  const rows = new Map<number | string, SavedRecord>();
  for (const row of await db.records.where('[businessId+resource]').equals([businessId, resource]).toArray()) {
    rows.set(typeof row.record.id === 'number' ? row.record.id : String(row.record.id), row);
  }
  let from: PageKey = [businessId, resource, -Infinity, -Infinity];
  for (;;) {
    const pages = await db.pages
      .where('[businessId+resource+after+last]')
      .between(from, [businessId, resource, Infinity, Infinity], false, true)
      .limit(PAGES_READ)
      .toArray();
    for (const page of pages) {
      yield page.records.map((record) => {
        const row = rows.get(record.id as number);
        if (!row) return record;
        rows.delete(record.id as number);
        return isNewer(row, { record, savedAt: page.savedAt }) ? row.record : record;
      });
    }
    if (pages.length < PAGES_READ) break;
    from = pageKey(pages[pages.length - 1]);
    await nextTurn();
  }
  if (rows.size > 0) yield [...rows.values()].map((row) => row.record);
}

/** Every record of a resource kept for the business, at once (tests, small resources). */
export async function allKept(db: KeptDatabase, businessId: number, resource: string): Promise<Row[]> {
  const all: Row[] = [];
  for await (const chunk of keptRecords(db, businessId, resource)) all.push(...chunk);
  return all;
}

/** A range of a resource's pages: after `after`, up to `last`. */
export interface PageRange {
  after: number;
  last: number;
}

/** The ranges of a resource's pages, lowest first (read from their keys, not their records). */
export async function pageRanges(db: KeptDatabase, businessId: number, resource: string): Promise<PageRange[]> {
  const keys = (await pagesOf(db.pages, businessId, resource).primaryKeys()) as unknown as PageKey[];
  return keys.map(([, , after, last]) => ({ after, last }));
}

/** The ids of a resource's rows kept for the business (not its pages'), ascending (read from their keys, not their records). */
export async function rowIds(db: KeptDatabase, businessId: number, resource: string): Promise<number[]> {
  const keys = await db.records.where('[businessId+resource]').equals([businessId, resource]).primaryKeys();
  const prefix = `${businessId}|${resource}|`.length;
  return keys
    .map((key) => Number(String(key).slice(prefix)))
    .filter(Number.isInteger)
    .sort((a, b) => a - b);
}

/**
 * Keeps a page of the working set as the server sent it: every record of the resource with an id
 * after `after`, up to `last` (Infinity: every one after), in id order. Call it inside a
 * transaction over `pages`, `pageSummaries` and `records`. Pages kept before in that range go
 * (one reaching out of it keeps its records outside it), and so do rows of the working set in it
 * that are not newer than what the page says (a record the page did not send has left the working
 * set). `ranges` (the resource's, as `pageRanges` read them) is kept current; `rowIds`: the ids
 * of the resource's rows, ascending, the candidates to remove.
 */
export async function keepPage(
  db: PagesDatabase,
  page: Omit<KeptPage, 'records'> & { records: readonly Row[] },
  ranges: PageRange[],
  rowIds: readonly number[],
): Promise<void> {
  const { businessId, resource, after, last, savedAt } = page;
  const overlapping = ranges.filter((range) => range.last > after && range.after < last);
  for (const range of overlapping) {
    const key = pageKey({ businessId, resource, ...range });
    if (range.after < after || range.last > last) {
      const old = await db.pages.get(key);
      const below = old?.records.filter((record) => Number(record.id) <= after) ?? [];
      const above = old?.records.filter((record) => Number(record.id) > last) ?? [];
      if (range.after < after && below.length > 0) {
        await putPage(db, { businessId, resource, after: range.after, last: after, records: below, savedAt: old!.savedAt });
        ranges.push({ after: range.after, last: after });
      }
      if (range.last > last && above.length > 0) {
        await putPage(db, { businessId, resource, after: last, last: range.last, records: above, savedAt: old!.savedAt });
        ranges.push({ after: last, last: range.last });
      }
    }
    await deletePage(db, key);
    ranges.splice(ranges.indexOf(range), 1);
  }
  // The page's records, PAGE_ROWS to a row, each row's range reaching up to its last record (the last row's, to the page's end).
  const records = page.records;
  for (let from = 0; from < records.length; from += PAGE_ROWS) {
    const part = records.slice(from, from + PAGE_ROWS);
    const range = {
      after: from === 0 ? after : Number(records[from - 1].id),
      last: from + PAGE_ROWS >= records.length ? last : Number(part[part.length - 1].id),
    };
    await putPage(db, { businessId, resource, ...range, records: part, savedAt });
    ranges.push(range);
  }
  ranges.sort((a, b) => a.after - b.after);

  const inRange = rowIds.filter((id) => id > after && id <= last);
  if (inRange.length === 0) return;
  const sent = new Map(records.map((record) => [Number(record.id), record]));
  const rows = await db.records.bulkGet(inRange.map((id) => `${businessId}|${resource}|${id}`));
  const stale = rows.filter((row): row is SavedRecord => {
    if (!row) return false;
    const copy = sent.get(Number(row.record.id));
    // A record the page did not send has left the working set, unless it says it never was in it (a closed document someone opened).
    if (!copy) return belongsToWorkingSet(resource, row.record);
    return !isNewer(row, { record: copy, savedAt });
  });
  await db.records.bulkDelete(stale.map((row) => row.key));
}

/**
 * Puts records as they are now into the pages holding their ids (a change of many records: as
 * rows they would cost what a row per record cost the first download). Each page touched takes
 * in, too, the rows of the working set in its range (the newer copy of each), and is written
 * again, split where it grew; records no page holds (a resource whose download sent none) are kept
 * as rows. Inside a transaction over `pages`, `pageSummaries` and `records`.
 */
export async function mergeIntoPages(
  db: PagesDatabase,
  businessId: number,
  resource: string,
  records: readonly Row[],
  savedAt: number,
): Promise<void> {
  const byPage = new Map<string, { page: KeptPage; records: Row[] }>();
  const unpaged: Row[] = [];
  for (const record of records) {
    const page = typeof record.id === 'number' ? await pageHolding(db, businessId, resource, record.id) : undefined;
    if (!page) {
      unpaged.push(record);
      continue;
    }
    const key = `${page.after}|${page.last}`;
    const held = byPage.get(key) ?? { page, records: [] };
    held.records.push(record);
    byPage.set(key, held);
  }
  const ranges = await pageRanges(db, businessId, resource);
  const ids = await rowIds(db, businessId, resource);
  for (const { page, records: changed } of byPage.values()) {
    const merged = new Map(page.records.map((record) => [Number(record.id), { record, savedAt: page.savedAt }]));
    const inRange = ids.filter((id) => id > page.after && id <= page.last);
    const rows = await db.records.bulkGet(inRange.map((id) => `${businessId}|${resource}|${id}`));
    for (const row of rows) {
      if (!row || !belongsToWorkingSet(resource, row.record)) continue;
      const held = merged.get(Number(row.record.id));
      if (!held || isNewer(row, held)) merged.set(Number(row.record.id), row);
    }
    for (const record of changed) merged.set(Number(record.id), { record, savedAt });
    const all = [...merged.entries()].sort(([a], [b]) => a - b).map(([, copy]) => copy.record);
    await keepPage(db, { businessId, resource, after: page.after, last: page.last, records: all, savedAt }, ranges, inRange);
  }
  if (unpaged.length > 0) await db.records.bulkPut(unpaged.map((record) => keptRow(businessId, resource, record, savedAt)));
}

/** Takes records out of their pages (they left the working set). Inside a transaction over `pages` and `pageSummaries`. */
export async function removeFromPages(db: PagesDatabase, businessId: number, resource: string, ids: readonly number[]): Promise<void> {
  const byPage = new Map<string, { page: KeptPage; ids: Set<number> }>();
  for (const id of ids) {
    const page = await pageHolding(db, businessId, resource, id);
    if (!page) continue;
    const key = `${page.after}|${page.last}`;
    const held = byPage.get(key) ?? { page, ids: new Set<number>() };
    held.ids.add(id);
    byPage.set(key, held);
  }
  for (const { page, ids: gone } of byPage.values()) {
    const records = page.records.filter((record) => !gone.has(Number(record.id)));
    if (records.length !== page.records.length) await putPage(db, { ...page, records });
  }
}

/** Deletes every page of a resource kept for the business, and their summaries. */
export async function deletePages(db: PagesDatabase, businessId: number, resource: string): Promise<void> {
  await pagesOf(db.pages, businessId, resource).delete();
  await pagesOf(db.pageSummaries, businessId, resource).delete();
}

/**
 * Keeps in a resource's pages only the records `keep` says (the user's places changed): every page
 * read and those that lost records written again. Inside a transaction over `pages` and `pageSummaries`.
 */
export async function filterPages(
  db: PagesDatabase,
  businessId: number,
  resource: string,
  keep: (record: Row) => boolean,
  seen: (record: Row) => void = () => undefined,
): Promise<void> {
  for (const page of await pagesOf(db.pages, businessId, resource).toArray()) {
    for (const record of page.records) seen(record);
    const records = page.records.filter(keep);
    if (records.length !== page.records.length) await putPage(db, { ...page, records });
  }
}
