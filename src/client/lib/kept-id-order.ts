import type { ResourceDefinition } from '../../domain/resource';
import { isNewer, pageKey, pagesOf, trashed, type KeptCopy } from './kept-records';
import type { KeptAnswer } from './kept-search';
import type { KeptPageSummary, OfflineDatabase } from './offline-store';

/**
 * A page of a list in id order, with its total, read from the kept records (kept-records.ts)
 * without their index in memory (kept-index.ts): the list a screen opens on, asked for nothing but
 * its page. Making the index reads every kept record's value and lowercases its text — for
 * 10,000 items, the rows alone take ~170 ms to read on the benchmark's machine — while this reads
 * the pages' summaries (their ids, and those in the trash: `summaryOf`, kept-records.ts), the keys
 * of the rows, the keys of the rows in the trash (an index that lists only those,
 * offline-schema.ts) and the values of the few rows and pages the answer needs: those holding its
 * page, and those whose copy decides whether a record is in the trash. Reading every page instead
 * took ~65–150 ms of a cold start's ~1 s there, for 40 pages of 250. The answer is
 * the one the index gives (kept-search.ts `searchKept`): the same records, each the newer of its
 * copies (`isNewer`), the trash left out, in `compareIds` order, the same total; null for a list
 * it does not answer, or kept records it does not expect, which the index then answers.
 */

type Row = Record<string, unknown>;

/** The records table's index of rows by their record's `deleted_at`: a row holds a key there only while it is in the trash. */
export const TRASHED_ROWS = '[businessId+resource+record.deleted_at]';

const flag = (value: unknown) => value === 1 || value === '1' || value === true || value === 'true';

/** What a list in id order may ask (the list screen sends them all, at their defaults when unset). */
const ORDER_PARAMS = new Set(['page', 'per_page', 'limit', 'order_by', 'order_by_field_name', 'is_strict', 'with_trashed', 'only_trashed']);

/** The page asked for, as `searchKept` reads it; null for a list that asks anything else, or a page it cannot be. */
export function idOrderPage(params: Record<string, unknown>): { page: number; perPage: number; forwards: boolean } | null {
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (!ORDER_PARAMS.has(name)) return null;
  }
  if (flag(params.with_trashed) || flag(params.only_trashed)) return null;
  const field = params.order_by_field_name;
  if (field !== undefined && field !== null && field !== '' && field !== 'id') return null;
  const perPage = Number(params.limit ?? params.per_page ?? 15);
  const page = params.limit === undefined ? Math.max(1, Number(params.page ?? 1)) : 1;
  if (!Number.isSafeInteger(perPage) || perPage < 1 || !Number.isSafeInteger(page)) return null;
  return { page, perPage, forwards: params.order_by === 'asc' };
}

/** A row's id as its key names it (`keptRow`: `{businessId}|{resource}|{id}`): a server's id is a number. */
const idOfKey = (suffix: string): number | string => (/^(0|[1-9]\d{0,14})$/.test(suffix) ? Number(suffix) : suffix);

/**
 * The page of `definition`'s list in id order that `params` ask for (see above), from the records
 * kept for the business; null when the list asks more than its page (a search, a sort, the trash).
 */
export async function keptInIdOrder(
  db: Pick<OfflineDatabase, 'pages' | 'pageSummaries' | 'records' | 'transaction'>,
  businessId: number,
  definition: ResourceDefinition,
  params: Record<string, unknown>,
): Promise<KeptAnswer | null> {
  const asked = idOrderPage(params);
  if (!asked) return null;
  const resource = definition.name;
  const prefix = `${businessId}|${resource}|`;
  // One transaction: what the working set writes in one (a page, its summary, the rows it replaces) is read as a whole.
  return db.transaction('r', [db.pageSummaries, db.pages, db.records], async () => {
    const [summaries, rowKeys, trashedKeys] = await Promise.all([
      pagesOf(db.pageSummaries, businessId, resource).toArray(),
      // By the rows' own keys (`keptRow` makes them), not the [businessId+resource] index: for 10,000
      // rows that took 87–190 ms on the benchmark's machine, and this 63–94 (Chromium walks an
      // index with a look-up of each entry's row).
      db.records.where('key').startsWith(prefix).primaryKeys(),
      // Every key is above -Infinity and below [[]] (IndexedDB orders numbers, dates, strings, then arrays).
      db.records
        .where(TRASHED_ROWS)
        .between([businessId, resource, -Infinity], [businessId, resource, [[]]], true, true)
        .primaryKeys(),
    ]);
    // The page holding each record's copy, in the order keptRecords reads them (a record two pages hold: the later).
    const holder = new Map<number | string, KeptPageSummary>();
    for (const summary of summaries) for (const id of summary.ids) holder.set(id, summary);
    const pagedInTrash = new Set<number | string>();
    for (const summary of summaries) for (const id of summary.trashed) if (holder.get(id) === summary) pagedInTrash.add(id);
    const rowIds = new Set(rowKeys.map((key) => idOfKey(String(key).slice(prefix.length))));
    const inTrash = new Set(trashedKeys.map((key) => idOfKey(String(key).slice(prefix.length))));

    // The newer of each record's copies, read from its row and from the page holding it: only the few the answer needs.
    const read = new Map<number | string, Row>();
    const readCopies = async (ids: (number | string)[]) => {
      const withRows = ids.filter((id) => rowIds.has(id));
      const holders = [...new Set(ids.flatMap((id) => holder.get(id) ?? []))];
      const [rows, pages] = await Promise.all([
        db.records.bulkGet(withRows.map((id) => `${prefix}${String(id)}`)),
        db.pages.bulkGet(holders.map(pageKey)),
      ]);
      const wanted = new Set(ids);
      const copies = new Map<number | string, KeptCopy>();
      pages.forEach((page, at) => {
        for (const record of page?.records ?? []) {
          const id = record.id as number | string;
          if (wanted.has(id) && holder.get(id) === holders[at]) copies.set(id, { record, savedAt: page!.savedAt });
        }
      });
      rows.forEach((row, at) => {
        const copy = copies.get(withRows[at]);
        if (row && (!copy || isNewer(row, copy))) copies.set(withRows[at], row);
      });
      for (const [id, copy] of copies) read.set(id, copy.record);
    };
    await readCopies([...rowIds].filter((id) => inTrash.has(id) || pagedInTrash.has(id)));

    // The records out of the trash: a row not read is in none (it holds no key in TRASHED_ROWS), nor is its page's copy.
    const numbers: number[] = [];
    const keys: string[] = [];
    const take = (id: number | string) => (typeof id === 'number' ? numbers.push(id) : keys.push(id));
    for (const id of holder.keys()) if (!rowIds.has(id) && !pagedInTrash.has(id)) take(id);
    for (const id of rowIds) if (!read.has(id) || !trashed(read.get(id))) take(id);
    // compareIds' order: numbers by value, then the device's keys.
    const current: (number | string)[] = [...Float64Array.from(numbers).sort(), ...keys.sort()];
    if (!asked.forwards) current.reverse();
    const first = (asked.page - 1) * asked.perPage;
    const shown = current.slice(first, first + asked.perPage);
    await readCopies(shown.filter((id) => !read.has(id)));

    const rows: Row[] = [];
    for (const id of shown) {
      const record = read.get(id);
      // A row or page that is not what its key or summary said (an id of another type, a trash the index could not list): the index answers.
      if (!record || record.id !== id || trashed(record)) return null;
      rows.push(record);
    }
    return { rows, total: current.length, page: asked.page, perPage: asked.perPage };
  });
}
