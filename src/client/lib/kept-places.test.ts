import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { fingerprintOf, followPlaces, type NamedPlaces } from './kept-places';
import {
  followUserPlaces,
  offlineDatabase,
  offlineDatabaseName,
  openOfflineStore,
  placesFollowed,
  saveAnswer,
  type OfflineDatabase,
} from './offline-store';
import { enqueue, queuedEntries, type Change } from './outbox-queue';
import { createReplayEngine, type ReplayEngine } from './outbox-replay';

/**
 * What the device keeps follows the user's places (kept-places.ts): against an in-memory
 * IndexedDB, what a change of places removes and keeps, and how the outbox parks, unsent, the
 * changes made at a place the user no longer operates at.
 */

const BUSINESS = 1;
const MAKATI = 1;
const CEBU = 3;
const VALENZUELA = 5;

const operating = (...branches: [number, string][]): NamedPlaces => ({
  all: null,
  grants: branches.map(([id, name]) => ({ type: 'branch' as const, id, level: 'operate' as const, name })),
});
const AT_MAKATI_AND_CEBU = operating([MAKATI, 'Makati'], [CEBU, 'Cebu']);
const AT_MAKATI = operating([MAKATI, 'Makati']);

const invoice = (id: number, branch: number, name: string) => ({
  id,
  number: `INV-${id}`,
  branch_id: branch,
  branch: { id: branch, display: name },
  warehouse_id: null,
  version: 1,
  deleted_at: null,
});

let nextUser = 100;

/** A fresh user's database, opened as a session opens it. */
async function freshStore(): Promise<{ database: Promise<OfflineDatabase>; db: OfflineDatabase; name: string; user: number }> {
  const user = nextUser++;
  openOfflineStore(user);
  const database = offlineDatabase()!;
  return { database, db: await database, name: offlineDatabaseName()!, user };
}

/** What the open store has seen of the business: invoices at Makati and Cebu, stock, prices, brands, memos, the overview. */
async function seen(): Promise<void> {
  const invoices = [invoice(11, MAKATI, 'Makati'), invoice(13, CEBU, 'Cebu')];
  await saveAnswer(`${BUSINESS}|invoices|list|?page=1`, BUSINESS, 'invoices', { data: invoices }, invoices);
  const brands = [{ id: 2, name: 'Alaska', version: 1, deleted_at: null }];
  await saveAnswer(`${BUSINESS}|brands|list|?page=1`, BUSINESS, 'brands', { data: brands }, brands);
  const stocks = [
    { id: 21, location_type: 'branch', location_id: MAKATI, version: 1, deleted_at: null },
    { id: 22, location_type: 'warehouse', location_id: VALENZUELA, version: 1, deleted_at: null },
  ];
  await saveAnswer(`${BUSINESS}|stocks|list|`, BUSINESS, 'stocks', { data: stocks }, stocks);
  const prices = [
    { id: 31, branch_id: null, version: 1, deleted_at: null },
    { id: 32, branch_id: CEBU, version: 1, deleted_at: null },
  ];
  await saveAnswer(`${BUSINESS}|sale-item-prices|list|`, BUSINESS, 'sale-item-prices', { data: prices }, prices);
  const branches = [
    { id: MAKATI, name: 'Makati', version: 1, deleted_at: null },
    { id: CEBU, name: 'Cebu', version: 1, deleted_at: null },
  ];
  await saveAnswer(`${BUSINESS}|branches|list|`, BUSINESS, 'branches', { data: branches }, branches);
  const memos = [
    { id: 41, document_type: 'invoice', document_id: 11, subject: 'At Makati', version: 1, deleted_at: null },
    { id: 43, document_type: 'invoice', document_id: 13, subject: 'At Cebu', version: 1, deleted_at: null },
  ];
  await saveAnswer(`${BUSINESS}|document-memoranda|list|`, BUSINESS, 'document-memoranda', { data: memos }, memos);
  await saveAnswer(`${BUSINESS}|overview|stock-value|`, BUSINESS, 'overview', { data: [], total: 0 }, []);
  await saveAnswer(`${BUSINESS}|places`, BUSINESS, 'places', { all: null, data: [] }, []);
  // Another business's are another matter.
  await saveAnswer(`2|invoices|list|`, 2, 'invoices', { data: [] }, [invoice(13, CEBU, 'Cebu')]);
}

const keptKeys = async (db: OfflineDatabase) => ({
  answers: (await db.answers.toCollection().primaryKeys()).sort(),
  records: (await db.records.toCollection().primaryKeys()).sort(),
});

beforeEach(() => {
  vi.stubGlobal('navigator', { onLine: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('following the user’s places', () => {
  it('removes, when the places change, what the device kept of places no longer held, and keeps the rest', async () => {
    const { db } = await freshStore();
    await followPlaces(db, BUSINESS, { all: 'operate', grants: [] });
    await seen();
    const before = await keptKeys(db);

    // The same places in another order, or at the same levels under other names: nothing changes.
    expect(await followPlaces(db, BUSINESS, { all: 'operate', grants: [] })).toBe(false);
    expect(await keptKeys(db)).toEqual(before);

    expect(await followPlaces(db, BUSINESS, AT_MAKATI)).toBe(true);
    expect(await keptKeys(db)).toEqual({
      // The kept lists of places are asked again; lists of no place stay, and so does another business.
      answers: ['1|brands|list|?page=1', '2|invoices|list|'],
      records: [
        '1|branches|1',
        '1|brands|2',
        '1|document-memoranda|41',
        '1|invoices|11',
        '1|sale-item-prices|31',
        '1|stocks|21',
        '2|invoices|13',
      ],
    });
    expect(await db.places.get(BUSINESS)).toMatchObject({
      fingerprint: fingerprintOf(AT_MAKATI),
      names: { 'branch:1': 'Makati', 'branch:3': 'Cebu' },
    });
    expect(
      await followPlaces(db, BUSINESS, { all: null, grants: [{ type: 'branch', id: MAKATI, level: 'operate', name: 'Makati' }] }),
    ).toBe(false);
  });

  it('keeps every record where the user views every place, and nothing of a place when they hold none', async () => {
    const { db } = await freshStore();
    await seen();
    await followPlaces(db, BUSINESS, { all: 'view', grants: [] });
    expect((await keptKeys(db)).records).toHaveLength(12);
    await followPlaces(db, BUSINESS, { all: null, grants: [] });
    expect((await keptKeys(db)).records).toEqual(['1|brands|2', '1|sale-item-prices|31', '2|invoices|13']);
  });
});

interface Sent {
  method: string;
  path: string;
  key: string;
}

describe('the outbox and the user’s places', () => {
  let sent: Sent[];
  let userAsked: (number | null)[];
  let serverPlaces: NamedPlaces;
  let engine: ReplayEngine | undefined;

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  beforeEach(() => {
    sent = [];
    userAsked = [];
    serverPlaces = AT_MAKATI;
    vi.stubGlobal(
      'fetch',
      vi.fn((path: string, init: RequestInit) => {
        const headers = init.headers as Record<string, string>;
        if (path === '/api/auth/user') {
          userAsked.push(Number(headers['Business-ID']));
          return json(200, { id: Number(offlineDatabaseName()!.split('-').pop()), business_id: BUSINESS, places: serverPlaces });
        }
        const changes = (JSON.parse(String(init.body)) as { changes: { method: string; path: string; idempotency_key: string }[] }).changes;
        sent.push(...changes.map((change) => ({ method: change.method, path: change.path, key: change.idempotency_key })));
        return json(200, { data: changes.map((_, index) => ({ status: 200, body: { data: { id: 900 + index, version: 2 } } })) });
      }),
    );
  });

  afterEach(() => {
    engine?.stop();
    engine = undefined;
  });

  const change = (action: Change['action'], resource: string, recordId: number | string | null, body?: object): Change => ({
    businessId: BUSINESS,
    resource,
    action,
    recordId,
    method: action === 'create' ? 'POST' : 'PATCH',
    path: action === 'create' ? `/api/${resource}` : `/api/${resource}/${String(recordId)}${action === 'void' ? '/void' : ''}`,
    body,
    label: `${action} ${resource}`,
  });

  const KEYS = [
    '0b6f6d2e-8c1d-4a57-9d0e-1f2a3b4c5d6e',
    '1c7a7e3f-9d2e-4b68-8e1f-2a3b4c5d6e7f',
    '2d8b8f40-ae3f-4c79-9f20-3b4c5d6e7f80',
    '3e9c9051-bf40-4d8a-a031-4c5d6e7f8091',
    '4fad0162-c051-4e9b-b142-5d6e7f8091a2',
    '5abe1273-d162-4fac-8253-6e7f8091a2b3',
  ];

  /** Waits, up to five seconds, until `check` holds. */
  async function until(check: () => boolean | Promise<boolean>): Promise<void> {
    const start = performance.now();
    while (!(await check())) {
      if (performance.now() - start > 5000) throw new Error(`Still not so: ${check.toString()}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Changes queued while the user worked at Makati and Cebu, and the invoices they were made on. */
  async function queuedAtBoth(db: OfflineDatabase) {
    await seen();
    await enqueue(db, change('create', 'invoices', KEYS[0], { branch_id: CEBU, contact_id: 4, lines: [] }), KEYS[0], true);
    await enqueue(db, change('update', 'invoices', KEYS[0], { notes: 'Deliver Monday' }), KEYS[1], true);
    await enqueue(db, change('void', 'invoices', 13), KEYS[2], true);
    await enqueue(db, change('update', 'brands', 2, { name: 'Alaska Milk' }), KEYS[3], true);
    await enqueue(db, change('create', 'invoices', KEYS[4], { branch_id: MAKATI, contact_id: 4, lines: [] }), KEYS[4], true);
    // A payment names no place: the server takes the invoice's, which the device knows.
    await enqueue(db, change('create', 'invoice-payments', KEYS[5], { invoice_id: 13, amount: 100 }), KEYS[5], true);
  }

  const CEBU_LOST = 'You no longer work at Cebu, so this change cannot be sent. Copy what you need, then discard it.';

  it('parks, unsent and with the reason, every change at a place the user no longer operates at, and sends the rest', async () => {
    const { database, db, name, user } = await freshStore();
    await followUserPlaces(name, database, { id: user, business_id: BUSINESS, places: AT_MAKATI_AND_CEBU });
    await queuedAtBoth(db);

    // Cebu is taken from the user: its invoice goes from the device, the changes to it stay.
    expect(await followUserPlaces(name, database, { id: user, business_id: BUSINESS, places: AT_MAKATI })).toBe(true);
    expect(await db.records.get('1|invoices|13')).toBeUndefined();

    engine = createReplayEngine(database, name, { sent: vi.fn(), signInNeeded: vi.fn() });
    engine.kick();
    await until(async () => (await queuedEntries(db)).every((entry) => entry.state === 'needs-attention'));

    // Followed in this page already: the server is not asked again.
    expect(userAsked).toEqual([]);
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual(['PATCH /api/brands/2', 'POST /api/invoices']);
    const parked = await queuedEntries(db);
    expect(parked.map((entry) => [entry.key, entry.status, entry.message])).toEqual([
      [KEYS[0], 403, CEBU_LOST],
      [KEYS[1], 403, CEBU_LOST],
      [KEYS[2], 403, CEBU_LOST],
      [KEYS[5], 403, CEBU_LOST],
    ]);

    // Given Cebu back, a retry sends what waited there.
    await followUserPlaces(name, database, { id: user, business_id: BUSINESS, places: AT_MAKATI_AND_CEBU });
    for (const key of [KEYS[0], KEYS[1], KEYS[2], KEYS[5]]) await engine.retry(key);
    await until(async () => (await queuedEntries(db)).length === 0);
    expect(sent.map((request) => request.key)).toEqual([KEYS[3], KEYS[4], KEYS[0], KEYS[1], KEYS[2], KEYS[5]]);
  });

  it('asks the server for the user’s places before it first sends a business’s changes from a page', async () => {
    const { database, db, name } = await freshStore();
    // Places kept by an earlier page, when the user still worked at Cebu.
    await followPlaces(db, BUSINESS, AT_MAKATI_AND_CEBU);
    await queuedAtBoth(db);
    expect(placesFollowed(name, BUSINESS)).toBeUndefined();

    engine = createReplayEngine(database, name, { sent: vi.fn(), signInNeeded: vi.fn() });
    engine.kick();
    await until(async () => (await queuedEntries(db)).every((entry) => entry.state === 'needs-attention'));

    expect(userAsked).toEqual([BUSINESS]);
    expect(sent.map((request) => request.key)).toEqual([KEYS[3], KEYS[4]]);
    expect((await queuedEntries(db)).map((entry) => entry.message)).toEqual([CEBU_LOST, CEBU_LOST, CEBU_LOST, CEBU_LOST]);
    expect(await db.records.get('1|invoices|13')).toBeUndefined();
  });

  it('sends a transfer’s rest closed as lost by its receivers, where it arrives, though they do not work where it left', async () => {
    const { database, db, name, user } = await freshStore();
    await followUserPlaces(name, database, { id: user, business_id: BUSINESS, places: AT_MAKATI });
    const transfer = {
      id: 61,
      number: 'ST-61',
      from_location_type: 'warehouse',
      from_location_id: VALENZUELA,
      to_location_type: 'branch',
      to_location_id: MAKATI,
      status: 'partially_received',
      version: 1,
      deleted_at: null,
    };
    await saveAnswer(`${BUSINESS}|stock-transfers|list|`, BUSINESS, 'stock-transfers', { data: [transfer] }, [transfer]);
    const closing = { ...change('void', 'stock-transfers', 61), action: 'close' as const, path: '/api/stock-transfers/61/close' };
    await enqueue(db, { ...closing, body: { reason: 'damaged', note: null } }, KEYS[0], true);
    // Voiding it is the sender's, at the warehouse.
    await enqueue(db, change('void', 'stock-transfers', 61), KEYS[1], true);

    engine = createReplayEngine(database, name, { sent: vi.fn(), signInNeeded: vi.fn() });
    engine.kick();
    await until(async () => (await queuedEntries(db)).every((entry) => entry.state === 'needs-attention'));
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual(['PATCH /api/stock-transfers/61/close']);
    expect((await queuedEntries(db)).map((entry) => [entry.key, entry.status])).toEqual([[KEYS[1], 403]]);
  });

  it('parks changes offline too, from the places the device keeps', async () => {
    const { database, db, name, user } = await freshStore();
    await followUserPlaces(name, database, { id: user, business_id: BUSINESS, places: AT_MAKATI });
    // Cebu's name comes from its kept record: the user never worked there on this device.
    await saveAnswer(`${BUSINESS}|branches|list|`, BUSINESS, 'branches', { data: [] }, [{ id: CEBU, name: 'Cebu' }]);
    vi.stubGlobal('navigator', { onLine: false });
    engine = createReplayEngine(database, name, { sent: vi.fn(), signInNeeded: vi.fn() });
    const made = await engine.submit(change('create', 'invoices', KEYS[0], { branch_id: MAKATI, lines: [] }), KEYS[0]);
    expect(made).toMatchObject({ sent: false });

    // A change the user is making there and then is refused to its screen, which still holds it.
    const refusal = await engine
      .submit(change('create', 'invoices', KEYS[1], { branch_id: CEBU, lines: [] }), KEYS[1])
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 403, message: 'You no longer work at Cebu, so this change cannot be made there.' });
    expect((await queuedEntries(db)).map((entry) => [entry.key, entry.state])).toEqual([[KEYS[0], 'queued']]);
    expect(sent).toEqual([]);
  });
});
