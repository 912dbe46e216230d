import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  allKept,
  keepPage,
  keptRecord,
  keptRow,
  mergeIntoPages,
  PAGE_ROWS,
  pageRanges,
  removeFromPages,
  type PageRange,
} from './kept-records';
import { offlineDatabase, openOfflineStore, type OfflineDatabase } from './offline-store';

/**
 * The records kept in pages and rows (kept-records.ts) against an in-memory IndexedDB: a page
 * replacing what was kept in its range, pages of an earlier download cut where a new one reaches,
 * rows made stale by a page, the newer copy read, and records leaving their pages.
 */

type Row = Record<string, unknown>;

const BUSINESS = 4;
const item = (id: number, version = 1, name = `Item ${id}`): Row => ({ id, name, version, deleted_at: null });
const invoice = (id: number, status: string, version = 1): Row => ({ id, status, version, branch_id: 1, deleted_at: null });
const ids = (records: Row[]) => records.map((record) => Number(record.id)).sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, at) => from + at);
/** The items `from` to `to`, each at its first version. */
const items = (from: number, to: number) => range(from, to).map((id) => item(id));

let db: OfflineDatabase;
let nextUser = 5000;

beforeEach(async () => {
  vi.stubGlobal('navigator', { onLine: true });
  openOfflineStore(nextUser++);
  db = (await offlineDatabase())!;
});

afterEach(() => vi.unstubAllGlobals());

/** Keeps a page as the first download does: in a transaction, with the resource's ranges and rows as they stand. */
async function keep(resource: string, after: number, last: number, records: Row[], savedAt = Date.now()): Promise<PageRange[]> {
  const ranges = await pageRanges(db, BUSINESS, resource);
  const rowIds = (await db.records.where('[businessId+resource]').equals([BUSINESS, resource]).toArray()).map((row) =>
    Number(row.record.id),
  );
  await db.transaction('rw', [db.pages, db.pageSummaries, db.records], () =>
    keepPage(db, { businessId: BUSINESS, resource, after, last, records, savedAt }, ranges, rowIds),
  );
  return ranges;
}

describe('pages', () => {
  it('keeps a page a few hundred records to a row, each row reaching up to its last record, the last to the page’s end', async () => {
    const ranges = await keep('items', 0, 1000, items(1, 600));
    expect(ranges).toEqual([
      { after: 0, last: PAGE_ROWS },
      { after: PAGE_ROWS, last: 2 * PAGE_ROWS },
      { after: 2 * PAGE_ROWS, last: 1000 },
    ]);
    expect(await pageRanges(db, BUSINESS, 'items')).toEqual(ranges);
    expect(ids(await allKept(db, BUSINESS, 'items'))).toEqual(range(1, 600));
    expect((await keptRecord(db, BUSINESS, 'items', 420))?.record).toEqual(item(420));
    expect(await keptRecord(db, BUSINESS, 'items', 700)).toBeUndefined();
    expect(await keptRecord(db, BUSINESS, 'items', 1001)).toBeUndefined();
  });

  it('replaces what an earlier download kept in its range, keeping what lies outside it', async () => {
    await keep('items', 0, Infinity, items(1, 300));
    // A download again, its pages cut elsewhere: 101 to 200 are now one page, and 150 has gone.
    const ranges = await keep(
      'items',
      100,
      200,
      range(101, 200)
        .filter((id) => id !== 150)
        .map((id) => item(id, 2)),
    );
    // The first row (1 to 250) was cut in three; the second (251 on) lies outside.
    expect(ranges).toEqual([
      { after: 0, last: 100 },
      { after: 100, last: 200 },
      { after: 200, last: 250 },
      { after: 250, last: Infinity },
    ]);
    expect(await pageRanges(db, BUSINESS, 'items')).toEqual(ranges);
    const all = await allKept(db, BUSINESS, 'items');
    expect(ids(all)).toEqual(range(1, 300).filter((id) => id !== 150));
    expect(all.find((record) => record.id === 120)).toMatchObject({ version: 2 });
    expect(all.find((record) => record.id === 99)).toMatchObject({ version: 1 });
    expect(all.find((record) => record.id === 250)).toMatchObject({ version: 1 });
  });

  it('takes out the rows it makes stale, keeps those newer than it and a closed document someone opened', async () => {
    const saved = Date.now() - 1000;
    await db.records.bulkPut([
      keptRow(BUSINESS, 'invoices', invoice(2, 'unpaid', 1), saved),
      keptRow(BUSINESS, 'invoices', invoice(3, 'unpaid', 5), saved),
      keptRow(BUSINESS, 'invoices', invoice(4, 'unpaid', 1), saved),
      keptRow(BUSINESS, 'invoices', invoice(5, 'paid', 3), saved),
      keptRow(BUSINESS, 'invoices', invoice(50, 'unpaid', 1), saved),
    ]);
    // The page brings 2 at version 2 and 3 at version 4; 4 has left the working set; 5 was never in it; 50 lies beyond it.
    await keep('invoices', 0, 10, [invoice(2, 'unpaid', 2), invoice(3, 'unpaid', 4)]);
    const rows = await db.records.where('[businessId+resource]').equals([BUSINESS, 'invoices']).toArray();
    expect(ids(rows.map((row) => row.record))).toEqual([3, 5, 50]);
    expect((await keptRecord(db, BUSINESS, 'invoices', 2))?.record).toMatchObject({ version: 2 });
    expect((await keptRecord(db, BUSINESS, 'invoices', 3))?.record).toMatchObject({ version: 5 });
    expect(await keptRecord(db, BUSINESS, 'invoices', 4)).toBeUndefined();
    expect(ids(await allKept(db, BUSINESS, 'invoices'))).toEqual([2, 3, 5, 50]);
  });

  it('reads the newer copy of a record held in a page and a row: by version, then by when it was saved', async () => {
    const paged = 1_000_000;
    await keep('items', 0, Infinity, [item(1, 3), item(2, 3), item(3, 3)], paged);
    await db.records.bulkPut([
      keptRow(BUSINESS, 'items', item(1, 4, 'Renamed'), paged - 10),
      keptRow(BUSINESS, 'items', item(2, 2, 'Older'), paged + 10),
      keptRow(BUSINESS, 'items', item(3, 3, 'Same version, saved later'), paged + 10),
    ]);
    expect((await keptRecord(db, BUSINESS, 'items', 1))?.record.name).toBe('Renamed');
    expect((await keptRecord(db, BUSINESS, 'items', 2))?.record.name).toBe('Item 2');
    expect((await keptRecord(db, BUSINESS, 'items', 3))?.record.name).toBe('Same version, saved later');
    const names = (await allKept(db, BUSINESS, 'items')).map((record) => record.name);
    expect(names).toEqual(['Renamed', 'Item 2', 'Same version, saved later']);
  });

  it('takes records out of their pages, only those', async () => {
    await keep('items', 0, Infinity, items(1, 600));
    await db.transaction('rw', [db.pages, db.pageSummaries], () => removeFromPages(db, BUSINESS, 'items', [3, 300, 599, 9999]));
    expect(ids(await allKept(db, BUSINESS, 'items'))).toEqual(range(1, 600).filter((id) => ![3, 300, 599].includes(id)));
    expect(await keptRecord(db, BUSINESS, 'items', 300)).toBeUndefined();
    expect(await keptRecord(db, BUSINESS, 'items', 301)).toBeDefined();
  });

  it('merges many changed records into their pages, with the rows of those pages, splitting a page that grew', async () => {
    await keep('items', 0, Infinity, items(1, 300), 1000);
    // A record added by a small change before (a row of its own), and a row older than its page.
    await db.records.bulkPut([keptRow(BUSINESS, 'items', item(301, 1, 'Added'), 2000), keptRow(BUSINESS, 'items', item(5, 0, 'Old'), 500)]);
    const changed = [...range(1, 100).map((id) => item(id, 2, 'Changed')), ...items(302, 600)];
    await db.transaction('rw', [db.pages, db.pageSummaries, db.records], () => mergeIntoPages(db, BUSINESS, 'items', changed, 3000));

    const all = await allKept(db, BUSINESS, 'items');
    expect(ids(all)).toEqual(range(1, 600));
    expect(all.filter((record) => record.name === 'Changed')).toHaveLength(100);
    expect(all.find((record) => record.id === 301)).toMatchObject({ name: 'Added' });
    expect(all.find((record) => record.id === 5)).toMatchObject({ name: 'Changed', version: 2 });
    // Every row of the working set went into the pages; the grown last page was split.
    expect(await db.records.count()).toBe(0);
    const ranges = await pageRanges(db, BUSINESS, 'items');
    expect(ranges[0]).toEqual({ after: 0, last: 250 });
    expect(ranges.at(-1)?.last).toBe(Infinity);
    for (const page of await db.pages.toArray()) expect(page.records.length).toBeLessThanOrEqual(PAGE_ROWS);
  });
});
