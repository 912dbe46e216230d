import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../domain/resources/registry';
import { keptInIdOrder } from './kept-id-order';
import { keptIndex, madeKeptIndex } from './kept-index';
import {
  allKept,
  deletePages,
  filterPages,
  keepPage,
  keptRow,
  mergeIntoPages,
  pageRanges,
  removeFromPages,
  summaryOf,
} from './kept-records';
import { searchKept } from './kept-search';
import {
  offlineDatabase,
  offlineDatabaseNameOf,
  openOfflineStore,
  recordsChanged,
  saveAnswer,
  syncStateChanged,
  type OfflineDatabase,
} from './offline-store';
import { listQuery } from './resource-queries';
import { randomSequence } from '../../../tests/support/random-sequence';

/**
 * The page of a list in id order read from the kept records without their index
 * (kept-id-order.ts): the same answer as the index (kept-index.ts, by kept-search.ts) gives —
 * the same rows, order and total — whatever the pages and rows hold: a row newer or older than
 * its page's copy, either in the trash, rows no page holds, records of another business or
 * resource, and after the records change. It finds the records by the pages' summaries, so after
 * every kind of page write each summary is checked to say what its page holds.
 */

type Row = Record<string, unknown>;

const BUSINESS = 4;
const OTHER_BUSINESS = 5;
const items = getResource('items');
const TRASHED = '2026-11-01T00:00:00Z';
const item = (id: number | string, version = 1, deleted_at: string | null = null, name = `Item ${id}`): Row => ({
  id,
  sku: `SKU-${id}`,
  name,
  version,
  deleted_at,
});

let db: OfflineDatabase;
let nextUser = 9000;

beforeEach(async () => {
  vi.stubGlobal('navigator', { onLine: true });
  openOfflineStore(nextUser++);
  db = (await offlineDatabase())!;
});

afterEach(() => vi.unstubAllGlobals());

/** Keeps a page as the working set's download does, with the rows as they stand. */
async function keep(businessId: number, resource: string, records: Row[], savedAt: number, after = 0, last = Infinity): Promise<void> {
  const ranges = await pageRanges(db, businessId, resource);
  const rowIds = (await db.records.where('[businessId+resource]').equals([businessId, resource]).toArray()).map((row) =>
    Number(row.record.id),
  );
  await db.transaction('rw', [db.pages, db.pageSummaries, db.records], () =>
    keepPage(db, { businessId, resource, after, last, records, savedAt }, ranges, rowIds),
  );
}

const putRows = (businessId: number, resource: string, records: Row[], savedAt: number) =>
  db.records.bulkPut(records.map((record) => keptRow(businessId, resource, record, savedAt)));

/** The lists a screen asks in id order: as the list screen sends them (every flag at 0), a picker's, and bare. */
function idOrderQueries(total: number): Row[] {
  const queries: Row[] = [{}, { order_by: 'asc' }, { limit: 15 }, { limit: 100, order_by: 'asc' }, { page: 2, per_page: 25 }];
  for (const per_page of [15, 100]) {
    for (const order_by of ['desc', 'asc']) {
      for (let page = 1; page <= Math.ceil(total / per_page) + 1; page += 1) {
        queries.push({ page, per_page, order_by, order_by_field_name: 'id', with_trashed: 0, only_trashed: 0, is_strict: 0 });
      }
    }
  }
  return queries;
}

/** Every page has its summary, saying what it holds, and there is no summary of a page not kept. */
async function expectSummariesOfPages(): Promise<void> {
  const [pages, summaries] = await Promise.all([db.pages.toArray(), db.pageSummaries.toArray()]);
  expect(summaries).toEqual(pages.map(summaryOf));
}

/** Every query's answer read without the index is the index's, and reading every record's. */
async function expectSameAnswers(businessId = BUSINESS): Promise<void> {
  await expectSummariesOfPages();
  const kept = await allKept(db, businessId, 'items');
  const index = (await keptIndex(businessId, items))!;
  const expected = searchKept(items, { per_page: 100 }, kept).total;
  for (const params of idOrderQueries(expected)) {
    const answer = await keptInIdOrder(db, businessId, items, params);
    expect(answer, JSON.stringify(params)).toEqual(searchKept(items, params, kept));
    expect(answer, JSON.stringify(params)).toEqual(searchKept(items, params, index));
  }
}

describe('a list in id order read without the index', () => {
  it('answers as the index does, whatever the pages and the rows beside them hold', async () => {
    const random = randomSequence(33);
    // The working set's pages: items 1 to 900 but a few, some of their copies in the trash.
    const paged = Array.from({ length: 900 }, (_, at) => at + 1)
      .filter(() => random() > 0.05)
      .map((id) => item(id, 2, random() < 0.05 ? TRASHED : null));
    await keep(BUSINESS, 'items', paged, 1000);
    // Rows beside them: newer and older copies, in the trash or out of it, records no page holds (some made on this device).
    const rows: [Row, number][] = [];
    for (let id = 1; id <= 1000; id += 1) {
      if (random() > 0.3) continue;
      const version = 1 + Math.floor(random() * 3);
      rows.push([item(id, version, random() < 0.2 ? TRASHED : null, `Row ${id}`), random() < 0.5 ? 900 : 1100]);
    }
    rows.push([item('client-b', 1), 1200], [item('client-a', 1, TRASHED), 1200], [item('client-c', 1), 1200]);
    for (const [record, savedAt] of rows) await putRows(BUSINESS, 'items', [record], savedAt);
    // Another business's items and the same business's brands, by the same ids.
    await keep(OTHER_BUSINESS, 'items', [item(5000), item(5001)], 1000);
    await putRows(OTHER_BUSINESS, 'items', [item(5002, 1, TRASHED)], 1000);
    await keep(BUSINESS, 'brands', [item(950), item(951)], 1000);
    await putRows(BUSINESS, 'brands', [item(990)], 1000);

    await expectSameAnswers();
    await expectSameAnswers(OTHER_BUSINESS);
    expect((await keptInIdOrder(db, OTHER_BUSINESS, items, {}))!.total).toBe(2);
    // The device's own records come first, newest first, as the index orders them (the one in the trash left out).
    const first = (await keptInIdOrder(db, BUSINESS, items, { per_page: 3 }))!.rows.map((row) => row.id);
    expect(first).toEqual(['client-c', 'client-b', expect.any(Number)]);
  });

  it('answers as the index does after records change: put, trashed, restored, removed, merged into their pages', async () => {
    await keep(
      BUSINESS,
      'items',
      Array.from({ length: 600 }, (_, at) => item(at + 1)),
      1000,
    );
    await expectSameAnswers();
    // A list saved online brings newer copies, one in the trash; the index hears of them.
    await saveAnswer(`${BUSINESS}|items|list|?with_trashed=1`, BUSINESS, 'items', {}, [item(600, 2, TRASHED), item(599, 2), item(650, 1)]);
    await expectSameAnswers();
    expect((await keptInIdOrder(db, BUSINESS, items, { per_page: 2 }))!.rows.map((row) => row.id)).toEqual([650, 599]);
    // Restored, then removed from its page, then many changed at once.
    await saveAnswer(`${BUSINESS}|items|record|600`, BUSINESS, 'items', {}, [item(600, 3)]);
    await expectSameAnswers();
    await db.transaction('rw', [db.pages, db.pageSummaries, db.records], async () => {
      await db.records.bulkDelete([`${BUSINESS}|items|598`]);
      await removeFromPages(db, BUSINESS, 'items', [598, 1]);
    });
    await db.transaction('rw', [db.pages, db.pageSummaries, db.records], () =>
      mergeIntoPages(
        db,
        BUSINESS,
        'items',
        Array.from({ length: 300 }, (_, at) => item(at + 2, 3, at % 50 === 0 ? TRASHED : null)),
        2000,
      ),
    );
    // (Changes told as 'all' are read again by the index.)
    const kept = await allKept(db, BUSINESS, 'items');
    expect(kept.some((record) => record.id === 598)).toBe(false);
    const fresh = searchKept(items, {}, kept);
    expect(await keptInIdOrder(db, BUSINESS, items, {})).toEqual(fresh);
    expect(await keptInIdOrder(db, BUSINESS, items, { page: 40, per_page: 15 })).toEqual(
      searchKept(items, { page: 40, per_page: 15 }, kept),
    );
  });

  it('answers an empty list of a resource that keeps nothing', async () => {
    expect(await keptInIdOrder(db, BUSINESS, items, {})).toEqual({ rows: [], total: 0, page: 1, perPage: 15 });
  });

  it('leaves to the index a list that asks more than a page in id order', async () => {
    await keep(BUSINESS, 'items', [item(1), item(2)], 1000);
    for (const params of [
      { name: 'item' },
      { q: 'item' },
      { order_by_field_name: 'name' },
      { with_trashed: 1 },
      { only_trashed: '1' },
      { per_page: 'all' },
      { status: 'open' },
    ]) {
      expect(await keptInIdOrder(db, BUSINESS, items, params), JSON.stringify(params)).toBeNull();
    }
  });
});

describe('the pages’ summaries', () => {
  // Each write told as the working set tells it ('all'), so the index reads the records again.
  const write = async (work: () => Promise<unknown>) => {
    await db.transaction('rw', [db.pages, db.pageSummaries, db.records], work);
    recordsChanged(BUSINESS, null, 'all');
  };
  const download = async (...page: Parameters<typeof keep>) => {
    await keep(...page);
    recordsChanged(BUSINESS, null, 'all');
  };

  it('say what each page holds after every kind of page write, and the answers stay the index’s', async () => {
    const random = randomSequence(7);
    const version = (id: number) => item(id, 1, random() < 0.1 ? TRASHED : null);
    // A first download, then a second whose pages cut the first's where they overlap, one range sent empty.
    await download(
      BUSINESS,
      'items',
      Array.from({ length: 700 }, (_, at) => version(at + 1)),
      1000,
    );
    await expectSameAnswers();
    await download(
      BUSINESS,
      'items',
      Array.from({ length: 200 }, (_, at) => version(at * 2 + 101)),
      1100,
      100,
      500,
    );
    await expectSameAnswers();
    await download(BUSINESS, 'items', [], 1200, 520, 560);
    expect((await allKept(db, BUSINESS, 'items')).some((record) => Number(record.id) > 520 && Number(record.id) <= 560)).toBe(false);
    await expectSameAnswers();
    // Many changed at once, merged into their pages, some now in the trash and some out of it.
    await write(() =>
      mergeIntoPages(
        db,
        BUSINESS,
        'items',
        Array.from({ length: 400 }, (_, at) => item(at + 150, 2, at % 7 === 0 ? TRASHED : null)),
        1300,
      ),
    );
    await expectSameAnswers();
    // Records taken out of their pages, a whole page's worth among them.
    await write(() =>
      removeFromPages(
        db,
        BUSINESS,
        'items',
        Array.from({ length: 300 }, (_, at) => at + 1),
      ),
    );
    await expectSameAnswers();
    // Kept only where the user's places say (kept-places.ts), then a resource's pages deleted.
    await write(() => filterPages(db, BUSINESS, 'items', (record) => Number(record.id) % 3 !== 0));
    await expectSameAnswers();
    await download(BUSINESS, 'brands', [item(1), item(2, 1, TRASHED)], 1000);
    await expectSummariesOfPages();
    await write(() => deletePages(db, BUSINESS, 'items'));
    await expectSameAnswers();
    expect((await db.pageSummaries.toArray()).map((summary) => summary.resource)).toEqual(['brands']);
  });

  it('are made from the pages a store kept before them, which stay', async () => {
    const user = nextUser++;
    // The store as version 8 left it (offline-schema.ts): pages of two resources, some records in the trash.
    const before = new Dexie(offlineDatabaseNameOf(user));
    before.version(8).stores({
      answers: 'key, [businessId+resource]',
      records: 'key, [businessId+resource], [businessId+resource+record.deleted_at]',
      outbox: '++seq, &key, target',
      synced: 'key',
      places: 'businessId',
      syncState: 'businessId',
      pages: '[businessId+resource+after+last]',
      numberBlocks: 'id, businessId',
      drafts: 'key, businessId',
    });
    const pages = [
      { businessId: BUSINESS, resource: 'items', after: 0, last: 3, records: [item(1), item(2, 1, TRASHED), item(3)], savedAt: 1000 },
      { businessId: BUSINESS, resource: 'items', after: 3, last: Infinity, records: [item(4), item(9)], savedAt: 1000 },
      { businessId: BUSINESS, resource: 'brands', after: 0, last: Infinity, records: [item(1)], savedAt: 1000 },
    ];
    await before.table('pages').bulkPut(pages);
    await before.table('records').bulkPut([keptRow(BUSINESS, 'items', item(3, 2, TRASHED), 1100)]);
    before.close();

    openOfflineStore(user);
    db = (await offlineDatabase())!;
    // In key order: brands before items.
    expect(await db.pages.toArray()).toEqual([pages[2], pages[0], pages[1]]);
    await expectSummariesOfPages();
    expect(await db.pageSummaries.get([BUSINESS, 'items', 0, 3])).toEqual({
      businessId: BUSINESS,
      resource: 'items',
      after: 0,
      last: 3,
      ids: [1, 2, 3],
      trashed: [2],
    });
    expect(await keptInIdOrder(db, BUSINESS, items, {})).toEqual({ rows: [item(9), item(4), item(1)], total: 3, page: 1, perPage: 15 });
    await expectSameAnswers();
  });
});

describe('the index of the rows in the trash', () => {
  it('is made from the rows a store kept before it, which stay', async () => {
    const user = nextUser++;
    // The store as version 7 left it (offline-schema.ts): a row in the trash, one out of it.
    const before = new Dexie(offlineDatabaseNameOf(user));
    before.version(1).stores({ answers: 'key, [businessId+resource]', records: 'key, [businessId+resource]' });
    before.version(7).stores({ outbox: '++seq, &key, target', synced: 'key', places: 'businessId', syncState: 'businessId' });
    before.version(7).stores({ pages: '[businessId+resource+after+last]', numberBlocks: 'id, businessId', drafts: 'key, businessId' });
    await before
      .table('records')
      .bulkPut([keptRow(BUSINESS, 'items', item(1, 1, TRASHED), 1000), keptRow(BUSINESS, 'items', item(2), 1000)]);
    before.close();

    openOfflineStore(user);
    db = (await offlineDatabase())!;
    expect(await db.records.count()).toBe(2);
    expect(
      await db.records
        .where('[businessId+resource+record.deleted_at]')
        .between([BUSINESS, 'items', -Infinity], [BUSINESS, 'items', [[]]])
        .primaryKeys(),
    ).toEqual([`${BUSINESS}|items|1`]);
    expect(await keptInIdOrder(db, BUSINESS, items, {})).toEqual({ rows: [item(2)], total: 1, page: 1, perPage: 15 });
  });
});

describe('the list a screen opens on, offline', () => {
  it('is read from the kept records before their index is made, which is made after', async () => {
    await keep(
      BUSINESS,
      'items',
      Array.from({ length: 40 }, (_, at) => item(at + 1)),
      1000,
    );
    await putRows(BUSINESS, 'items', [item(41, 1), item(40, 2, TRASHED)], 1100);
    await db.syncState.put({
      businessId: BUSINESS,
      epochCursor: null,
      phase: 'ready',
      pending: [],
      resources: ['items'],
      placesFingerprint: null,
      syncedAt: 1234,
      startedAt: 1000,
      totals: {},
      done: 0,
    });
    syncStateChanged(BUSINESS);
    vi.stubGlobal('navigator', { onLine: false });
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
    const params = { page: 1, per_page: 15, order_by: 'desc', order_by_field_name: 'id', with_trashed: 0, only_trashed: 0, is_strict: 0 };
    const options = listQuery(BUSINESS, items, params);
    const answered = await options.queryFn!({ queryKey: options.queryKey, signal: new AbortController().signal, meta: undefined } as never);
    expect(madeKeptIndex(BUSINESS, items)).toBe(false);
    expect(answered.data.map((row) => row.id)).toEqual([41, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26]);
    expect(answered.meta.total).toBe(40);
    expect(answered.savedOffline).toBe(1234);
    // Made once the page is idle; then the index answers, the same.
    expect(idle).toHaveLength(1);
    idle[0]();
    const index = (await keptIndex(BUSINESS, items))!;
    expect(madeKeptIndex(BUSINESS, items)).toBe(true);
    const again = await options.queryFn!({ queryKey: options.queryKey, signal: new AbortController().signal, meta: undefined } as never);
    expect(again).toEqual(answered);
    expect(searchKept(items, params, index).rows).toEqual(answered.data);
  });
});
