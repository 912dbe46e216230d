import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../domain/resources/registry';
import { keptIndex } from './kept-index';
import { allKept } from './kept-records';
import {
  followUserPlaces,
  keptWhole,
  offlineDatabase,
  offlineDatabaseName,
  onRecordsChanged,
  openOfflineStore,
  saveAnswer,
  type OfflineDatabase,
} from './offline-store';
import { listQuery } from './resource-queries';
import { NO_ROOM, startWorkingSet, stopWorkingSet, subscribeToWorkingSet, syncNow, workingSetIdle, workingSetStatus } from './working-set';
import { PAGE_SIZE } from './working-set-download';

/**
 * The working set on the device (working-set.ts) against an in-memory IndexedDB and a stand-in
 * for the server's sync routes: the first download and its resumption, the change log's answers,
 * a download again, the user's permissions and places, storage refused, and the event stream.
 */

type Row = Record<string, unknown>;

const BUSINESS = 1;
const item = (id: number, name = `Item ${id}`): Row => ({
  id,
  sku: `SKU-${id}`,
  barcode: `480${String(id).padStart(10, '0')}`,
  name,
  version: 1,
  deleted_at: null,
});
const invoice = (id: number, status: string): Row => ({ id, number: `INV-${id}`, status, branch_id: 1, version: 1, deleted_at: null });

interface Delta {
  reset?: boolean;
  cursor?: string | null;
  more?: boolean;
  changed?: Record<string, Row[]>;
  removed?: Record<string, number[]>;
}

/** What the stand-in server holds and answers. */
let server: {
  /** The user's working set, by resource, in id order; the manifest names these resources. */
  data: Record<string, Row[]>;
  cursor: string;
  deltas: Delta[];
  /** Answers a request instead of the routes (a failure), when it returns one. */
  refuse: (path: string, query: URLSearchParams) => Response | Promise<Response> | undefined;
  /** The event stream's answer; 404 unless a test opens one. */
  events: () => Response;
};
let requests: string[];
const queryClient = new QueryClient();
const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
const invalidatedKeys = () => invalidated.mock.calls.map(([filters]) => filters?.queryKey);
let nextUser = 900;
const PLACES = { all: null, data: [{ type: 'branch', id: 3, code: 'MKT', name: 'Makati', level: 'operate' }] };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));

function answer(path: string, query: URLSearchParams): Response | Promise<Response> {
  const refused = server.refuse(path, query);
  if (refused) return refused;
  if (path === '/api/sync') {
    const resources = Object.entries(server.data).map(([name, rows]) => ({ name, total: rows.length }));
    return json(200, { data: { cursor: server.cursor, resources } });
  }
  const records = /^\/api\/sync\/records\/(.+)$/.exec(path);
  if (records) {
    const rows = server.data[records[1]];
    if (!rows) return json(404, { message: 'Not found.' });
    const [after, limit] = [Number(query.get('after')), Number(query.get('limit'))];
    const page = rows.filter((row) => Number(row.id) > after).slice(0, limit);
    return json(200, { data: page, next: page.length < limit ? null : page[page.length - 1].id });
  }
  if (path === '/api/sync/changes') {
    const delta = server.deltas.shift() ?? {};
    return json(200, {
      data: {
        reset: delta.reset ?? false,
        cursor: delta.reset ? null : (delta.cursor ?? query.get('cursor')),
        more: delta.more ?? false,
        changed: delta.changed ?? {},
        removed: delta.removed ?? {},
      },
    });
  }
  if (path === '/api/sync/events') return server.events();
  if (path === '/api/places') return json(200, PLACES);
  return json(404, { message: 'Not found.' });
}

beforeEach(() => {
  vi.stubGlobal('navigator', { onLine: true });
  requests = [];
  invalidated.mockClear();
  server = {
    data: {
      items: Array.from({ length: 2500 }, (_, at) => item(at + 1)),
      brands: [{ id: 1, name: 'Alaska', version: 1, deleted_at: null }],
    },
    cursor: 'epoch.0.10',
    deltas: [],
    refuse: () => undefined,
    events: () => json(404, { message: 'Not found.' }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const [path, search] = url.split('?');
      const query = new URLSearchParams(search ?? '');
      requests.push(`${String(init.method ?? 'GET')} ${url}`);
      expect((init.headers as Record<string, string>)['Business-ID']).toBe(String(BUSINESS));
      return answer(path, query);
    }),
  );
});

afterEach(() => {
  stopWorkingSet();
  vi.unstubAllGlobals();
});

/** A fresh user's store, and their working set started on it. */
async function started(): Promise<OfflineDatabase> {
  openOfflineStore(nextUser++);
  const db = await offlineDatabase()!;
  startWorkingSet(queryClient, { businessId: () => BUSINESS });
  await workingSetIdle();
  return db;
}

/** Every record kept of a resource: its pages' and its rows'. */
const kept = (db: OfflineDatabase, resource: string) => allKept(db, BUSINESS, resource);
const keptIds = async (db: OfflineDatabase, resource: string) =>
  (await kept(db, resource)).map((record) => Number(record.id)).sort((a, b) => a - b);
const asked = (prefix: string) => requests.filter((request) => request.startsWith(`GET ${prefix}`));

/** Waits for what the engine does without being awaited (the event stream's pulls). */
async function until(holds: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    if (await holds()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Still waiting for ${what}.`);
}

describe('the first download', () => {
  it('keeps each page as it comes, and resumes where a dropped connection stopped it', async () => {
    let dropped = false;
    server.refuse = (path, query) => {
      if (path === '/api/sync/records/items' && query.get('after') === '1000' && !dropped) {
        dropped = true;
        return unreachable();
      }
      return undefined;
    };
    const db = await started();

    // The cursor was kept before the first page, and what is left of the download with it.
    expect(await db.syncState.get(BUSINESS)).toMatchObject({
      epochCursor: 'epoch.0.10',
      phase: 'downloading',
      pending: [
        { resource: 'items', after: 1000 },
        { resource: 'brands', after: 0 },
      ],
      resources: ['items', 'brands'],
    });
    expect(await keptIds(db, 'items')).toHaveLength(PAGE_SIZE);
    expect(workingSetStatus()).toMatchObject({
      phase: 'downloading',
      online: false,
      live: false,
      progress: { resource: 'items', label: 'items', done: 1000, total: 2501 },
    });
    expect(workingSetStatus().offlineSince).toEqual(expect.any(Number));
    // Not whole yet: an offline list still reads what was saved of it.
    expect(await keptWhole(BUSINESS, 'items')).toBeNull();

    syncNow();
    await workingSetIdle();
    expect(asked('/api/sync/records/items')).toEqual([
      'GET /api/sync/records/items?after=0&limit=1000',
      'GET /api/sync/records/items?after=1000&limit=1000',
      'GET /api/sync/records/items?after=1000&limit=1000',
      'GET /api/sync/records/items?after=2000&limit=1000',
    ]);
    expect(requests.filter((request) => request === 'GET /api/sync')).toHaveLength(1);
    expect(await keptIds(db, 'items')).toEqual(server.data.items.map((row) => row.id));
    expect(await kept(db, 'brands')).toEqual(server.data.brands);
    // The places with the user's level, for a form opened offline for the first time.
    expect((await db.answers.get(`${BUSINESS}|places`))?.body).toEqual(PLACES);
    // Then it followed the log from the manifest's cursor.
    expect(asked('/api/sync/changes')).toEqual(['GET /api/sync/changes?cursor=epoch.0.10']);
    const status = workingSetStatus();
    expect(status).toMatchObject({ phase: 'following', online: true, offlineSince: null, progress: null, problem: null });
    expect(await keptWhole(BUSINESS, 'items')).toEqual({ syncedAt: status.syncedAt });
    expect(await db.syncState.get(BUSINESS)).toMatchObject({ phase: 'ready', pending: [], done: 2501 });
  });

  it('answers an offline list of a resource kept whole from the kept records, not from a list saved before', async () => {
    const db = await started();
    const items = getResource('items');
    const params = { name: 'item 25', per_page: 15 };
    // A list saved before the working set came, with an older name of item 25.
    await saveAnswer(`${BUSINESS}|items|list|?name=item+25&per_page=15`, BUSINESS, 'items', { data: [item(25, 'Item 25 (old)')] }, []);
    vi.stubGlobal('navigator', { onLine: false });
    const options = listQuery(BUSINESS, items, params);
    const answered = await options.queryFn!({ queryKey: options.queryKey, signal: new AbortController().signal, meta: undefined } as never);
    // "Item 2500", "Item 259" … "Item 250", "Item 25": newest first, as the list asks.
    expect(answered.data.map((row) => row.id)).toEqual([2500, 259, 258, 257, 256, 255, 254, 253, 252, 251, 250, 25]);
    expect(answered.data.at(-1)).toEqual(item(25));
    expect(answered.meta.total).toBe(12);
    expect(answered.savedOffline).toBe((await db.syncState.get(BUSINESS))!.syncedAt);
    // A scan finds an item never opened on this device.
    const scan = listQuery(BUSINESS, items, { barcode: '4800000001234', is_strict: 1, limit: 1 });
    const found = await scan.queryFn!({ queryKey: scan.queryKey, signal: new AbortController().signal, meta: undefined } as never);
    expect(found.data).toEqual([item(1234)]);
    expect(requests.filter((request) => request.startsWith('GET /api/items'))).toEqual([]);

    // A list the working set does not hold whole (the trash) still reads the list saved of it.
    await saveAnswer(`${BUSINESS}|items|list|?only_trashed=1`, BUSINESS, 'items', { data: [item(9, 'Trashed')], meta: {} }, []);
    const trash = listQuery(BUSINESS, items, { only_trashed: 1 });
    const trashed = await trash.queryFn!({ queryKey: trash.queryKey, signal: new AbortController().signal, meta: undefined } as never);
    expect(trashed.data).toEqual([item(9, 'Trashed')]);
  });
  it('tells the page once a resource is kept whole, not after each of its pages, and its progress at most once a second', async () => {
    server.data.items = Array.from({ length: 5 * PAGE_SIZE }, (_, at) => item(at + 1));
    const told: string[] = [];
    const stop = onRecordsChanged(({ businessId, resource, change }) => {
      // (Of the resources it downloads: those it drops as it begins are told too.)
      if (businessId === BUSINESS && change === 'all' && resource !== null && resource in server.data) told.push(resource);
    });
    const shown: number[] = [];
    // The clock stands still: every page after the first comes within the second.
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 27, 2));
    const unwatch = subscribeToWorkingSet(() => {
      const progress = workingSetStatus().progress;
      if (progress && shown.at(-1) !== progress.done) shown.push(progress.done);
    });
    try {
      const db = await started();
      expect(await keptIds(db, 'items')).toHaveLength(5 * PAGE_SIZE);
      expect(told).toEqual(['items', 'brands']);
      // Nothing yet as it begins; the first page at once; the rest, within the second, once as it ends.
      expect(shown).toEqual([0, PAGE_SIZE, 5 * PAGE_SIZE + 1]);
    } finally {
      stop();
      unwatch();
      vi.mocked(Date.now).mockRestore();
    }
  });
});

describe('following the change log', () => {
  it('applies each answer in one go — records changed and removed, with the cursor — and the screens read them again', async () => {
    const db = await started();
    const index = (await keptIndex(BUSINESS, getResource('items')))!;
    server.deltas = [
      { cursor: 'epoch.0.20', more: true, changed: { items: [item(5, 'Renamed'), item(2600)] }, removed: { items: [7, 8] } },
      { cursor: 'epoch.0.25', changed: { brands: [{ id: 2, name: 'Bear Brand', version: 1, deleted_at: null }] } },
    ];
    invalidated.mockClear();
    syncNow();
    await workingSetIdle();

    expect(asked('/api/sync/changes').slice(-2)).toEqual([
      'GET /api/sync/changes?cursor=epoch.0.10',
      'GET /api/sync/changes?cursor=epoch.0.20',
    ]);
    const items = await keptIds(db, 'items');
    expect(items).toHaveLength(2500 - 2 + 1);
    expect(items).not.toContain(7);
    expect(items).toContain(2600);
    expect((await db.records.get(`${BUSINESS}|items|5`))?.record).toMatchObject({ name: 'Renamed' });
    expect(await keptIds(db, 'brands')).toEqual([1, 2]);
    expect((await db.syncState.get(BUSINESS))?.epochCursor).toBe('epoch.0.25');
    expect(invalidatedKeys()).toEqual([
      [BUSINESS, 'items'],
      [BUSINESS, 'brands'],
    ]);
    // The index of the kept items followed, without being read again.
    expect(await keptIndex(BUSINESS, getResource('items'))).toBe(index);
    expect(index.size).toBe(2499);
    expect(index.equalTo('sku', 'sku-7')).toEqual([]);

    // An answer with nothing in it moves nothing and tells no screen.
    invalidated.mockClear();
    syncNow();
    await workingSetIdle();
    expect(invalidated).not.toHaveBeenCalled();
  });

  it('puts an answer of many changed records into their pages, not a row each', async () => {
    const db = await started();
    const renamed = Array.from({ length: 400 }, (_, at) => item(1001 + at, `Renamed ${1001 + at}`));
    server.deltas = [{ cursor: 'epoch.0.30', changed: { items: renamed } }];
    syncNow();
    await workingSetIdle();
    expect(await db.records.where('[businessId+resource]').equals([BUSINESS, 'items']).count()).toBe(0);
    const items = await kept(db, 'items');
    expect(items).toHaveLength(2500);
    expect(items.filter((record) => String(record.name).startsWith('Renamed'))).toHaveLength(400);
    const index = (await keptIndex(BUSINESS, getResource('items')))!;
    expect(index.equalTo('sku', 'sku-1200').map(({ record }) => record.name)).toEqual(['Renamed 1200']);
  });

  it('downloads again when the server no longer follows the cursor: what it kept stays until the pages come, and what they did not send goes', async () => {
    server.data = {
      items: Array.from({ length: 2500 }, (_, at) => item(at + 1)),
      invoices: [invoice(1, 'unpaid'), invoice(2, 'partially_paid')],
    };
    const db = await started();
    // A closed invoice the user opened, kept as they saw it.
    await saveAnswer(`${BUSINESS}|invoices|record|3`, BUSINESS, 'invoices', invoice(3, 'paid'), [invoice(3, 'paid')]);

    // Meanwhile on the server: items 10 and 2001 deleted, item 3000 new, invoice 2 paid (no longer
    // worked on), and the change log began a new history.
    server.data.items = server.data.items.filter((row) => row.id !== 10 && row.id !== 2001);
    server.data.items.push(item(3000));
    server.data.invoices = [invoice(1, 'unpaid')];
    server.cursor = 'other.0.1';
    server.deltas = [{ reset: true }];
    let pages = 0;
    server.refuse = (path) => (path === '/api/sync/records/items' && ++pages === 2 ? unreachable() : undefined);
    syncNow();
    await workingSetIdle();
    // Stopped after the first page: what was kept is all there, past the page's range too.
    const halfway = await keptIds(db, 'items');
    expect(halfway).not.toContain(10);
    expect(halfway).toContain(2001);
    expect(halfway).toHaveLength(2499);
    expect(await db.syncState.get(BUSINESS)).toMatchObject({ phase: 'downloading', epochCursor: 'other.0.1' });

    syncNow();
    await workingSetIdle();
    expect(await keptIds(db, 'items')).toEqual(server.data.items.map((row) => row.id));
    expect(await keptIds(db, 'invoices')).toEqual([1, 3]);
    expect(await db.syncState.get(BUSINESS)).toMatchObject({ phase: 'ready', epochCursor: 'other.0.1' });
    expect(asked('/api/sync/changes').at(-1)).toBe('GET /api/sync/changes?cursor=other.0.1');
  });

  it('drops what the device kept of a resource the user may no longer view', async () => {
    const db = await started();
    await saveAnswer(`${BUSINESS}|brands|list|`, BUSINESS, 'brands', { data: server.data.brands }, server.data.brands);
    delete server.data.brands;
    server.deltas = [{ reset: true }];
    syncNow();
    await workingSetIdle();
    expect(await kept(db, 'brands')).toEqual([]);
    expect(await db.answers.where('[businessId+resource]').equals([BUSINESS, 'brands']).count()).toBe(0);
    expect(await keptIds(db, 'items')).toHaveLength(2500);
    expect((await db.syncState.get(BUSINESS))?.resources).toEqual(['items']);
    expect(await keptWhole(BUSINESS, 'brands')).toBeNull();
  });

  it('downloads again when the user’s places change', async () => {
    const db = await started();
    const name = offlineDatabaseName()!;
    const at = (level: 'view' | 'operate', ...branches: number[]) => ({
      id: 1,
      business_id: BUSINESS,
      places: { all: null, grants: branches.map((id) => ({ type: 'branch' as const, id, level, name: `Branch ${id}` })) },
    });
    // The places first learnt after the download: the download stands.
    expect(await followUserPlaces(name, offlineDatabase()!, at('operate', 1))).toBe(true);
    await until(async () => (await db.syncState.get(BUSINESS))?.placesFingerprint !== null, 'the places to be taken in');
    await workingSetIdle();
    expect(requests.filter((request) => request === 'GET /api/sync')).toHaveLength(1);

    server.data.items.push(item(2501));
    expect(await followUserPlaces(name, offlineDatabase()!, at('operate', 1, 2))).toBe(true);
    await until(() => requests.filter((request) => request === 'GET /api/sync').length === 2, 'a download again');
    await workingSetIdle();
    expect(await keptIds(db, 'items')).toContain(2501);
    expect(workingSetStatus().phase).toBe('following');
  });
});

describe('limits', () => {
  it('stops when the device’s storage refuses, in words, and the app reads back as before', async () => {
    openOfflineStore(nextUser++);
    const db = await offlineDatabase()!;
    const put = db.pages.put.bind(db.pages);
    let full = false;
    let puts = 0;
    // The first page of items is written (four rows of records), the second finds the device full.
    db.pages.put = ((page: never) => {
      puts += 1;
      if (full || puts > 5) {
        full = true;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return put(page);
    }) as typeof db.pages.put;
    await saveAnswer(`${BUSINESS}|items|list|`, BUSINESS, 'items', { data: [item(1)] }, [item(1)]);
    startWorkingSet(queryClient, { businessId: () => BUSINESS });
    await workingSetIdle();

    expect(workingSetStatus()).toMatchObject({ phase: 'unavailable', problem: NO_ROOM, progress: null, live: false });
    // The partial download went, to free the room; the list saved before still reads back.
    expect(await kept(db, 'items')).toEqual([]);
    expect(await db.answers.get(`${BUSINESS}|items|list|`)).toBeDefined();
    expect((await db.syncState.get(BUSINESS))?.refused).toEqual({ at: expect.any(Number), problem: NO_ROOM });
    expect(await keptWhole(BUSINESS, 'items')).toBeNull();
    const asking = requests.length;

    // Started again (another load of the app), it does not try again by itself …
    stopWorkingSet();
    startWorkingSet(queryClient, { businessId: () => BUSINESS });
    await workingSetIdle();
    expect(requests.length).toBe(asking);
    expect(workingSetStatus()).toMatchObject({ phase: 'unavailable', problem: NO_ROOM });

    // … until asked, once there is room.
    full = false;
    puts = Number.NEGATIVE_INFINITY;
    syncNow();
    await workingSetIdle();
    expect(workingSetStatus()).toMatchObject({ phase: 'following', problem: null });
    expect(await keptIds(db, 'items')).toHaveLength(2500);
    expect((await db.syncState.get(BUSINESS))?.refused).toBeUndefined();
  });

  it('stops quietly when the server no longer knows the session', async () => {
    server.refuse = (path) => (path === '/api/sync' ? json(401, { message: 'Unauthenticated.' }) : undefined);
    await started();
    expect(workingSetStatus()).toMatchObject({ phase: 'off', problem: null, live: false });
    expect(requests).toEqual(['GET /api/sync']);
  });
});

describe('live', () => {
  it('pulls what the event stream announces, has the screens read it again, and opens the stream again when it ends', async () => {
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    const encoder = new TextEncoder();
    server.events = () =>
      new Response(new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) }), {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
      });
    const db = await started();
    await until(() => streams.length === 1, 'the stream to open');
    expect(requests.filter((request) => request.startsWith('GET /api/sync/events'))).toEqual(['GET /api/sync/events']);
    expect(workingSetStatus().live).toBe(true);

    streams[0].enqueue(encoder.encode('event: ready\ndata: {}\n\n: keep-alive\n\n'));
    await until(() => asked('/api/sync/changes').length === 2, 'the pull on ready');
    await workingSetIdle();

    invalidated.mockClear();
    server.deltas = [{ cursor: 'epoch.0.11', changed: { items: [item(3, 'Changed on another device')] } }];
    // An event split across two reads.
    streams[0].enqueue(encoder.encode('event: chan'));
    streams[0].enqueue(encoder.encode('ged\ndata: {"resources":["items"]}\n\n'));
    await until(async () => (await db.records.get(`${BUSINESS}|items|3`))?.record.name === 'Changed on another device', 'the change');
    await until(() => invalidated.mock.calls.length > 0, 'the screens told');
    expect(invalidatedKeys()).toEqual([[BUSINESS, 'items']]);

    streams[0].close();
    await until(() => !workingSetStatus().live, 'the stream to close');
    await until(() => streams.length === 2, 'the stream to open again');
    await until(() => workingSetStatus().live, 'live again');
  });
});
