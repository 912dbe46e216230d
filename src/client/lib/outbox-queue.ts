import type { OfflineDatabase, OutboxAction, OutboxEntry, SyncedCreate } from './offline-store';

/**
 * The queue of the outbox: every change waiting for the server, kept in the user's IndexedDB
 * database in the order it was made, so it outlives a reload or a closed tab. Changes to one
 * record stack in order, each later one based on the answer to the one before. A record created
 * on this device is named by its client key until its create is answered; from then on every
 * change that names the key is sent with the id the server gave the record.
 */

export type { OutboxAction, OutboxEntry };

/** The user's database: the outbox keeps its queue there, and reads the kept records and places beside it. */
export type OutboxDatabase = OfflineDatabase;

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

const CLIENT_KEY = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

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

/** `{businessId}|{resource}|{recordId}`: what the changes to one record share; none for a change to no record. */
export const targetOf = (entry: Pick<OutboxEntry, 'businessId' | 'resource' | 'recordId'>) =>
  entry.recordId === null ? null : `${entry.businessId}|${entry.resource}|${entry.recordId}`;

/**
 * Adds a change at the end of the queue. Made while another change to the same record waits, it
 * is stacked: its base version becomes that change's answer once it has one.
 */
export async function enqueue(db: OutboxDatabase, change: Change, key: string, madeOffline: boolean): Promise<OutboxEntry> {
  const target = targetOf(change) ?? undefined;
  const entry: OutboxEntry = { ...change, key, target, createdAt: Date.now(), madeOffline, attempts: 0, state: 'queued' };
  await db.transaction('rw', db.outbox, async () => {
    if (target !== undefined) entry.stacked = (await db.outbox.where('target').equals(target).count()) > 0;
    entry.seq = await db.outbox.add(entry);
  });
  return entry;
}

/** Every queued change, oldest first. */
export function queuedEntries(db: OutboxDatabase): Promise<OutboxEntry[]> {
  return db.outbox.orderBy('seq').toArray();
}

/**
 * Makes `body` the body of a queued create that was never sent, and answers true. A create that
 * was sent even once may be on the server already under its `Idempotency-Key`, which the server
 * holds to the body it first saw: it is left alone (false), and the edit must follow it as an
 * update of its own. So is a create that is no longer queued.
 */
export async function foldIntoCreate(db: OutboxDatabase, key: string, body: unknown): Promise<boolean> {
  return db.transaction('rw', db.outbox, async () => {
    const create = await db.outbox.where('key').equals(key).first();
    if (!create || create.action !== 'create' || create.attempts > 0 || create.state !== 'queued') return false;
    // The number it took from the device's block stays its own (number-blocks.ts).
    const taken = (create.body as { numbered?: unknown } | undefined)?.numbered;
    await db.outbox.update(create.seq!, { body: taken ? { ...(body as object), numbered: taken } : body });
    return true;
  });
}

/** Removes an entry, and when it was a create, every later change to the record it would make. */
export async function removeEntry(db: OutboxDatabase, key: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.where('key').equals(key).first();
    if (!entry) return;
    await db.outbox.delete(entry.seq!);
    if (entry.action === 'create' && entry.target) await db.outbox.where('target').equals(entry.target).delete();
  });
}

/**
 * Queues a parked entry afresh, `changes` applied first (a corrected body, a new base version).
 * A parked entry was refused, and the server keeps nothing of a refused request, so its key may
 * carry a corrected body.
 */
export async function requeue(db: OutboxDatabase, key: string, changes: Partial<Pick<OutboxEntry, 'body' | 'baseVersion'>>): Promise<void> {
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
}

/**
 * The server took the entry: it leaves the queue; a create leaves the id its record took, for
 * what names the record by its client key; and the changes stacked on the record learn its new
 * version.
 */
export async function answered(db: OutboxDatabase, entry: OutboxEntry, record: Record<string, unknown> | undefined): Promise<void> {
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

/** The client keys that an entry's path or body names, its own left out. */
export function namedKeys(entry: OutboxEntry): string[] {
  const text = `${entry.path} ${JSON.stringify(entry.body ?? null)}`;
  return [...text.matchAll(CLIENT_KEY)].map(([key]) => key).filter((key) => key !== entry.key);
}

/** Client keys in a path or body become the server ids their creates took; keys of creates not yet answered stay. */
export async function resolveKeys<T>(db: OutboxDatabase, value: T): Promise<T> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return value;
  let resolved = text;
  for (const [key] of text.matchAll(CLIENT_KEY)) {
    const synced = await db.synced.get(key);
    if (synced) resolved = resolved.replaceAll(typeof value === 'string' ? key : `"${key}"`, String(synced.id));
  }
  return (typeof value === 'string' ? resolved : JSON.parse(resolved)) as T;
}

/** The server id a record created on this device took when its create was answered. */
export function syncedId(db: OutboxDatabase, key: string): Promise<SyncedCreate | undefined> {
  return db.synced.get(key);
}

/** Every queued change is due now: the backoff is not waited out. */
export async function dueNow(db: OutboxDatabase): Promise<void> {
  await db.outbox.toCollection().modify({ nextAttemptAt: undefined });
}
