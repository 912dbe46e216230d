import type { Dexie, Table } from 'dexie';
import type { PlaceAccess, PlaceType } from '../../domain/places';
import { toast } from './notify';
import { activeBusinessId, ApiError } from './api';
import { USER_RETRIEVED } from './kept-access';
import { keptUserId } from './kept-session';
import { followPlaces, type NamedPlaces } from './kept-places';
import { keptRow, versionOf } from './kept-records';
import { yieldWhereAble } from './next-turn';
import { declareOfflineSchema } from './offline-schema';

/**
 * What this device has seen, for reading back without a network: every successful list and
 * record answer, in one IndexedDB database per signed-in user, keyed by business so that one
 * business never shows another's rows. Records are also kept one by one, so that offline a list or
 * a picker can be searched by its own fields among them (`kept-search.ts`). Dexie loads on
 * demand, so the first screen does not wait for it.
 */

interface SavedAnswer {
  /** `{businessId}|{resource}|{list|record}|{query or id}`, or an overview card's `{businessId}|overview|{card}|{query}` */
  key: string;
  businessId: number;
  resource: string;
  savedAt: number;
  body: unknown;
}

export interface SavedRecord {
  /** `{businessId}|{resource}|{id}` */
  key: string;
  businessId: number;
  resource: string;
  record: Record<string, unknown>;
  savedAt: number;
}

/**
 * A page of a working set's records (kept-records.ts): every record of the resource kept with an
 * id after `after`, up to `last` (Infinity: every id after), in id order. Keyed by all four.
 */
export interface KeptPage {
  businessId: number;
  resource: string;
  after: number;
  last: number;
  records: Record<string, unknown>[];
  /** When the server sent it. */
  savedAt: number;
}

/**
 * What a page holds, kept beside it under the same key (kept-records.ts writes both in one
 * transaction): its records' ids in order, and those of them in the trash. A list's first page
 * offline (kept-id-order.ts) finds its records by these, and reads only the pages that hold them.
 */
export interface KeptPageSummary {
  businessId: number;
  resource: string;
  after: number;
  last: number;
  ids: number[];
  trashed: number[];
}

/** A block of document numbers the device holds (number-blocks.ts): `next` is the next it gives. */
export interface KeptNumberBlock {
  id: number;
  businessId: number;
  resource: string;
  location: { type: 'branch' | 'warehouse'; id: number };
  first: number;
  last: number;
  next: number;
  /** The last date a document may carry to take one of its numbers. */
  expiresOn: string;
}

/**
 * A form being filled, kept on the device as it is typed (drafts.ts): restored when its screen
 * opens again. Keyed `{businessId}|{screen key}`: one business's draft never shows in another.
 */
export interface KeptDraft {
  key: string;
  businessId: number | null;
  value: unknown;
  savedAt: number;
  /** What the draft is of, in words: "Create Invoice". */
  label?: string;
}

/** A change waiting to reach the server (see outbox.ts). */
export interface OutboxEntry {
  /** Replay order. */
  seq?: number;
  /** The client-made UUID sent as `Idempotency-Key`; for a create, also the record's id until it syncs. */
  key: string;
  /** The Business-ID when the change was made. */
  businessId: number | null;
  resource: string;
  action: OutboxAction;
  /** The record changed: a server id, or the key of a create still on this device. */
  recordId: number | string | null;
  /** `{businessId}|{resource}|{recordId}`, indexed: the changes to one record, in order. */
  target?: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** The record's version the change was based on (sent as `If-Match`). */
  baseVersion?: number;
  /** Made while an earlier change to the same record was queued: its base is that change's answer. */
  stacked?: boolean;
  /** What a person reads in Pending changes: "Update Brand Acme". */
  label: string;
  /** When the change was made on this device (sent as `X-Made-At`, for the record's history). */
  createdAt: number;
  /**
   * Made while the device was offline: it was so when the change was queued, or the change's
   * first send found no network. Sent as `X-Made-Offline`. Not indexed, so no schema version.
   */
  madeOffline?: boolean;
  attempts: number;
  state: 'queued' | 'syncing' | 'needs-attention';
  nextAttemptAt?: number;
  /** The last answer that held the change back. */
  status?: number;
  message?: string;
  errors?: Record<string, string[]>;
  /** After a 412: the record as the server holds it now. */
  serverRecord?: Record<string, unknown>;
  /**
   * The place of the record it changes (or of the document a new payment settles), as the device
   * knew it when the user's places last changed: its kept record may have gone since (kept-places.ts).
   */
  at?: { type: PlaceType; id: number };
}

export type OutboxAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'restore'
  | 'force-delete'
  | 'reset'
  | 'assign'
  | 'void'
  | 'cancel'
  /** A transfer's rest closed as lost. */
  | 'close'
  /** An entry added to a stock count, and a count's posting. */
  | 'count'
  | 'post'
  /** A print of a document, counted so that a later copy says it is a reprint. */
  | 'print';

/** A record created on this device and since synced: its client key leads to its server id. */
export interface SyncedCreate {
  key: string;
  resource: string;
  id: number;
}

/** The user's places in one business as the device last kept them (kept-places.ts). */
export interface KeptPlaces {
  businessId: number;
  /** The places and levels, in a fixed order: what tells a change of them. */
  fingerprint: string;
  access: PlaceAccess;
  /** Every place's name the device has learnt, keyed `branch:3`: a change at a place no longer held still names it. */
  names: Record<string, string>;
}

/**
 * Where the device's working set of one business stands (working-set.ts): the cursor it follows,
 * and while it first downloads, what is left of that, so a dropped connection or a reload resumes.
 */
export interface SyncState {
  businessId: number;
  /** The change log's cursor to follow (`GET /api/sync/changes`); saved before the first page. */
  epochCursor: string | null;
  phase: 'downloading' | 'ready';
  /** What a download still has to fetch: each resource's pages after the id `after`. */
  pending: { resource: string; after: number }[];
  /** The resources of the manifest (`GET /api/sync`): those the user may view. */
  resources: string[];
  /** The user's places (kept-places.ts's fingerprint) when it downloaded: other places, another download. */
  placesFingerprint: string | null;
  /** The last time the working set was known current: a download done or a delta applied. 0: never. */
  syncedAt: number;
  /** When the download began. */
  startedAt: number;
  /** How many records the manifest counted of each resource, and how many of them came: the download's progress. */
  totals: Record<string, number>;
  done: number;
  /** The device refused to keep it (storage full): when, and the sentence to show. Tried again a day later, or when asked. */
  refused?: { at: number; problem: string };
}

export type OfflineDatabase = Dexie & {
  answers: Table<SavedAnswer, string>;
  records: Table<SavedRecord, string>;
  outbox: Table<OutboxEntry, number>;
  synced: Table<SyncedCreate, string>;
  places: Table<KeptPlaces, number>;
  syncState: Table<SyncState, number>;
  pages: Table<KeptPage, [number, string, number, number]>;
  pageSummaries: Table<KeptPageSummary, [number, string, number, number]>;
  numberBlocks: Table<KeptNumberBlock, number>;
  drafts: Table<KeptDraft, string>;
};

/** Each user's own database on the device. */
export const offlineDatabaseNameOf = (userId: number) => `bodega-user-${userId}`;
const loadDexie = () => import('dexie').then((module) => module.default);

/**
 * Loads the store's code ahead, beside the first screen's, for a start that will open the store;
 * offline, also opens the store of the user the kept session holds, with where their working set
 * stands: an offline start reads its first list from there, and need not wait for the session to
 * be restored and the screen drawn before the store opens. Online, the first screen's data comes
 * from the server: the store opens as the session is restored (session.ts), not in the way of the
 * first screen's evaluation (on a phone, TBT).
 */
export function loadOfflineStoreAhead(): void {
  const businessId = activeBusinessId();
  const userId = navigator.onLine ? null : keptUserId(businessId, typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : '');
  if (userId === null) {
    void loadDexie().catch(() => undefined);
    return;
  }
  openOfflineStore(userId);
  if (businessId !== null) void keptWhole(businessId, '');
}

let openName: string | null = null;
let opening: Promise<OfflineDatabase> | null = null;
let quotaReported = false;

/** Opens the signed-in user's database (and asks the browser to keep it through storage pressure). */
export function openOfflineStore(userId: number): void {
  const name = offlineDatabaseNameOf(userId);
  if (openName === name) return;
  const previous = opening;
  openName = name;
  announceTo(name);
  opening = loadDexie().then(async (DexieClass) => {
    (await previous)?.close();
    // The store's code evaluated, the database declared, its first use: each a task of its own,
    // not one long one that holds a slow phone's first screen.
    await yieldWhereAble();
    const database = new DexieClass(name) as OfflineDatabase;
    declareOfflineSchema(database);
    // Opened now, not at its first query: the screen asking for its list is drawn meanwhile.
    database.open().catch(() => undefined);
    await yieldWhereAble();
    return database;
  });
  void navigator.storage?.persist?.().catch(() => undefined);
}

/** The signed-in user's database, once open; none before anyone signed in. */
export function offlineDatabase(): Promise<OfflineDatabase> | null {
  return opening;
}

/** The open database's name, unique per user: the outbox's Web Lock is named after it. */
export function offlineDatabaseName(): string | null {
  return openName;
}

/** Deletes the signed-in user's database: on logout nothing of theirs stays on the device. */
export async function deleteOfflineStore(): Promise<void> {
  if (!opening || !openName) return;
  const name = openName;
  // Closed for good: Dexie 4 opens a closed database again at its next query, and a query still
  // under way (the working set, the kept index) would make the user's database anew.
  (await opening).close({ disableAutoOpen: true });
  opening = null;
  openName = null;
  announceTo(null);
  await (await loadDexie()).delete(name);
}

/** The signed-in user as the server tells it: who, in which business, and their places there. */
export interface UserPlaces {
  id: number;
  business_id: number | null;
  /** Absent from a server that predates places; null without a business. */
  places?: NamedPlaces | null;
}

/** The last following of each user's places in each business in this page, keyed by database name and business. */
const following = new Map<string, Promise<boolean>>();
const placesListeners = new Set<() => void>();

/**
 * Makes what the database `name` keeps follow the user's places in one business (kept-places.ts):
 * true when they had changed. The outbox hears of a change, to park what can no longer be sent.
 */
export function followUserPlaces(name: string, database: Promise<OfflineDatabase>, user: UserPlaces): Promise<boolean> {
  const { business_id: businessId, places } = user;
  if (businessId === null || !places) return Promise.resolve(false);
  const followed = database
    .then((db) => followPlaces(db, businessId, places))
    .catch((error: unknown) => {
      reportQuota(error);
      return false;
    });
  following.set(`${name}|${businessId}`, followed);
  void followed.then((changed) => {
    if (!changed) return;
    recordsChanged(businessId, null, 'all');
    for (const listener of placesListeners) listener();
  });
  return followed;
}

/** The following of the user's places in a business done in this page, if any: until then, the device's are not known to be current. */
export function placesFollowed(name: string, businessId: number): Promise<boolean> | undefined {
  return following.get(`${name}|${businessId}`);
}

/** Called when the user's places changed and the device followed them. */
export function onPlacesChanged(listener: () => void): () => void {
  placesListeners.add(listener);
  return () => placesListeners.delete(listener);
}

// Each time the session fetches the user (a sign-in, a refresh), the device follows their places,
// in the user's own database, which the session opens now anyway.
if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  window.addEventListener(USER_RETRIEVED, (event) => {
    const user = (event as CustomEvent<Partial<UserPlaces>>).detail;
    if (typeof user.id !== 'number' || typeof user.business_id !== 'number' || !user.places) return;
    openOfflineStore(user.id);
    void followUserPlaces(openName!, opening!, user as UserPlaces);
  });
}

/** Whether a failure is the device's storage refusing more (Dexie wraps IndexedDB's error as `inner`). */
export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: string; inner?: { name?: string } })?.inner?.name ?? (error as { name?: string })?.name;
  return name === 'QuotaExceededError';
}

function reportQuota(error: unknown): void {
  if (!isQuotaError(error) || quotaReported) return;
  quotaReported = true;
  toast.error('This device’s storage is full: what you open now will not be readable offline. Free some space on the device.');
}

export async function saveAnswer(
  key: string,
  businessId: number,
  resource: string,
  body: unknown,
  records: Record<string, unknown>[],
): Promise<void> {
  if (!opening) return;
  const savedAt = Date.now();
  try {
    const database = await opening;
    const written = await database.transaction('rw', database.answers, database.records, async () => {
      await database.answers.put({ key, businessId, resource, savedAt, body });
      // A record the device holds newer (a delta of the working set came meanwhile) is not put back as it was.
      const rows = records.map((record) => keptRow(businessId, resource, record, savedAt));
      const held = await database.records.bulkGet(rows.map((row) => row.key));
      const newer = rows.filter((row, at) => !(versionOf(held[at]?.record) > versionOf(row.record)));
      await database.records.bulkPut(newer);
      return newer.map((row) => row.record);
    });
    if (written.length > 0) recordsChanged(businessId, resource, { put: written });
  } catch (error) {
    reportQuota(error);
  }
}

/**
 * What changed among the kept records of a resource in one business: records put (as they are
 * now) and ids removed, or `'all'` when more changed than is worth telling (a download's pages, a
 * purge); `resource` null: every resource of the business.
 */
export type RecordsChange = { put?: Record<string, unknown>[]; removed?: (number | string)[] } | 'all';

export interface RecordsChanged {
  /** Null: every business (another user's store opened, or the store deleted). */
  businessId: number | null;
  resource: string | null;
  change: RecordsChange;
}

const recordsListeners = new Set<(changed: RecordsChanged) => void>();
let recordsChannel: BroadcastChannel | null = null;

/** Hears every change of the kept records, made in this tab or another (kept-index.ts keeps its indexes current by it). */
export function onRecordsChanged(listener: (changed: RecordsChanged) => void): () => void {
  recordsListeners.add(listener);
  return () => recordsListeners.delete(listener);
}

/** Tells every listener, here and in the user's other tabs, that kept records changed (once written). */
export function recordsChanged(businessId: number, resource: string | null, change: RecordsChange): void {
  const changed: RecordsChanged = { businessId, resource, change };
  syncStateChanged(businessId);
  for (const listener of recordsListeners) listener(changed);
  try {
    recordsChannel?.postMessage(changed);
  } catch {
    // A record that cannot be cloned to another tab: there it is read again.
    recordsChannel?.postMessage({ ...changed, change: 'all' });
  }
}

/** The open store changed (another user's, or none): everything held of the last one goes, and other tabs of the new one are heard. */
function announceTo(name: string | null): void {
  recordsChannel?.close();
  recordsChannel = name !== null && typeof BroadcastChannel === 'function' ? new BroadcastChannel(`${name}-records`) : null;
  recordsChannel?.addEventListener('message', (event: MessageEvent<RecordsChanged>) => {
    syncStateChanged(event.data.businessId);
    for (const listener of recordsListeners) listener(event.data);
  });
  (recordsChannel as { unref?: () => void } | null)?.unref?.();
  syncStateChanged(null);
  for (const listener of recordsListeners) listener({ businessId: null, resource: null, change: 'all' });
}

/** The working sets' states as last read, by business: a list read offline asks for one each time. */
const syncStates = new Map<number, Promise<SyncState | undefined>>();

/** The working set of a business wrote its state (here or in another tab): read again when next asked. */
export function syncStateChanged(businessId: number | null): void {
  if (businessId === null) syncStates.clear();
  else syncStates.delete(businessId);
}

/**
 * Whether the device keeps the whole of a resource of the business, current as of `syncedAt`:
 * its working set was downloaded (working-set.ts) and names it. Then a list read offline is
 * answered from the kept records, fresher than a list saved before.
 */
export async function keptWhole(businessId: number, resource: string): Promise<{ syncedAt: number } | null> {
  let reading = syncStates.get(businessId);
  if (!reading) {
    reading = (async () => (await opening)?.syncState.get(businessId))();
    syncStates.set(businessId, reading);
    reading.catch(() => syncStates.delete(businessId));
  }
  try {
    const state = await reading;
    return state && state.phase === 'ready' && !state.refused && state.resources.includes(resource) ? { syncedAt: state.syncedAt } : null;
  } catch {
    return null;
  }
}

export async function readAnswer(key: string): Promise<{ body: unknown; savedAt: number } | undefined> {
  return opening?.then((database) => database.answers.get(key)).catch(() => undefined);
}

/** A failure that means "no network", as opposed to an answer from the server. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

export class NotAvailableOffline extends ApiError {
  constructor(what: string) {
    super(0, `You are offline, and ${what} has not been opened on this device yet, so it is not available offline.`);
  }
}
