import type { ResourceDefinition } from '../../domain/resource';
import { isNewer, type KeptCopy } from './kept-records';
import type { KeptAnswer } from './kept-search';
import type { OfflineDatabase } from './offline-store';

/**
 * A page of a list in id order, with its total, read from the kept records (kept-records.ts)
 * without their index in memory (kept-index.ts): the list a screen opens on, asked for nothing but
 * its page. Making the index reads every kept record's value and lowercases its text — for
 * 10,000 items, the rows alone take ~170 ms to read on the benchmark's machine — while this reads
 * the pages (a few compressed values), the keys of the rows, the keys of the rows in the trash (an
 * index that lists only those, offline-schema.ts) and the values of the few rows the answer needs:
 * those of its page, and those whose copy decides whether a record is in the trash. The answer is
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
  db: Pick<OfflineDatabase, 'pages' | 'records' | 'transaction'>,
  businessId: number,
  definition: ResourceDefinition,
  params: Record<string, unknown>,
): Promise<KeptAnswer | null> {
  const asked = idOrderPage(params);
  if (!asked) return null;
  const resource = definition.name;
  const prefix = `${businessId}|${resource}|`;
  // One transaction: what the working set writes in one (a page with the rows it replaces) is read as a whole.
  return db.transaction('r', db.pages, db.records, async () => {
    const [pages, rowKeys, trashedKeys] = await Promise.all([
      db.pages
        .where('[businessId+resource+after+last]')
        .between([businessId, resource, -Infinity, -Infinity], [businessId, resource, Infinity, Infinity], true, true)
        .toArray(),
      db.records.where('[businessId+resource]').equals([businessId, resource]).primaryKeys(),
      // Every key is above -Infinity and below [[]] (IndexedDB orders numbers, dates, strings, then arrays).
      db.records
        .where(TRASHED_ROWS)
        .between([businessId, resource, -Infinity], [businessId, resource, [[]]], true, true)
        .primaryKeys(),
    ]);
    // Each page's copy by its record's id, in the order keptRecords reads them (a record two pages hold: the later).
    const paged = new Map<number | string, KeptCopy>();
    for (const page of pages) for (const record of page.records) paged.set(record.id as number | string, { record, savedAt: page.savedAt });
    const rowIds = new Set(rowKeys.map((key) => idOfKey(String(key).slice(prefix.length))));
    const inTrash = new Set(trashedKeys.map((key) => idOfKey(String(key).slice(prefix.length))));

    // The newer copy decides a record's trash: only a row in the trash, or a row beside a page's copy in it, needs reading.
    const read = new Map<number | string, Row>();
    const readRows = async (ids: (number | string)[]) => {
      const rows = await db.records.bulkGet(ids.map((id) => `${prefix}${String(id)}`));
      ids.forEach((id, at) => {
        const [row, copy] = [rows[at], paged.get(id)];
        const newest = row && copy ? (isNewer(row, copy) ? row : copy) : (row ?? copy);
        if (newest) read.set(id, newest.record);
      });
    };
    await readRows([...rowIds].filter((id) => inTrash.has(id) || trashed(paged.get(id)?.record)));

    // The records out of the trash: a row not read is in none (it holds no key in TRASHED_ROWS), nor is its page's copy.
    const numbers: number[] = [];
    const keys: string[] = [];
    const take = (id: number | string) => (typeof id === 'number' ? numbers.push(id) : keys.push(id));
    for (const [id, copy] of paged) if (!rowIds.has(id) && !trashed(copy.record)) take(id);
    for (const id of rowIds) if (!read.has(id) || !trashed(read.get(id))) take(id);
    // compareIds' order: numbers by value, then the device's keys.
    const current: (number | string)[] = [...Float64Array.from(numbers).sort(), ...keys.sort()];
    if (!asked.forwards) current.reverse();
    const first = (asked.page - 1) * asked.perPage;
    const shown = current.slice(first, first + asked.perPage);
    await readRows(shown.filter((id) => rowIds.has(id) && !read.has(id)));

    const rows: Row[] = [];
    for (const id of shown) {
      const record = read.get(id) ?? paged.get(id)?.record;
      // A row that is not what its key said (an id of another type, a trash the index could not list): the index answers.
      if (!record || record.id !== id || trashed(record)) return null;
      rows.push(record);
    }
    return { rows, total: current.length, page: asked.page, perPage: asked.perPage };
  });
}

/** Whether a record is in the trash, as kept-index.ts tells it. */
const trashed = (record: Readonly<Row> | undefined) => Boolean(record?.deleted_at);
