import { api, ApiError } from './api';
import {
  offlineDatabase,
  offlineDatabaseName,
  offlineDatabaseNameOf,
  type OutboxAction,
  type OutboxEntry,
  type SyncedCreate,
} from './offline-store';

/**
 * The one path every change takes, online or offline (docs/architecture.md, "Offline"): a screen
 * queues the change in the user's IndexedDB outbox and waits for it; one tab at a time (a Web
 * Lock) sends the queue in order, each entry with its own `Idempotency-Key`, so a change is
 * applied once however often it is sent. A network failure, a 5xx, 408 or 429 stops the replay
 * and retries later with backoff; a 401 keeps everything until the user signs in again; any
 * other refusal parks the entry as "needs attention" with the server's message. Nothing is
 * dropped without the user saying so.
 */

export type { OutboxAction, OutboxEntry };

export interface Change {
  businessId: number | null;
  resource: string;
  action: OutboxAction;
  recordId: number | string | null;
  method: OutboxEntry['method'];
  path: string;
  body?: unknown;
  baseVersion?: number;
  label: string;
}

/** How a change ended for the screen that made it. */
export type Settled<T> = { sent: true; data: T } | { sent: false; message: string };

type Outcome =
  | { kind: 'sent'; data: unknown }
  | { kind: 'kept'; message: string }
  | { kind: 'refused'; status: number; message: string; errors: Record<string, string[]> };

const REPLAY_TIMEOUT_MS = 30_000;
const RETRY_CEILING_MS = 60_000;
const OUTBOX_REFRESH_MS = 100;
const CLIENT_KEY = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const KEPT_OFFLINE = 'Saved on this device. It will be sent when the connection returns.';
const KEPT_FOR_SIGN_IN = 'Saved on this device. Sign in again, and it will be sent.';
const KEPT_BEHIND =
  'Saved on this device. It waits behind an earlier change to the same record that needs attention (see Pending changes).';

/** A v4 UUID, also where `crypto.randomUUID` is missing (a page served over plain http). */
export function clientKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** True for the id of a record created on this device that has not reached the server yet. */
export function isClientKey(id: unknown): id is string {
  return typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}

function database() {
  const opening = offlineDatabase();
  if (!opening) throw new Error('The outbox is opened once somebody is signed in.');
  return opening;
}

// ---- What the screens see ----------------------------------------------------------------

export interface OutboxSnapshot {
  /** False until the outbox was read once: before that, "nothing queued" is not known. */
  loaded: boolean;
  /** Every queued change, oldest first. */
  entries: OutboxEntry[];
}

let snapshot: OutboxSnapshot = { loaded: false, entries: [] };
const watchers = new Set<() => void>();
let watched: string | null = null;
let unwatch: (() => void) | null = null;

/** The outbox as every tab changes it. For `useSyncExternalStore`. */
export function outboxSnapshot(): OutboxSnapshot {
  return snapshot;
}

export function subscribeToOutbox(watcher: () => void): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

function publish(next: OutboxSnapshot): void {
  snapshot = next;
  for (const watcher of watchers) watcher();
}

// ---- Outcomes, to the screen waiting in this tab or another ----------------------------------

const waiters = new Map<string, (outcome: Outcome) => void>();
const sentListeners = new Set<(entry: OutboxEntry, data: unknown) => void>();
const signInListeners = new Set<() => void>();

/** Called in every tab when a change reached the server: what shows it must refresh. */
export function onChangeSent(listener: (entry: OutboxEntry, data: unknown) => void): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

/** Called when the server no longer knows the session: the user must sign in for the rest to go. */
export function onSignInNeeded(listener: () => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}

interface Announcement {
  entry: OutboxEntry;
  outcome: Outcome;
}

function deliver({ entry, outcome }: Announcement): void {
  const waiter = waiters.get(entry.key);
  waiters.delete(entry.key);
  waiter?.(outcome);
  if (outcome.kind === 'sent') for (const listener of sentListeners) listener(entry, outcome.data);
}

const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('bodega-outbox') : null;
channel?.addEventListener('message', (event: MessageEvent<Announcement>) => deliver(event.data));

/** Tells the screen waiting for the entry, here or in another tab. */
function announce(entry: OutboxEntry, outcome: Outcome): void {
  deliver({ entry, outcome });
  channel?.postMessage({ entry, outcome });
}

// ---- Queueing ------------------------------------------------------------------------------

const targetOf = (entry: Pick<OutboxEntry, 'businessId' | 'resource' | 'recordId'>) =>
  entry.recordId === null ? null : `${entry.businessId}|${entry.resource}|${entry.recordId}`;

async function enqueue(change: Change, key = clientKey()): Promise<OutboxEntry> {
  const db = await database();
  const target = targetOf(change) ?? undefined;
  const entry: OutboxEntry = {
    ...change,
    key,
    target,
    createdAt: Date.now(),
    madeOffline: !navigator.onLine,
    attempts: 0,
    state: 'queued',
  };
  await db.transaction('rw', db.outbox, async () => {
    if (target !== undefined) entry.stacked = (await db.outbox.where('target').equals(target).count()) > 0;
    await db.outbox.add(entry);
  });
  return entry;
}

/** Waits for the fate of one entry; a refusal hands it back to the screen, which shows why. */
async function settle<T>(key: string, waiting: Promise<Outcome>): Promise<Settled<T>> {
  const outcome = await waiting;
  if (outcome.kind === 'sent') return { sent: true, data: outcome.data as T };
  if (outcome.kind === 'kept') return { sent: false, message: outcome.message };
  await discard(key);
  throw new ApiError(outcome.status, outcome.message, outcome.errors);
}

function waitFor(key: string): Promise<Outcome> {
  return new Promise((resolve) => waiters.set(key, resolve));
}

/**
 * Queues a change and waits for it: `{sent: true, data}` with the server's answer, or
 * `{sent: false, message}` when it stays on this device for now. A refusal (422, 409, 412, 403,
 * 404) throws the server's `ApiError`, and the change leaves the outbox: the screen shows it.
 */
export async function submitChange<T>(change: Change, key = clientKey()): Promise<Settled<T>> {
  const waiting = waitFor(key);
  try {
    await enqueue(change, key);
  } catch (error) {
    waiters.delete(key);
    throw error;
  }
  kick();
  return settle<T>(key, waiting);
}

/**
 * Edits a create still on this device: its body becomes `body`, and it is queued again. When it
 * is being sent at this moment, the edit follows it as an update of the record it creates.
 */
export async function amendCreate<T>(key: string, body: unknown, change: Change): Promise<Settled<T>> {
  const db = await database();
  const amended = await db.transaction('rw', db.outbox, async () => {
    const create = await db.outbox.where('key').equals(key).first();
    if (!create || create.state === 'syncing') return false;
    await db.outbox.update(create.seq!, {
      body,
      state: 'queued',
      status: undefined,
      message: undefined,
      errors: undefined,
      nextAttemptAt: undefined,
    });
    return true;
  });
  if (!amended) return submitChange<T>(change);
  const waiting = waitFor(key);
  kick();
  return settle<T>(key, waiting);
}

/** Removes an entry, and when it was a create, every later change to the record it would make. */
export async function discard(key: string): Promise<void> {
  const db = await database();
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.where('key').equals(key).first();
    if (!entry) return;
    await db.outbox.delete(entry.seq!);
    if (entry.action === 'create' && entry.target) await db.outbox.where('target').equals(entry.target).delete();
  });
  kick();
}

/** Sends a parked entry again; `changes` edits it first (new body, a new base version). */
export async function retry(key: string, changes: Partial<Pick<OutboxEntry, 'body' | 'baseVersion'>> = {}): Promise<void> {
  const db = await database();
  const entry = await db.outbox.where('key').equals(key).first();
  if (!entry) return;
  await db.outbox.update(entry.seq!, {
    ...changes,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: undefined,
    status: undefined,
    message: undefined,
    errors: undefined,
    serverRecord: undefined,
  });
  kick();
}

/** The server id a record created on this device took when it synced. */
export async function syncedId(key: string): Promise<SyncedCreate | undefined> {
  return (await database()).synced.get(key);
}

// ---- Replaying -----------------------------------------------------------------------------

let running = false;
let again = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let signInNeeded = false;

/** Starts (or resumes) the outbox of the signed-in user: watched for the screens, and sent. */
export function startOutbox(): void {
  const name = offlineDatabaseName();
  if (name === null) return;
  if (watched !== name) {
    watched = name;
    // Another user's outbox: what held the last one back (a 401) is not this one's to wait for.
    signInNeeded = false;
    unwatch?.();
    unwatch = null;
    publish({ loaded: false, entries: [] });
    void watch(name);
  }
}

/**
 * After signing in again: what a 401 held back is sent — when the same user signed in. Another
 * user's sign-in leaves the open outbox alone (its changes are never sent as someone else);
 * theirs starts when their session opens it.
 */
export function resumeAfterSignIn(userId: number): void {
  if (offlineDatabaseName() !== offlineDatabaseNameOf(userId)) return;
  signInNeeded = false;
  kick();
}

/**
 * Keeps the snapshot current: after any write to the outbox, in this tab or another, it is read
 * again — at most every OUTBOX_REFRESH_MS, so a replay of a thousand entries does not re-read the
 * whole outbox a thousand times.
 */
async function watch(name: string): Promise<void> {
  const [{ default: Dexie }, db] = await Promise.all([import('dexie'), database()]);
  if (watched !== name) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = async () => {
    timer = undefined;
    const current = await db.outbox.orderBy('seq').toArray();
    if (watched === name) publish({ loaded: true, entries: current });
  };
  const onMutated = (parts: Record<string, unknown>) => {
    if (timer || !Object.keys(parts).some((part) => part.startsWith(`idb://${name}/outbox/`))) return;
    timer = setTimeout(() => void read().catch((error: unknown) => console.error('The outbox cannot be read.', error)), OUTBOX_REFRESH_MS);
  };
  Dexie.on('storagemutated', onMutated);
  unwatch = () => {
    Dexie.on.storagemutated.unsubscribe(onMutated);
    clearTimeout(timer);
  };
  await read();
  kick();
}

/** Sends what is queued, now (or as soon as the tab now sending lets go). */
function kick(): void {
  if (offlineDatabaseName() === null || signInNeeded) return;
  if (running) {
    again = true;
    return;
  }
  running = true;
  clearTimeout(retryTimer);
  void underLock(async () => {
    do {
      again = false;
      await replay();
    } while (again && !signInNeeded);
  })
    .catch((error: unknown) => console.error('The outbox could not be sent.', error))
    .finally(() => {
      running = false;
    });
}

async function underLock(work: () => Promise<void>): Promise<void> {
  const name = `${offlineDatabaseName()}-outbox`;
  if (navigator.locks) await navigator.locks.request(name, work);
  else await work();
}

function backoff(attempts: number): number {
  return Math.min(RETRY_CEILING_MS, 1000 * 2 ** Math.max(0, attempts - 1)) * (0.75 + Math.random() * 0.5);
}

/** Keys of the creates still queued that a change's path or body names: it must wait for them. */
function awaitedCreates(entry: OutboxEntry, creates: Set<string>): boolean {
  const text = `${entry.path} ${JSON.stringify(entry.body ?? null)}`;
  return [...text.matchAll(CLIENT_KEY)].some(([key]) => key !== entry.key && creates.has(key));
}

/** Client keys in a path or body become the server ids their creates took. */
async function resolveKeys<T>(value: T): Promise<T> {
  const db = await database();
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return value;
  let resolved = text;
  for (const [key] of text.matchAll(CLIENT_KEY)) {
    const synced = await db.synced.get(key);
    if (synced) resolved = resolved.replaceAll(typeof value === 'string' ? key : `"${key}"`, String(synced.id));
  }
  return (typeof value === 'string' ? resolved : JSON.parse(resolved)) as T;
}

/** One pass over the outbox, in order. */
async function replay(): Promise<void> {
  const db = await database();
  const queue = await db.outbox.orderBy('seq').toArray();
  if (queue.length === 0) return;
  if (!navigator.onLine) {
    for (const entry of queue) announce(entry, { kind: 'kept', message: KEPT_OFFLINE });
    return;
  }
  const held = new Set<string>();
  const creates = new Set(queue.filter((entry) => entry.action === 'create').map((entry) => entry.key));
  for (const [index, queued] of queue.entries()) {
    const entry = await db.outbox.get(queued.seq!);
    if (!entry) continue;
    const target = targetOf(entry);
    if (entry.state === 'needs-attention' || (target !== null && held.has(target)) || awaitedCreates(entry, creates)) {
      if (target !== null) held.add(target);
      if (entry.state !== 'needs-attention') announce(entry, { kind: 'kept', message: KEPT_BEHIND });
      continue;
    }
    if (entry.nextAttemptAt && entry.nextAttemptAt > Date.now()) {
      holdBack(queue.slice(index), entry.message ?? KEPT_OFFLINE, entry.nextAttemptAt - Date.now());
      return;
    }
    const stop = await send(entry);
    if (stop) {
      holdBack(queue.slice(index), stop.message, stop.delay);
      return;
    }
    creates.delete(entry.key);
  }
}

function holdBack(rest: OutboxEntry[], message: string, delay: number | null): void {
  for (const entry of rest) announce(entry, { kind: 'kept', message });
  if (delay !== null) retryTimer = setTimeout(kick, delay);
}

/** Sends one entry; answers why the replay must stop, if it must. */
async function send(entry: OutboxEntry): Promise<{ message: string; delay: number | null } | null> {
  const db = await database();
  await db.outbox.update(entry.seq!, { state: 'syncing' });
  const path = await resolveKeys(entry.path);
  const headers: Record<string, string> = { 'Idempotency-Key': entry.key, 'X-Made-At': new Date(entry.createdAt).toISOString() };
  if (entry.madeOffline) headers['X-Made-Offline'] = 'true';
  if (entry.baseVersion !== undefined && entry.action === 'update') headers['If-Match'] = `"${entry.baseVersion}"`;
  try {
    const answer = await api<{ data?: Record<string, unknown> } | undefined>(entry.method, path, {
      body: await resolveKeys(entry.body),
      headers,
      businessId: entry.businessId,
      signal: AbortSignal.timeout(REPLAY_TIMEOUT_MS),
    });
    await sent(entry, answer?.data);
    announce(entry, { kind: 'sent', data: answer });
    return null;
  } catch (error) {
    const failure = error instanceof ApiError ? error : new ApiError(0, 'The server cannot be reached.');
    return refused(entry, failure);
  }
}

/** The entry is done: it leaves the outbox, and what followed it learns the record's new version. */
async function sent(entry: OutboxEntry, record: Record<string, unknown> | undefined): Promise<void> {
  const db = await database();
  await db.transaction('rw', db.outbox, db.synced, async () => {
    await db.outbox.delete(entry.seq!);
    if (entry.action === 'create' && typeof record?.id === 'number') {
      await db.synced.put({ key: entry.key, resource: entry.resource, id: record.id });
    }
    if (entry.target && typeof record?.version === 'number') {
      await db.outbox
        .where('target')
        .equals(entry.target)
        .filter((later) => later.stacked === true)
        .modify({ baseVersion: record.version });
    }
  });
}

async function refused(entry: OutboxEntry, error: ApiError): Promise<{ message: string; delay: number | null } | null> {
  const db = await database();
  const temporary = error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429;
  if (temporary) {
    const attempts = entry.attempts + 1;
    const delay = backoff(attempts);
    const message = error.status === 0 ? KEPT_OFFLINE : `The server could not take it now (${error.status}); it will be sent again.`;
    // A change whose very first send found no network was made offline, whatever navigator.onLine said.
    const madeOffline = entry.madeOffline || (error.status === 0 && entry.attempts === 0);
    await db.outbox.update(entry.seq!, {
      state: 'queued',
      attempts,
      nextAttemptAt: Date.now() + delay,
      status: error.status,
      message,
      madeOffline,
    });
    return { message, delay: navigator.onLine ? delay : null };
  }
  if (error.status === 401) {
    signInNeeded = true;
    await db.outbox.update(entry.seq!, { state: 'queued', status: 401, message: KEPT_FOR_SIGN_IN });
    for (const listener of signInListeners) listener();
    return { message: KEPT_FOR_SIGN_IN, delay: null };
  }
  const serverRecord = error.status === 412 ? await currentRecord(entry) : undefined;
  await db.outbox.update(entry.seq!, {
    state: 'needs-attention',
    attempts: entry.attempts + 1,
    status: error.status,
    message: error.message,
    errors: error.errors,
    serverRecord,
  });
  announce(entry, { kind: 'refused', status: error.status, message: error.message, errors: error.errors });
  return null;
}

/** After a 412: the record as the server holds it now, to compare with the queued values. */
async function currentRecord(entry: OutboxEntry): Promise<Record<string, unknown> | undefined> {
  try {
    const answer = await api<{ data: Record<string, unknown> }>('GET', `/api/${entry.resource}/${String(entry.recordId)}`, {
      businessId: entry.businessId,
    });
    return answer.data;
  } catch {
    return undefined;
  }
}

/** Sends what is queued without waiting out the backoff: the connection came back, or the user asked. */
export async function sendNow(): Promise<void> {
  await offlineDatabase()?.then((db) => db.outbox.toCollection().modify({ nextAttemptAt: undefined }));
  kick();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void sendNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && snapshot.entries.length > 0) kick();
  });
}
