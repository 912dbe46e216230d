import { queuedEntries, type OutboxDatabase, type OutboxEntry } from './outbox-queue';
import { watchedValue } from './watched-value';

/**
 * What the screens see of the outbox: the queue as every tab changes it, read again after any
 * write to it in this tab or another — at most every OUTBOX_REFRESH_MS, so a replay of a thousand
 * entries does not re-read the whole queue a thousand times.
 */

export interface OutboxSnapshot {
  /** False until the outbox was read once: before that, "nothing queued" is not known. */
  loaded: boolean;
  /** Every queued change, oldest first. */
  entries: OutboxEntry[];
}

const OUTBOX_REFRESH_MS = 100;
const UNREAD: OutboxSnapshot = { loaded: false, entries: [] };

const snapshot = watchedValue(UNREAD);

/** The outbox as every tab changes it. For `useSyncExternalStore`. */
export const outboxSnapshot = snapshot.get;
export const subscribeToOutbox = snapshot.subscribe;

let readSoon: (() => void) | undefined;

/**
 * Reads the outbox again now, after this tab changed it: the storage events that tell every
 * tab may come late, and a screen opened meanwhile must not show the queue as it was.
 */
export function refreshOutbox(): void {
  readSoon?.();
}

/**
 * Keeps the snapshot to the outbox in `database` (named `name`) until the answer is called; from
 * then on the snapshot is unread again.
 */
export function watchOutbox(database: Promise<OutboxDatabase>, name: string): () => void {
  let watching = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  snapshot.set(UNREAD);

  let reads = 0;
  const read = async () => {
    timer = undefined;
    // Reads may finish out of order: only the last one started tells what the outbox holds now.
    const mine = ++reads;
    const entries = await queuedEntries(await database);
    if (watching && mine === reads) snapshot.set({ loaded: true, entries });
  };
  const report = (error: unknown) => console.error('The outbox cannot be read.', error);
  const onMutated = (parts: Record<string, unknown>) => {
    if (timer || !Object.keys(parts).some((part) => part.startsWith(`idb://${name}/outbox/`))) return;
    timer = setTimeout(() => void read().catch(report), OUTBOX_REFRESH_MS);
  };

  readSoon = () => void read().catch(report);

  import('dexie')
    .then(({ default: Dexie }) => {
      if (!watching) return;
      Dexie.on('storagemutated', onMutated);
      unsubscribe = () => Dexie.on.storagemutated.unsubscribe(onMutated);
      return read();
    })
    .catch(report);

  return () => {
    watching = false;
    readSoon = undefined;
    clearTimeout(timer);
    unsubscribe?.();
    snapshot.set(UNREAD);
  };
}
