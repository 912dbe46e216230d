import { offlineDatabase, offlineDatabaseName, offlineDatabaseNameOf, onPlacesChanged, type SyncedCreate } from './offline-store';
import { syncedId as syncedIdIn, type Change, type OutboxDatabase, type OutboxEntry } from './outbox-queue';
import { createReplayEngine, type ReplayEngine, type Settled } from './outbox-replay';
import { changeSent, signInNeeded } from './outbox-events';
import { outboxSnapshot, watchOutbox } from './outbox-snapshot';

/**
 * The one path every change takes, online or offline (docs/architecture.md, "Offline"): a screen
 * queues the change in the signed-in user's outbox and waits for it. The outbox is three parts:
 * the queue (`outbox-queue.ts`), the replay engine that sends it (`outbox-replay.ts`) and the
 * snapshot the screens show (`outbox-snapshot.ts`). Nothing runs until the app starts the outbox
 * of the user whose session opened (`startOutbox`); `stopOutbox` ends it.
 */

export { clientKey, isClientKey } from './outbox-queue';
export type { Change, OutboxAction, OutboxEntry } from './outbox-queue';
export type { Settled } from './outbox-replay';

interface Running {
  /** The name of the user's database: whose outbox this is. */
  name: string;
  database: Promise<OutboxDatabase>;
  engine: ReplayEngine;
  stop: () => void;
}

let running: Running | null = null;

/**
 * Starts the outbox of the user whose offline store is open: watched for the screens, and sent
 * now, when the connection returns and when the tab is shown again; looked at again when the
 * user's places change (what can no longer be sent is parked). The outbox of another user
 * (or of a store opened before), if one runs, stops first; this one, if it runs, keeps running.
 */
export function startOutbox(): void {
  const name = offlineDatabaseName();
  const database = offlineDatabase();
  if (name === null || database === null || running?.database === database) return;
  stopOutbox();
  const engine = createReplayEngine(database, name, {
    sent: changeSent,
    signInNeeded,
  });
  const unwatch = watchOutbox(database, name);
  const onOnline = () => void engine.sendNow();
  const onShown = () => {
    if (document.visibilityState === 'visible' && outboxSnapshot().entries.length > 0) engine.kick();
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onShown);
  const unfollow = onPlacesChanged(() => engine.kick());
  running = {
    name,
    database,
    engine,
    stop: () => {
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onShown);
      unfollow();
      unwatch();
      engine.stop();
    },
  };
  engine.kick();
}

/** Stops the running outbox: nothing more is sent or watched until it is started again. */
export function stopOutbox(): void {
  running?.stop();
  running = null;
}

/**
 * The running outbox. A change made before the app got round to starting it (the start waits for
 * the first screen to draw, and on a busy device a quick hand can be faster) starts it here.
 */
function started(): Running {
  if (!running) startOutbox();
  if (!running) throw new Error('The outbox is opened once somebody is signed in.');
  return running;
}

/**
 * Queues a change and waits for it: `{sent: true, data}` with the server's answer, or
 * `{sent: false, message}` when it stays on this device for now. A refusal (422, 409, 412, 403,
 * 404) throws the server's `ApiError`, and the change leaves the outbox: the screen shows it.
 */
export async function submitChange<T>(change: Change, key?: string): Promise<Settled<T>> {
  return started().engine.submit<T>(change, key);
}

/**
 * Edits a create still on this device. While it was never sent its body becomes `body`; once it
 * was, `update` follows it as a change of its own, sent with the record's server id.
 */
export async function amendCreate<T>(key: string, body: unknown, update: Change): Promise<Settled<T>> {
  return started().engine.amendCreate<T>(key, body, update);
}

/** Removes an entry, and when it was a create, every later change to the record it would make. */
export async function discard(key: string): Promise<void> {
  return started().engine.discard(key);
}

/** Sends a parked entry again; `changes` edits it first (new body, a new base version). */
export async function retry(key: string, changes: Partial<Pick<OutboxEntry, 'body' | 'baseVersion'>> = {}): Promise<void> {
  return started().engine.retry(key, changes);
}

/** Sends what is queued without waiting out the backoff: the connection came back, or the user asked. */
export async function sendNow(): Promise<void> {
  await running?.engine.sendNow();
}

/** The server id a record created on this device took when it synced. */
export async function syncedId(key: string): Promise<SyncedCreate | undefined> {
  return syncedIdIn(await started().database, key);
}

/**
 * After signing in again: what a 401 held back is sent — when the same user signed in. Another
 * user's sign-in leaves the running outbox alone (its changes are never sent as someone else);
 * theirs starts when their session opens it.
 */
export function resumeAfterSignIn(userId: number): void {
  if (running?.name === offlineDatabaseNameOf(userId)) running.engine.resumeAfterSignIn();
}
