import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { offlineDatabase, offlineDatabaseName, openOfflineStore } from './offline-store';
import { outboxSnapshot } from './outbox-snapshot';
import { enqueue, queuedEntries, syncedId, type Change, type OutboxDatabase, type OutboxEntry } from './outbox-queue';
import {
  createReplayEngine,
  KEPT_BEHIND,
  KEPT_FOR_SIGN_IN,
  KEPT_OFFLINE,
  REPLAY_TIMEOUT_MS,
  type ReplayEngine,
  type ReplayEvents,
} from './outbox-replay';
import { startOutbox, stopOutbox, submitChange } from './outbox';

/**
 * The outbox against an in-memory IndexedDB and a stand-in for `fetch`: what is queued, what is
 * sent (method, path, headers, body) and what stays on the device after each answer.
 */

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
}

type Answer = (request: Request) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
/** A request that is never answered: it ends only when it is aborted. */
const hang: Answer = ({ signal }) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('The request was aborted.', 'AbortError'))));
const unreachable: Answer = () => Promise.reject(new TypeError('Failed to fetch'));

let requests: Request[];
/** How many changes each `POST /api/batch` carried. */
let batches: number[];
let answers: Answer[];
let fallback: Answer;
let network: { onLine: boolean };
let nextUser = 1;
let engine: ReplayEngine | undefined;

beforeEach(() => {
  requests = [];
  answers = [];
  fallback = (request) => json(200, { data: { id: Number(request.path.split('/').pop()), version: 1 } });
  network = { onLine: true };
  vi.stubGlobal('navigator', network);
  batches = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit) => {
      const body = init.body === undefined ? undefined : JSON.parse(String(init.body));
      if (path === '/api/batch') return batchRoute(body.changes as BatchChange[], init.signal!);
      return answerTo({ method: String(init.method), path, headers: init.headers as Record<string, string>, body, signal: init.signal! });
    }),
  );
});

function answerTo(request: Request): Response | Promise<Response> {
  requests.push(request);
  return (answers.shift() ?? fallback)(request);
}

interface BatchChange {
  method: string;
  path: string;
  body?: unknown;
  business_id: number | null;
  idempotency_key: string;
  if_match?: string;
  made_at: string;
  made_offline?: boolean;
}

/**
 * POST /api/batch as the server answers it: each change as the request it would be alone, in
 * order, until one is not answered 2xx. A change that finds no network (or hangs) takes the whole
 * batch with it, as a connection lost mid-batch would.
 */
async function batchRoute(changes: BatchChange[], signal: AbortSignal): Promise<Response> {
  batches.push(changes.length);
  const data: { status: number; body: unknown }[] = [];
  for (const change of changes) {
    const headers: Record<string, string> = { 'Idempotency-Key': change.idempotency_key, 'X-Made-At': change.made_at };
    if (change.business_id !== null) headers['Business-ID'] = String(change.business_id);
    if (change.if_match !== undefined) headers['If-Match'] = change.if_match;
    if (change.made_offline) headers['X-Made-Offline'] = 'true';
    const response = await answerTo({ method: change.method, path: change.path, headers, body: change.body, signal });
    const text = await response.text();
    data.push({ status: response.status, body: text === '' ? null : JSON.parse(text) });
    if (!response.ok) break;
  }
  return json(200, { data });
}

afterEach(() => {
  engine?.stop();
  engine = undefined;
  stopOutbox();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A fresh user's database, opened as a session opens it. */
async function freshStore(): Promise<{ user: number; database: Promise<OutboxDatabase>; name: string }> {
  const user = nextUser++;
  openOfflineStore(user);
  const database = offlineDatabase()!;
  await database;
  return { user, database, name: offlineDatabaseName()! };
}

function events() {
  return { sent: vi.fn<ReplayEvents['sent']>(), signInNeeded: vi.fn<ReplayEvents['signInNeeded']>() };
}

/** Waits, up to five seconds of real time (which fake timers leave alone), until `check` holds. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > 5000) throw new Error(`Still not so: ${check.toString()}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Lets whatever is under way go on for a while, to see that nothing more happens. */
async function aWhile(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

const update = (id: number | string, body: Record<string, unknown>, baseVersion?: number): Change => ({
  businessId: 1,
  resource: 'brands',
  action: 'update',
  recordId: id,
  method: 'PATCH',
  path: `/api/brands/${id}`,
  body,
  baseVersion,
  label: `Update Brand ${String(body.name)}`,
});

const create = (key: string, body: Record<string, unknown>, resource = 'brands'): Change => ({
  businessId: 1,
  resource,
  action: 'create',
  recordId: key,
  method: 'POST',
  path: `/api/${resource}`,
  body,
  label: `Create ${resource} ${String(body.name)}`,
});

const KEY_A = '0b6f6d2e-8c1d-4a57-9d0e-1f2a3b4c5d6e';
const KEY_B = '1c7a7e3f-9d2e-4b68-8e1f-2a3b4c5d6e7f';
const KEY_C = '2d8b8f40-ae3f-4c79-9f20-3b4c5d6e7f80';
const KEY_D = '3e9c9051-bf40-4d8a-a031-4c5d6e7f8091';
const KEY_E = '4fad0162-c051-4e9b-b142-5d6e7f8091a2';

const entryOf = async (database: Promise<OutboxDatabase>, key: string) => (await database).outbox.where('key').equals(key).first();

describe('the queue', () => {
  it('stacks changes to one record: the later one is sent with the version the earlier one was answered with', async () => {
    const { database, name } = await freshStore();
    const db = await database;
    const first = await enqueue(db, update(5, { name: 'Alaska Milk' }, 3), KEY_A, false);
    const second = await enqueue(db, update(5, { name: 'Alaska Evap' }, 3), KEY_B, false);
    const other = await enqueue(db, update(6, { name: 'Nestlé PH' }, 8), KEY_C, false);
    expect([first.stacked, second.stacked, other.stacked]).toEqual([false, true, false]);
    expect(first.target).toBe('1|brands|5');

    answers = [() => json(200, { data: { id: 5, version: 4 } })];
    engine = createReplayEngine(database, name, events());
    engine.kick();
    await until(async () => (await queuedEntries(db)).length === 0);

    expect(
      requests.map((request) => [request.method, request.path, request.headers['If-Match'], request.headers['Idempotency-Key']]),
    ).toEqual([
      ['PATCH', '/api/brands/5', '"3"', KEY_A],
      ['PATCH', '/api/brands/5', '"4"', KEY_B],
      ['PATCH', '/api/brands/6', '"8"', KEY_C],
    ]);
    expect(requests[1].body).toEqual({ name: 'Alaska Evap' });
  });

  it('sends a change that names a record created offline with the id the server gave it', async () => {
    const { database, name } = await freshStore();
    const db = await database;
    await enqueue(db, create(KEY_A, { name: 'Offline Foods' }), KEY_A, true);
    await enqueue(db, update(KEY_A, { name: 'Offline Foods Inc.' }), KEY_B, true);
    await enqueue(db, create(KEY_C, { name: 'Offline Sardines', brand_id: KEY_A }, 'items'), KEY_C, true);

    answers = [() => json(201, { data: { id: 41, version: 1 } })];
    engine = createReplayEngine(database, name, events());
    engine.kick();
    await until(async () => (await queuedEntries(db)).length === 0);

    expect(requests.map((request) => [request.method, request.path, request.headers['Idempotency-Key']])).toEqual([
      ['POST', '/api/brands', KEY_A],
      ['PATCH', '/api/brands/41', KEY_B],
      ['POST', '/api/items', KEY_C],
    ]);
    // The edit was made while the create waited: it is based on the version the create answered.
    expect(requests[1].headers['If-Match']).toBe('"1"');
    expect(requests[2].body).toEqual({ name: 'Offline Sardines', brand_id: 41 });
    for (const request of requests) expect(request.headers['X-Made-Offline']).toBe('true');
    expect(await syncedId(db, KEY_A)).toEqual({ key: KEY_A, resource: 'brands', id: 41 });
  });
});

describe('the replay engine', () => {
  it('sends a long queue in batches of at most 50 changes, in order, each under its own key', async () => {
    const { database, name } = await freshStore();
    const db = await database;
    const keys: string[] = [];
    for (let index = 0; index < 120; index++) {
      const key = `${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`;
      keys.push(key);
      await enqueue(db, create(key, { name: `Brand ${index}` }), key, true);
    }
    let id = 100;
    fallback = () => json(201, { data: { id: id++, version: 1 } });
    engine = createReplayEngine(database, name, events());
    engine.kick();
    await until(async () => (await queuedEntries(db)).length === 0);

    expect(batches).toEqual([50, 50, 20]);
    expect(requests.map((request) => request.headers['Idempotency-Key'])).toEqual(keys);
    expect(await syncedId(db, keys[119])).toEqual({ key: keys[119], resource: 'brands', id: 219 });
  });

  it('tries again after a network failure, a 5xx, a 408 and a 429, each time after a longer delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter: the delays are exact
    const { database, name } = await freshStore();
    engine = createReplayEngine(database, name, events());
    answers = [unreachable, () => json(503, { message: 'Service Unavailable' }), () => json(408, {}), () => json(429, {})];

    const settled = await engine.submit(update(5, { name: 'Alaska Milk' }, 3), KEY_A);
    expect(settled).toEqual({ sent: false, message: KEPT_OFFLINE });

    for (const [tries, status, delay] of [
      [1, 0, 1000],
      [2, 503, 2000],
      [3, 408, 4000],
      [4, 429, 8000],
    ] as const) {
      await until(async () => (await entryOf(database, KEY_A))?.status === status);
      const entry = (await entryOf(database, KEY_A))!;
      expect(entry).toMatchObject({ state: 'queued', attempts: tries, nextAttemptAt: Date.now() + delay });
      expect(requests).toHaveLength(tries);
      await vi.advanceTimersByTimeAsync(delay - 1);
      await aWhile();
      expect(requests).toHaveLength(tries);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => requests.length === tries + 1);
    }
    await until(async () => (await entryOf(database, KEY_A)) === undefined);
    expect(new Set(requests.map((request) => request.headers['Idempotency-Key']))).toEqual(new Set([KEY_A]));
    // The first send found no network: the change counts as made offline from then on.
    expect(requests[1].headers['X-Made-Offline']).toBe('true');
  });

  it('abandons a send that is not answered in time, and sends it again later under the same key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { database, name } = await freshStore();
    const db = await database;
    await enqueue(db, update(5, { name: 'Alaska Milk' }, 3), KEY_A, false);
    engine = createReplayEngine(database, name, events());
    answers = [hang];
    engine.kick();
    await until(() => requests.length === 1);

    await vi.advanceTimersByTimeAsync(REPLAY_TIMEOUT_MS);
    expect(requests[0].signal.aborted).toBe(true);
    await until(async () => (await entryOf(database, KEY_A))?.nextAttemptAt !== undefined);
    expect(await entryOf(database, KEY_A)).toMatchObject({ state: 'queued', attempts: 1, status: 0, message: KEPT_OFFLINE });

    await vi.advanceTimersByTimeAsync(1000);
    await until(async () => (await entryOf(database, KEY_A)) === undefined);
    expect(requests.map((request) => request.headers['Idempotency-Key'])).toEqual([KEY_A, KEY_A]);
  });

  it('keeps everything after a 401 until the same user signs in, without parking it', async () => {
    const { database, name } = await freshStore();
    const db = await database;
    const heard = events();
    engine = createReplayEngine(database, name, heard);
    await enqueue(db, update(6, { name: 'Nestlé PH' }, 8), KEY_B, false);
    answers = [() => json(401, { message: 'Unauthenticated.' })];

    const settled = await engine.submit(update(5, { name: 'Alaska Milk' }, 3), KEY_A);
    expect(settled).toEqual({ sent: false, message: KEPT_FOR_SIGN_IN });
    expect(heard.signInNeeded).toHaveBeenCalledTimes(1);
    const held = await queuedEntries(db);
    expect(held.map((entry) => [entry.key, entry.state, entry.status])).toEqual([
      [KEY_B, 'queued', 401],
      [KEY_A, 'queued', undefined],
    ]);
    expect(held[0].message).toBe(KEPT_FOR_SIGN_IN);

    // Nothing goes until then, whatever asks.
    engine.kick();
    await engine.sendNow();
    await aWhile();
    expect(requests).toHaveLength(1);

    engine.resumeAfterSignIn();
    await until(async () => (await queuedEntries(db)).length === 0);
    expect(requests.map((request) => request.headers['Idempotency-Key'])).toEqual([KEY_B, KEY_B, KEY_A]);
    expect(heard.sent).toHaveBeenCalledTimes(2);
  });

  it.each([
    [409, 'The brand was deleted.'],
    [412, 'The brand was changed since you opened it.'],
    [422, 'The name has already been taken.'],
  ])('parks a change refused with %i with the server’s message; later changes to its record wait behind it', async (status, message) => {
    const { database, name } = await freshStore();
    const db = await database;
    const errors = status === 422 ? { name: ['The name has already been taken.'] } : {};
    const theirs = { id: 5, name: 'Alaska (theirs)', version: 9 };
    fallback = (request) =>
      request.method === 'GET'
        ? json(200, { data: theirs })
        : json(200, { data: { id: Number(request.path.split('/').pop()), version: 1 } });
    answers = [() => json(status, { message, errors })];
    await enqueue(db, update(5, { name: 'Alaska Milk' }, 3), KEY_A, false);
    await enqueue(db, update(6, { name: 'Nestlé PH' }, 8), KEY_B, false);
    engine = createReplayEngine(database, name, events());
    engine.kick();
    await until(async () => (await queuedEntries(db)).length === 1);

    const parked = (await entryOf(database, KEY_A))!;
    expect(parked).toMatchObject({ state: 'needs-attention', status, message, errors, attempts: 1 });
    expect(parked.serverRecord).toEqual(status === 412 ? theirs : undefined);

    // A later change to the parked record waits behind it; one to another record goes.
    expect(await engine.submit(update(5, { name: 'Alaska Evap' }, 3), KEY_C)).toEqual({ sent: false, message: KEPT_BEHIND });
    expect(await engine.submit(update(6, { name: 'Nestlé' }, 8), KEY_D)).toMatchObject({ sent: true });
    expect((await queuedEntries(db)).map((entry) => [entry.key, entry.state])).toEqual([
      [KEY_A, 'needs-attention'],
      [KEY_C, 'queued'],
    ]);
    expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.headers['Idempotency-Key'])).toEqual([
      KEY_A,
      KEY_B,
      KEY_D,
    ]);
  });

  it('hands a refusal to the screen waiting for the change, which takes it out of the outbox', async () => {
    const { database, name } = await freshStore();
    engine = createReplayEngine(database, name, events());
    answers = [() => json(422, { message: 'The name field is required.', errors: { name: ['The name field is required.'] } })];

    const refusal = await engine.submit(update(5, { name: '' }, 3), KEY_A).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 422,
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
    expect(await queuedEntries(await database)).toEqual([]);
  });

  it('picks up after a restart mid-queue with every entry as it was left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { user, database, name } = await freshStore();
    const db = await database;
    const theirs = { id: 7, name: 'Del Monte (theirs)', version: 5 };
    fallback = hang;
    answers = [
      () => json(412, { message: 'The brand was changed since you opened it.' }),
      () => json(200, { data: theirs }),
      () => json(201, { data: { id: 41, version: 1 } }),
      () => json(503, { message: 'Service Unavailable' }),
    ];
    await enqueue(db, update(7, { name: 'Del Monte (mine)' }, 4), KEY_A, false);
    await enqueue(db, create(KEY_B, { name: 'Restart Foods' }), KEY_B, true);
    await enqueue(db, update(KEY_B, { name: 'Restart Foods Inc.' }), KEY_C, true);
    await enqueue(db, update(8, { name: 'Datu Puti Vinegar', description: 'Sukang Iloko' }, 2), KEY_D, true);
    await enqueue(db, { ...update(9, {}), action: 'restore', method: 'PUT', path: '/api/brands/9/restore', body: undefined }, KEY_E, false);
    engine = createReplayEngine(database, name, events());
    engine.kick();

    // The edit of the new brand meets a 503, and its second send, in one batch with the two
    // changes after it, is under way when the tab closes: the server may hold any of the three.
    await until(async () => (await entryOf(database, KEY_C))?.status === 503);
    expect(await entryOf(database, KEY_D)).toMatchObject({ state: 'queued', attempts: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    await until(async () => (await entryOf(database, KEY_E))?.state === 'syncing');
    const before = await queuedEntries(db);
    expect(before.map((entry) => [entry.key, entry.state, entry.attempts])).toEqual([
      [KEY_A, 'needs-attention', 1],
      [KEY_C, 'syncing', 2],
      [KEY_D, 'syncing', 1],
      [KEY_E, 'syncing', 1],
    ]);
    expect(before[0]).toMatchObject({ status: 412, serverRecord: theirs });
    expect(before[1]).toMatchObject({ baseVersion: 1, stacked: true, status: 503, madeOffline: true });

    engine.stop();
    await aWhile();
    expect(requests.at(-1)!.signal.aborted).toBe(true);
    db.close();

    // A new page: new modules, a new connection to the database, a new engine.
    vi.resetModules();
    const store = await import('./offline-store');
    const replay = await import('./outbox-replay');
    store.openOfflineStore(user);
    const reopened = store.offlineDatabase()!;
    expect(await queuedEntries(await reopened)).toEqual(before);
    expect(await syncedId(await reopened, KEY_B)).toEqual({ key: KEY_B, resource: 'brands', id: 41 });

    const sentBefore = requests.length;
    fallback = () => json(200, { data: { id: 0, version: 2 } });
    engine = replay.createReplayEngine(reopened, name, events());
    engine.kick();
    await until(async () => (await queuedEntries(await reopened)).length === 1);
    expect(
      requests
        .slice(sentBefore)
        .map((request) => [request.method, request.path, request.headers['Idempotency-Key'], request.headers['If-Match']]),
    ).toEqual([
      ['PATCH', '/api/brands/41', KEY_C, '"1"'],
      ['PATCH', '/api/brands/8', KEY_D, '"2"'],
      ['PUT', '/api/brands/9/restore', KEY_E, undefined],
    ]);
    expect(requests.at(-2)!.body).toEqual({ name: 'Datu Puti Vinegar', description: 'Sukang Iloko' });
    expect((await queuedEntries(await reopened)).map((entry) => entry.key)).toEqual([KEY_A]);
    (await reopened).close();
  });
});

describe('editing a record created on this device', () => {
  /** A server that holds each `Idempotency-Key` to the first body it saw, as the real one does. */
  function idempotentServer() {
    const seen = new Map<string, string>();
    const id = 41;
    return (request: Request): Response => {
      const key = request.headers['Idempotency-Key'];
      const body = JSON.stringify(request.body);
      if (seen.has(key) && seen.get(key) !== body) {
        return json(422, { message: 'This Idempotency-Key was already used for a different request.' });
      }
      seen.set(key, body);
      if (request.method === 'POST') return json(201, { data: { id, version: 1, ...(request.body as object) } });
      return json(200, { data: { id: Number(request.path.split('/').pop()), version: 2, ...(request.body as object) } });
    };
  }

  it('folds the edit into a create that was never sent', async () => {
    const { database, name } = await freshStore();
    fallback = idempotentServer();
    engine = createReplayEngine(database, name, events());
    network.onLine = false;
    expect(await engine.submit(create(KEY_A, { name: 'Offline Draft' }), KEY_A)).toEqual({ sent: false, message: KEPT_OFFLINE });

    const edit = update(KEY_A, { name: 'Offline Final' });
    expect(await engine.amendCreate(KEY_A, { name: 'Offline Final' }, edit)).toEqual({ sent: false, message: KEPT_OFFLINE });
    expect((await queuedEntries(await database)).map((entry) => [entry.key, entry.body])).toEqual([[KEY_A, { name: 'Offline Final' }]]);

    network.onLine = true;
    await engine.sendNow();
    await until(async () => (await queuedEntries(await database)).length === 0);
    expect(requests.map((request) => [request.method, request.headers['Idempotency-Key'], request.body])).toEqual([
      ['POST', KEY_A, { name: 'Offline Final' }],
    ]);
  });

  it('sends the edit of a create already sent as an update of its own, never as a new body under the create’s key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { database, name } = await freshStore();
    const server = idempotentServer();
    // The server takes the create, and its answer is lost on the way back.
    answers = [
      (request) => {
        server(request);
        return unreachable(request);
      },
    ];
    fallback = server;
    engine = createReplayEngine(database, name, events());
    expect(await engine.submit(create(KEY_A, { name: 'Lost Answer Foods' }), KEY_A)).toEqual({ sent: false, message: KEPT_OFFLINE });
    await until(async () => (await entryOf(database, KEY_A))?.status === 0);

    const edit = update(KEY_A, { name: 'Lost Answer Foods Inc.' });
    // It waits behind the create, which waits out its backoff.
    expect(await engine.amendCreate(KEY_A, { name: 'Lost Answer Foods Inc.' }, edit)).toEqual({ sent: false, message: KEPT_OFFLINE });
    const [queuedCreate, followUp] = await queuedEntries(await database);
    expect(queuedCreate).toMatchObject({ key: KEY_A, body: { name: 'Lost Answer Foods' } });
    expect(followUp).toMatchObject({
      action: 'update',
      method: 'PATCH',
      path: `/api/brands/${KEY_A}`,
      body: { name: 'Lost Answer Foods Inc.' },
    });
    expect(followUp.key).not.toBe(KEY_A);

    await vi.advanceTimersByTimeAsync(1000);
    await until(async () => (await queuedEntries(await database)).length === 0);
    expect(requests.map((request) => [request.method, request.path, request.headers['Idempotency-Key'], request.body])).toEqual([
      ['POST', '/api/brands', KEY_A, { name: 'Lost Answer Foods' }],
      ['POST', '/api/brands', KEY_A, { name: 'Lost Answer Foods' }],
      ['PATCH', '/api/brands/41', followUp.key, { name: 'Lost Answer Foods Inc.' }],
    ]);
    expect(requests[2].headers['If-Match']).toBe('"1"');
  });

  it('sends the edit of a create being sent at that moment as an update of its own', async () => {
    const { database, name } = await freshStore();
    const server = idempotentServer();
    let answerCreate!: () => void;
    answers = [(request) => new Promise<Response>((resolve) => (answerCreate = () => resolve(server(request))))];
    fallback = server;
    engine = createReplayEngine(database, name, events());
    const creating = engine.submit(create(KEY_A, { name: 'Slow Foods' }), KEY_A);
    await until(() => requests.length === 1);

    const editing = engine.amendCreate(KEY_A, { name: 'Slow Foods Inc.' }, update(KEY_A, { name: 'Slow Foods Inc.' }));
    await until(async () => (await queuedEntries(await database)).length === 2);
    answerCreate();
    expect(await creating).toMatchObject({ sent: true, data: { data: { id: 41, name: 'Slow Foods' } } });
    expect(await editing).toMatchObject({ sent: true, data: { data: { id: 41, name: 'Slow Foods Inc.' } } });
    expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/api/brands', { name: 'Slow Foods' }],
      ['PATCH', '/api/brands/41', { name: 'Slow Foods Inc.' }],
    ]);
  });
});

describe('the app’s outbox', () => {
  beforeEach(() => {
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  });

  it('sends nothing until the app starts it, shows the queue while it runs, and stops when told', async () => {
    const { database } = await freshStore();
    const db = await database;
    const queued: OutboxEntry = await enqueue(db, update(5, { name: 'Alaska Milk' }, 3), KEY_A, false);
    await aWhile();
    expect(requests).toEqual([]);
    expect(outboxSnapshot()).toEqual({ loaded: false, entries: [] });

    answers = [() => json(503, { message: 'Service Unavailable' })];
    startOutbox();
    await until(() => outboxSnapshot().loaded);
    await until(async () => (await entryOf(database, KEY_A))?.status === 503);
    expect(requests.map((request) => request.headers['Idempotency-Key'])).toEqual([KEY_A]);
    expect(outboxSnapshot().entries.map((entry) => entry.key)).toEqual([queued.key]);

    // The connection coming back sends at once, without waiting out the backoff.
    window.dispatchEvent(new Event('online'));
    await until(async () => (await queuedEntries(db)).length === 0);
    await until(() => outboxSnapshot().entries.length === 0);
    expect(requests).toHaveLength(2);

    stopOutbox();
    expect(outboxSnapshot()).toEqual({ loaded: false, entries: [] });
    await enqueue(db, update(6, { name: 'Nestlé PH' }, 8), KEY_B, false);
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    await aWhile();
    expect(requests).toHaveLength(2);
  });

  it('starts by itself when a change comes before the app got round to starting it', async () => {
    stopOutbox();
    await freshStore();
    network.onLine = false;
    const settled = await submitChange(update(7, { name: 'Magnolia' }, 2));
    expect(settled).toEqual({ sent: false, message: KEPT_OFFLINE });
    expect(outboxSnapshot().entries).toHaveLength(1);

    network.onLine = true;
    window.dispatchEvent(new Event('online'));
    await until(() => outboxSnapshot().loaded && outboxSnapshot().entries.length === 0);
    expect(requests.map((request) => [request.method, request.path])).toEqual([['PATCH', '/api/brands/7']]);
    stopOutbox();
  });
});
