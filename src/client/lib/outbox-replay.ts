import { findResource } from '../../domain/resources/registry';
import { api, ApiError } from './api';
import { numbered } from './number-blocks';
import { knownPlace, lostPlace, lostPlaceMessage, lostPlaceRefusal, placeName } from './kept-places';
import { followUserPlaces, offlineDatabaseNameOf, placesFollowed, type KeptPlaces, type UserPlaces } from './offline-store';
import { refreshOutbox } from './outbox-snapshot';
import {
  answered,
  clientKey,
  dueNow,
  enqueue,
  foldIntoCreate,
  namedKeys,
  queuedEntries,
  removeEntry,
  requeue,
  resolveKeys,
  targetOf,
  type Change,
  type OutboxDatabase,
  type OutboxEntry,
} from './outbox-queue';

/**
 * The replay engine of one user's outbox in one tab. It takes the screens' changes into the
 * queue and sends the queue in order, one tab at a time (a Web Lock named after the user's
 * database), each entry with its own `Idempotency-Key`, so a change is applied once however often
 * it is sent. A network failure, a timeout, a 5xx, 408 or 429 stops the replay, which tries again
 * later with a growing delay; a 401 keeps everything until the user signs in again; any other
 * refusal parks the entry as "needs attention" with the server's message, and the later changes
 * to its record wait behind it. A change at a place where the user no longer operates is parked
 * so without being sent (kept-places.ts). Nothing is dropped without the user saying so. The
 * screen that made a change learns how it ended, in this tab or another.
 */

/** How a change ended for the screen that made it. */
export type Settled<T> = { sent: true; data: T } | { sent: false; message: string };

type Outcome =
  | { kind: 'sent'; data: unknown }
  | { kind: 'kept'; message: string }
  | { kind: 'refused'; status: number; message: string; errors: Record<string, string[]> };

interface Announcement {
  entry: OutboxEntry;
  outcome: Outcome;
}

/** Why a replay stopped, and when to try again (never by itself: null). */
type Stop = { message: string; delay: number | null };

export const REPLAY_TIMEOUT_MS = 30_000;
const FIRST_RETRY_MS = 1000;
const RETRY_CEILING_MS = 60_000;

export const KEPT_OFFLINE = 'Saved on this device. It will be sent when the connection returns.';
export const KEPT_FOR_SIGN_IN = 'Saved on this device. Sign in again, and it will be sent.';
export const KEPT_BEHIND =
  'Saved on this device. It waits behind an earlier change to the same record that needs attention (see Pending changes).';

export interface ReplayEvents {
  /** A change reached the server, sent from this tab or another. */
  sent(entry: OutboxEntry, data: unknown): void;
  /** The server no longer knows the session: the rest waits until the user signs in. */
  signInNeeded(): void;
}

export interface ReplayEngine {
  /**
   * Queues a change and waits for it: `{sent: true, data}` with the server's answer, or
   * `{sent: false, message}` when it stays on this device for now. A refusal (422, 409, 412, 403,
   * 404) throws the server's `ApiError`, and the change leaves the outbox: the screen shows it.
   */
  submit<T>(change: Change, key?: string): Promise<Settled<T>>;
  /**
   * Edits a create still on this device. Never sent, it takes `body` as its own; sent already (the
   * server may hold it), the edit follows it as `update`, a change of its own.
   */
  amendCreate<T>(key: string, body: unknown, update: Change): Promise<Settled<T>>;
  /** Removes an entry, and when it was a create, every later change to the record it would make. */
  discard(key: string): Promise<void>;
  /** Sends a parked entry again; `changes` edits it first (new body, a new base version). */
  retry(key: string, changes?: Partial<Pick<OutboxEntry, 'body' | 'baseVersion'>>): Promise<void>;
  /** Sends what is queued without waiting out the backoff: the connection came back, or the user asked. */
  sendNow(): Promise<void>;
  /** The same user signed in again: what a 401 held back is sent. */
  resumeAfterSignIn(): void;
  /** Sends what is queued, now (or as soon as the tab now sending lets go). */
  kick(): void;
  /** Sends nothing more: a send under way is abandoned, as a closed tab would leave it. */
  stop(): void;
}

/** The delay before the `attempts`-th send of an entry that could not be sent: doubling from 1 s up to a minute, give or take a quarter. */
function backoff(attempts: number): number {
  return Math.min(RETRY_CEILING_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1)) * (0.75 + Math.random() * 0.5);
}

/** At most this many changes, and about this many bytes of them, go in one batch: far under the server's 1 MB a request. */
const BATCH_CHANGES = 50;
const BATCH_BYTES = 256 * 1024;

/** What `POST /api/batch` takes for one change (src/server/routes/batch.routes.ts). */
interface BatchChange {
  method: OutboxEntry['method'];
  path: string;
  body: unknown;
  business_id: number | null;
  idempotency_key: string;
  made_at: string;
  made_offline?: true;
  if_match?: string;
}

interface BatchAnswer {
  status: number;
  body: unknown;
}

type BatchResult = { sent: OutboxEntry[]; parked: OutboxEntry | null; untried: OutboxEntry | null } | { stop: Stop; from: OutboxEntry };

const isSuccess = (status: number) => status >= 200 && status <= 299;
const sizeOf = (entry: OutboxEntry) => entry.path.length + (entry.body === undefined ? 0 : JSON.stringify(entry.body).length);
const dataOf = (body: unknown) => (body as { data?: Record<string, unknown> } | null)?.data;

const isTemporary = (status: number) => status === 0 || status >= 500 || status === 408 || status === 429;

/** The engine of the outbox kept in `database`, whose name `name` is (unique per user). */
export function createReplayEngine(database: Promise<OutboxDatabase>, name: string, events: ReplayEvents): ReplayEngine {
  let running = false;
  let again = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let signInNeeded = false;
  let stopped = false;
  const sending = new AbortController();
  const waiters = new Map<string, (outcome: Outcome) => void>();

  function deliver({ entry, outcome }: Announcement): void {
    const waiter = waiters.get(entry.key);
    waiters.delete(entry.key);
    waiter?.(outcome);
    if (outcome.kind === 'sent') events.sent(entry, outcome.data);
  }

  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`${name}-outbox`) : null;
  const hear = (event: MessageEvent<Announcement>) => deliver(event.data);
  channel?.addEventListener('message', hear);

  /** Tells the screen waiting for the entry, here or in another tab. */
  function announce(entry: OutboxEntry, outcome: Outcome): void {
    deliver({ entry, outcome });
    channel?.postMessage({ entry, outcome });
  }

  function waitFor(key: string): Promise<Outcome> {
    return new Promise((resolve) => waiters.set(key, resolve));
  }

  /** Waits for the fate of one entry; a refusal hands it back to the screen, which shows why. */
  async function settle<T>(key: string, waiting: Promise<Outcome>): Promise<Settled<T>> {
    const outcome = await waiting;
    if (outcome.kind === 'sent') return { sent: true, data: outcome.data as T };
    if (outcome.kind === 'kept') return { sent: false, message: outcome.message };
    await discard(key);
    throw new ApiError(outcome.status, outcome.message, outcome.errors);
  }

  async function submit<T>(change: Change, key = clientKey()): Promise<Settled<T>> {
    const waiting = waitFor(key);
    try {
      // A new document of a series the device holds numbers of takes its final number now.
      const db = await database;
      await enqueue(db, await numbered(db, change), key, !navigator.onLine);
    } catch (error) {
      waiters.delete(key);
      throw error;
    }
    refreshOutbox();
    kick();
    return settle<T>(key, waiting);
  }

  async function amendCreate<T>(key: string, body: unknown, update: Change): Promise<Settled<T>> {
    if (!(await foldIntoCreate(await database, key, body))) return submit<T>(update);
    refreshOutbox();
    const waiting = waitFor(key);
    kick();
    return settle<T>(key, waiting);
  }

  async function discard(key: string): Promise<void> {
    await removeEntry(await database, key);
    kick();
  }

  async function retry(key: string, changes: Partial<Pick<OutboxEntry, 'body' | 'baseVersion'>> = {}): Promise<void> {
    await requeue(await database, key, changes);
    kick();
  }

  async function sendNow(): Promise<void> {
    await dueNow(await database);
    kick();
  }

  function resumeAfterSignIn(): void {
    signInNeeded = false;
    kick();
  }

  function kick(): void {
    if (stopped || signInNeeded) return;
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
      } while (again && !signInNeeded && !stopped);
    })
      .catch((error: unknown) => {
        if (!stopped) console.error('The outbox could not be sent.', error);
      })
      .finally(() => {
        running = false;
        // A kick that came after the last pass ended, while the lock was being let go, is not lost.
        if (again) kick();
      });
  }

  function stop(): void {
    stopped = true;
    clearTimeout(retryTimer);
    sending.abort();
    channel?.removeEventListener('message', hear);
    channel?.close();
  }

  async function underLock(work: () => Promise<void>): Promise<void> {
    if (navigator.locks) await navigator.locks.request(`${name}-outbox`, work);
    else await work();
  }

  /**
   * One pass over the queue, in order, sent in batches (`POST /api/batch`). A batch ends before a
   * change that must see an answer in it first: a second change to a record already in the batch
   * (it is based on the first one's answer), or a change naming a create in the batch (it needs
   * the id the create takes).
   */
  async function replay(): Promise<void> {
    const db = await database;
    let queue = await queuedEntries(db);
    if (queue.length === 0 || stopped) return;
    // Places that changed have told each queued change where its record was: read them again.
    if (navigator.onLine && (await confirmPlaces(db, queue))) queue = await queuedEntries(db);
    await parkLostPlaces(db, queue);
    if (!navigator.onLine) {
      for (const entry of queue) announce(entry, { kind: 'kept', message: KEPT_OFFLINE });
      return;
    }
    const held = new Set<string>();
    const creates = new Set(queue.filter((entry) => entry.action === 'create').map((entry) => entry.key));
    let batch: OutboxEntry[] = [];
    let bytes = 0;
    let index = 0;
    while (!stopped) {
      const entry = queue[index] as OutboxEntry | undefined;
      const size = entry === undefined ? 0 : sizeOf(entry);
      if (batch.length > 0 && (entry === undefined || endsBatch(batch, bytes + size, entry))) {
        const result = await sendBatch(db, batch);
        if ('stop' in result) {
          holdBack(queue.slice(queue.findIndex(({ key }) => key === result.from.key)), result.stop.message, result.stop.delay);
          return;
        }
        for (const sent of result.sent) creates.delete(sent.key);
        const target = result.parked && targetOf(result.parked);
        if (target) held.add(target);
        // What the batch did not reach is looked at again, in order.
        if (result.untried) index = queue.findIndex(({ key }) => key === result.untried!.key);
        batch = [];
        bytes = 0;
        continue;
      }
      if (entry === undefined) return;
      index += 1;
      const target = targetOf(entry);
      // A change waits behind a parked change to its record, and behind the creates it names.
      const awaited = namedKeys(entry).some((key) => creates.has(key));
      if (entry.state === 'needs-attention' || (target !== null && held.has(target)) || awaited) {
        if (target !== null) held.add(target);
        if (entry.state !== 'needs-attention') announce(entry, { kind: 'kept', message: KEPT_BEHIND });
        continue;
      }
      if (entry.nextAttemptAt && entry.nextAttemptAt > Date.now()) {
        holdBack(queue.slice(index - 1), entry.message ?? KEPT_OFFLINE, entry.nextAttemptAt - Date.now());
        return;
      }
      batch.push(entry);
      bytes += size;
    }
  }

  /** A signal that aborts after REPLAY_TIMEOUT_MS, or when the engine stops; `done` lets go of it. */
  function timedSignal(): { signal: AbortSignal; done: () => void } {
    const timeout = new AbortController();
    const abort = () => timeout.abort();
    const timer = setTimeout(abort, REPLAY_TIMEOUT_MS);
    sending.signal.addEventListener('abort', abort);
    return {
      signal: timeout.signal,
      done: () => {
        clearTimeout(timer);
        sending.signal.removeEventListener('abort', abort);
      },
    };
  }

  /** Whether the entry is checked against the user's places: a change, waiting, of a record of a place. */
  const atAPlace = (entry: OutboxEntry) =>
    entry.state !== 'needs-attention' && entry.businessId !== null && findResource(entry.resource)?.places !== undefined;

  /**
   * Before a business's changes are first sent from this page, the user's places there are asked
   * of the server — unless the session fetched them already — for the device may keep places
   * changed since. Only where the device keeps places (a business it followed); an unanswered
   * question leaves the changes to the server, which refuses what it must. True when places changed.
   */
  async function confirmPlaces(db: OutboxDatabase, queue: OutboxEntry[]): Promise<boolean> {
    const businesses = new Set(queue.filter(atAPlace).map((entry) => entry.businessId!));
    let changed = false;
    for (const businessId of businesses) {
      let followed = placesFollowed(name, businessId);
      if (!followed && (await db.places.get(businessId))) {
        const timeout = timedSignal();
        followed = api<UserPlaces>('GET', '/api/auth/user', { businessId, signal: timeout.signal })
          .then((user) => offlineDatabaseNameOf(user.id) === name && followUserPlaces(name, database, user))
          .catch(() => false)
          .finally(timeout.done);
      }
      changed = (await followed) === true || changed;
      if (stopped) break;
    }
    return changed;
  }

  /**
   * Parks, unsent, each change made at a place where the user, as the device keeps their places,
   * no longer operates: in Pending changes with the reason, for them to copy and discard.
   */
  async function parkLostPlaces(db: OutboxDatabase, queue: OutboxEntry[]): Promise<void> {
    const kept = new Map<number, KeptPlaces | undefined>();
    for (const entry of queue.filter(atAPlace)) {
      const businessId = entry.businessId!;
      if (!kept.has(businessId)) kept.set(businessId, await db.places.get(businessId));
      const places = kept.get(businessId);
      if (!places) continue;
      const lost = lostPlace(entry, places.access, entry.at ? null : await knownPlace(db, entry));
      if (!lost) continue;
      const where = await placeName(db, businessId, lost, places.names);
      await db.outbox.update(entry.seq!, { state: 'needs-attention', status: 403, message: lostPlaceMessage(where), errors: {} });
      entry.state = 'needs-attention';
      announce(entry, { kind: 'refused', status: 403, message: lostPlaceRefusal(where), errors: {} });
    }
  }

  /** True when `next` must wait for the answers to `batch` (`bytes` with it): see `replay`. */
  function endsBatch(batch: OutboxEntry[], bytes: number, next: OutboxEntry): boolean {
    if (batch.length >= BATCH_CHANGES || bytes > BATCH_BYTES) return true;
    if (next.nextAttemptAt && next.nextAttemptAt > Date.now()) return true;
    const target = targetOf(next);
    const named = new Set(namedKeys(next));
    // Entries counted on one stock count only add up: they need no answer from each other.
    const adding = (entry: OutboxEntry) => entry.action === 'count' && next.action === 'count';
    return batch.some((entry) => (target !== null && targetOf(entry) === target && !adding(entry)) || named.has(entry.key));
  }

  function holdBack(rest: OutboxEntry[], message: string, delay: number | null): void {
    if (stopped) return;
    for (const entry of rest) announce(entry, { kind: 'kept', message });
    if (delay !== null) retryTimer = setTimeout(kick, delay);
  }

  /**
   * Sends a batch (each entry's send counts as an attempt) and settles what it answered: the
   * entries sent, the one parked if the batch stopped at a refusal, and the first one it did not
   * reach; or why the replay must stop, from which entry on.
   */
  async function sendBatch(db: OutboxDatabase, batch: OutboxEntry[]): Promise<BatchResult> {
    const attempts = await markSending(db, batch);
    if (attempts.length === 0) return { sent: [], parked: null, untried: null };
    const timeout = timedSignal();
    let answers: BatchAnswer[];
    try {
      const changes = await Promise.all(attempts.map((entry) => changeOf(db, entry)));
      ({ data: answers } = await api<{ data: BatchAnswer[] }>('POST', '/api/batch', {
        body: { changes },
        businessId: null,
        signal: timeout.signal,
      }));
      if (!Array.isArray(answers) || answers.length === 0) throw new ApiError(502, 'The server answered the batch with nothing.');
    } catch (error) {
      // Stopped mid-send: the entries stay as they are, to be sent again by the next engine.
      if (stopped) return { stop: { message: KEPT_OFFLINE, delay: null }, from: attempts[0] };
      const failure = error instanceof ApiError ? error : new ApiError(0, 'The server cannot be reached.');
      // Without an answer the server may hold any of them, and their attempts stand; a batch
      // refused as a whole was not tried.
      await putBack(db, attempts.slice(1), isTemporary(failure.status) ? failure : null);
      const halt = await refused(db, attempts[0], failure);
      return halt ? { stop: halt, from: attempts[0] } : { sent: [], parked: attempts[0], untried: attempts[1] ?? null };
    } finally {
      timeout.done();
    }
    const failed = answers.findIndex((answer) => !isSuccess(answer.status));
    const sent = attempts.slice(0, failed === -1 ? answers.length : failed);
    await db.transaction('rw', db.outbox, db.synced, async () => {
      for (const [at, entry] of sent.entries()) await answered(db, entry, dataOf(answers[at].body));
    });
    for (const [at, entry] of sent.entries()) announce(entry, { kind: 'sent', data: answers[at].body });
    const answer = failed === -1 ? undefined : answers[failed];
    // What the batch did not reach was never tried: it is queued as it was.
    const unreached = attempts.slice(sent.length + (answer ? 1 : 0));
    await putBack(db, unreached, null);
    if (!answer) return { sent, parked: null, untried: unreached[0] ?? null };
    const stoppedAt = attempts[failed];
    const body = answer.body as { message?: string; errors?: Record<string, string[]> } | null;
    const failure = new ApiError(answer.status, body?.message ?? `The server answered ${answer.status}.`, body?.errors ?? {});
    const halt = await refused(db, stoppedAt, failure);
    return halt ? { stop: halt, from: stoppedAt } : { sent, parked: stoppedAt, untried: unreached[0] ?? null };
  }

  /**
   * Marks the batch's entries as being sent, one attempt more each, and answers them as they now
   * are; an entry discarded or parked meanwhile is left out.
   */
  async function markSending(db: OutboxDatabase, batch: OutboxEntry[]): Promise<OutboxEntry[]> {
    return db.transaction('rw', db.outbox, async () => {
      const current = await db.outbox.bulkGet(batch.map((entry) => entry.seq!));
      const attempts = current
        .filter((entry): entry is OutboxEntry => entry !== undefined && entry.state !== 'needs-attention')
        .map((entry) => ({ ...entry, state: 'syncing' as const, attempts: entry.attempts + 1 }));
      for (const entry of attempts) await db.outbox.update(entry.seq!, { state: entry.state, attempts: entry.attempts });
      return attempts;
    });
  }

  /**
   * Queues entries of a batch again. Never tried (no `failure`), their attempt is taken back; after
   * a failure the server may hold them: their attempt stands, with why they wait.
   */
  async function putBack(db: OutboxDatabase, entries: OutboxEntry[], failure: ApiError | null): Promise<void> {
    if (entries.length === 0) return;
    await db.transaction('rw', db.outbox, async () => {
      for (const entry of entries) {
        await db.outbox.update(
          entry.seq!,
          failure
            ? {
                state: 'queued',
                status: failure.status,
                message: failure.status === 0 ? KEPT_OFFLINE : failure.message,
                madeOffline: entry.madeOffline || (failure.status === 0 && entry.attempts === 1),
              }
            : { state: 'queued', attempts: entry.attempts - 1 },
        );
      }
    });
  }

  /** An entry as the batch carries it: the request it would be alone, with its client keys resolved. */
  async function changeOf(db: OutboxDatabase, entry: OutboxEntry): Promise<BatchChange> {
    return {
      method: entry.method,
      path: await resolveKeys(db, entry.path),
      body: await resolveKeys(db, entry.body),
      business_id: entry.businessId,
      idempotency_key: entry.key,
      made_at: new Date(entry.createdAt).toISOString(),
      ...(entry.madeOffline && { made_offline: true }),
      ...(entry.baseVersion !== undefined && entry.action === 'update' && { if_match: `"${entry.baseVersion}"` }),
    };
  }

  async function refused(db: OutboxDatabase, entry: OutboxEntry, error: ApiError): Promise<Stop | null> {
    if (isTemporary(error.status)) {
      const delay = backoff(entry.attempts);
      const message = error.status === 0 ? KEPT_OFFLINE : `The server could not take it now (${error.status}); it will be sent again.`;
      // A change whose very first send found no network was made offline, whatever navigator.onLine said.
      const madeOffline = entry.madeOffline || (error.status === 0 && entry.attempts === 1);
      await db.outbox.update(entry.seq!, {
        state: 'queued',
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
      events.signInNeeded();
      return { message: KEPT_FOR_SIGN_IN, delay: null };
    }
    const serverRecord = error.status === 412 ? await currentRecord(db, entry) : undefined;
    await db.outbox.update(entry.seq!, {
      state: 'needs-attention',
      status: error.status,
      message: error.message,
      errors: error.errors,
      serverRecord,
    });
    announce(entry, { kind: 'refused', status: error.status, message: error.message, errors: error.errors });
    return null;
  }

  return { submit, amendCreate, discard, retry, sendNow, resumeAfterSignIn, kick, stop };
}

/** After a 412: the record as the server holds it now, to compare with the queued values. */
async function currentRecord(db: OutboxDatabase, entry: OutboxEntry): Promise<Record<string, unknown> | undefined> {
  try {
    const path = await resolveKeys(db, `/api/${entry.resource}/${String(entry.recordId)}`);
    const answer = await api<{ data: Record<string, unknown> }>('GET', path, {
      businessId: entry.businessId,
    });
    return answer.data;
  } catch {
    return undefined;
  }
}
