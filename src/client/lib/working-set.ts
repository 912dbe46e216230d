import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { holdsAny, permissionName } from '../../domain/permissions';
import { getResource } from '../../domain/resources/registry';
import { inWorkingSet, WORKING_SET } from '../../domain/working-set';
import { activeBusinessId, api, ApiError, subscribeToBusiness } from './api';
import { USER_RETRIEVED } from './kept-access';
import { warmKeptIndex } from './kept-index';
import { deletePages, keptRow, mergeIntoPages, PAGE_ROWS, removeFromPages } from './kept-records';
import {
  isQuotaError,
  offlineDatabase,
  offlineDatabaseName,
  onPlacesChanged,
  recordsChanged,
  saveAnswer,
  syncStateChanged,
  type OfflineDatabase,
  type SyncState,
} from './offline-store';
import { nextTurn } from './next-turn';
import { whenIdle } from './when-idle';
import { onChangeSent } from './outbox-events';
import { Abandoned, downloadPages, type Get } from './working-set-download';
import { downloadWorker } from './working-set-downloads';
import { watchedValue } from './watched-value';

/**
 * The device's working set (docs/architecture.md, "Offline"; `domain/working-set.ts` says what it
 * holds): every record of the business the user's work may need with no network — the catalogue,
 * prices, contacts, places, stock, open documents — kept in the user's IndexedDB among the records
 * the device keeps (offline-store.ts), where every screen's offline reading finds them.
 *
 * The session starts it (`startWorkingSet`), as it starts the outbox. One tab at a time runs it (a
 * Web Lock named after the user's database); the others read the same IndexedDB and hear from it
 * by a BroadcastChannel. It first downloads the business's working set (`GET /api/sync`, then
 * each resource's pages, resumable where it stopped), then follows the change log from the
 * manifest's cursor (`GET /api/sync/changes`), each answer applied in one transaction. While
 * online it listens to `GET /api/sync/events` and pulls the changes it announces, then has the
 * screens showing those resources read them again. It pulls too when the connection returns, the
 * tab is shown, the outbox sent a change, and every 30 s without the event stream. A change of the
 * user's places or permissions, or a cursor the server no longer follows, downloads it again:
 * meanwhile every record kept stays readable, each replaced as its page comes, and those the
 * server no longer sends go as their page passes. Storage refused stops it, in words, and the app
 * reads back what it saw, as before.
 */

export interface WorkingSetStatus {
  phase: 'off' | 'downloading' | 'following' | 'unavailable';
  /** The event stream is open. */
  live: boolean;
  online: boolean;
  /** When the device last went offline (ms since the epoch); null while online. */
  offlineSince: number | null;
  /** The last time the working set was known current (download done or delta applied). */
  syncedAt: number | null;
  /** The first download: every resource's records counted; `label` is the plural, lower case, of the resource downloading ("items"). */
  progress: { resource: string; label: string; done: number; total: number } | null;
  /** A sentence saying why it cannot run (storage refused or full). */
  problem: string | null;
}

/** How often it pulls while online without the event stream, and tries again after a failure. */
const TICK_MS = 30_000;
/** The event stream is opened again after this, doubling up to STREAM_CEILING_MS. */
const STREAM_FIRST_MS = 1000;
const STREAM_CEILING_MS = 30_000;
/** The server writes at least a keep-alive every 20 s: a stream silent for longer is dead. */
const STREAM_SILENCE_MS = 45_000;
/** Storage refused: tried again after a day, or when the user asks. */
const REFUSED_FOR_MS = 24 * 60 * 60 * 1000;
/** A first download's progress is shown at most this often. */
const PROGRESS_EVERY_MS = 1000;
/** Changes sent by the outbox come in quick succession: one pull for them. */
const AFTER_SENT_MS = 300;

export const NO_ROOM =
  'This device has no room to keep this business’s records offline: what you open still reads back offline, as before. Free some space on the device, then choose Retry.';
export const NO_STORAGE =
  'This browser does not let Bodega keep records on this device (its storage is turned off or blocked), so nothing can be kept for offline use.';

const OFF: WorkingSetStatus = {
  phase: 'off',
  live: false,
  online: typeof navigator === 'undefined' || navigator.onLine !== false,
  offlineSince: null,
  syncedAt: null,
  progress: null,
  problem: null,
};

const status = watchedValue<WorkingSetStatus>(OFF);

/** The working set's status now: the same object until it changes (for useSyncExternalStore). */
export const workingSetStatus = status.get;
export const subscribeToWorkingSet = status.subscribe;

export function useWorkingSetStatus(): WorkingSetStatus {
  return useSyncExternalStore(subscribeToWorkingSet, workingSetStatus, workingSetStatus);
}

/** A pull now (a Retry button): tried even after storage was refused or the server said no. */
export function syncNow(): void {
  running?.syncNow();
}

/** Resolves once the running engine has nothing under way in this tab (tests wait on it). */
export function workingSetIdle(): Promise<void> {
  return running?.idle() ?? Promise.resolve();
}

function changeStatus(patch: Partial<WorkingSetStatus>): void {
  const now = status.get();
  const next = { ...now, ...patch };
  if ((Object.keys(next) as (keyof WorkingSetStatus)[]).every((key) => JSON.stringify(next[key]) === JSON.stringify(now[key]))) return;
  status.set(next);
}

interface Engine {
  database: Promise<OfflineDatabase>;
  syncNow(): void;
  idle(): Promise<void>;
  stop(): void;
}

let running: Engine | null = null;

export interface WorkingSetOptions {
  /** The business whose working set is kept: the active one unless told. */
  businessId?: () => number | null;
}

/**
 * Starts the working set of the user whose offline store is open; `queryClient` is the app's, whose
 * queries of a changed resource (keyed `[businessId, resource, …]`) are read again. Another user's
 * (or an earlier store's) stops first; this one, if it runs, keeps running.
 */
export function startWorkingSet(queryClient: Pick<QueryClient, 'invalidateQueries'>, options: WorkingSetOptions = {}): void {
  const name = offlineDatabaseName();
  const database = offlineDatabase();
  if (name === null || database === null || running?.database === database) return;
  stopWorkingSet();
  running = createEngine(database, name, queryClient, options.businessId ?? activeBusinessId);
}

/** Stops the running working set: nothing more is downloaded, pulled or listened to. */
export function stopWorkingSet(): void {
  running?.stop();
  running = null;
  const { online, offlineSince } = status.get();
  status.set({ ...OFF, online, offlineSince });
}

/** What the leading tab tells the others. */
type Message =
  | { kind: 'status'; status: WorkingSetStatus }
  | { kind: 'changed'; businessId: number; resources: string[] }
  | { kind: 'hello' }
  | { kind: 'sync' };

interface Manifest {
  cursor: string;
  resources: { name: string; total: number }[];
}

interface Delta {
  reset: boolean;
  cursor: string | null;
  more: boolean;
  changed: Record<string, Record<string, unknown>[]>;
  removed: Record<string, number[]>;
}

const isAbort = (error: unknown) => error instanceof Abandoned || (error as { name?: string } | null)?.name === 'AbortError';
const hasWindow = () => typeof window !== 'undefined' && typeof window.addEventListener === 'function';
const hasDocument = () => typeof document !== 'undefined' && typeof document.addEventListener === 'function';
const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name) => b.includes(name));

function progressOf(state: SyncState): WorkingSetStatus['progress'] {
  const resource = state.pending[0]?.resource ?? 'items';
  const total = Object.values(state.totals).reduce((sum, count) => sum + count, 0);
  return { resource, label: getResource(resource).plural.toLowerCase(), done: Math.min(state.done, total), total };
}

/** The status a kept sync state tells, before anything is pulled. */
function statusOf(state: SyncState | undefined): Partial<WorkingSetStatus> {
  if (!state) return { phase: 'off', syncedAt: null, progress: null, problem: null };
  if (state.refused && Date.now() - state.refused.at < REFUSED_FOR_MS) {
    return { phase: 'unavailable', progress: null, problem: state.refused.problem, syncedAt: null };
  }
  return {
    phase: state.phase === 'ready' ? 'following' : 'downloading',
    syncedAt: state.syncedAt || null,
    progress: state.phase === 'ready' ? null : progressOf(state),
    problem: null,
  };
}

function createEngine(
  database: Promise<OfflineDatabase>,
  name: string,
  queryClient: Pick<QueryClient, 'invalidateQueries'>,
  businessOf: () => number | null,
): Engine {
  let stopped = false;
  let leading = false;
  /** The server said no (401, 403): nothing more until the user is fetched again or asks. */
  let halted = false;
  let passing = false;
  let again = false;
  let forced = false;
  let idlers: (() => void)[] = [];
  let pass: AbortController | null = null;
  let followed: number | null = null;
  let stream: { businessId: number; controller: AbortController } | null = null;
  let streamDelay = STREAM_FIRST_MS;
  let streamTimer: ReturnType<typeof setTimeout> | undefined;
  let sentTimer: ReturnType<typeof setTimeout> | undefined;
  /** The working-set resources the user may view, by the permissions the session last fetched: a change, another download. */
  let viewable: { businessId: number; resources: string[]; changed: boolean } | null = null;
  const leadership = new AbortController();
  let letGo: () => void = () => undefined;
  /** The first download's worker (working-set-downloads.ts), where the browser has one. */
  const downloads = downloadWorker();
  const cleanups: (() => void)[] = [];

  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`${name}-working-set`) : null;
  (channel as { unref?: () => void } | null)?.unref?.();
  const tell = (message: Message) => channel?.postMessage(message);

  /** Changes the status here and, from the leading tab, in the others. */
  function show(patch: Partial<WorkingSetStatus>): void {
    changeStatus(patch);
    if (leading) tell({ kind: 'status', status: status.get() });
  }

  channel?.addEventListener('message', (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.kind === 'status' && !leading) {
      // The leading tab wrote the working set's state: read again when a list asks.
      syncStateChanged(null);
      changeStatus(message.status);
    }
    if (message.kind === 'changed' && !leading) invalidate(message.businessId, message.resources);
    if (message.kind === 'hello' && leading) tell({ kind: 'status', status: status.get() });
    if (message.kind === 'sync' && leading) syncNow();
  });

  function invalidate(businessId: number, resources: readonly string[]): void {
    for (const resource of resources) void queryClient.invalidateQueries({ queryKey: [businessId, resource] });
  }

  function wentOffline(): void {
    if (status.get().online) show({ online: false, offlineSince: Date.now(), live: false });
  }

  function wentOnline(): void {
    if (!status.get().online) show({ online: true, offlineSince: null });
  }

  // Until this tab leads, it shows what the kept state tells, and asks the leading tab for more.
  void (async () => {
    const businessId = businessOf();
    if (businessId === null) return;
    const state = await (await database).syncState.get(businessId).catch(() => undefined);
    if (!stopped && !leading) changeStatus({ ...statusOf(state), online: browserOnline() });
    tell({ kind: 'hello' });
  })().catch(() => undefined);

  function lead(): void {
    leading = true;
    pull();
  }

  if (typeof navigator !== 'undefined' && navigator.locks) {
    navigator.locks
      .request(`${name}-working-set`, { signal: leadership.signal }, () => {
        if (stopped) return undefined;
        lead();
        return new Promise<void>((resolve) => (letGo = resolve));
      })
      .catch(() => undefined);
  } else lead();

  /** A pass now, or once the one under way ends. `force`: even after storage was refused or the server said no. */
  function pull(force = false): void {
    if (force) {
      forced = true;
      halted = false;
    }
    if (stopped || !leading || halted) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    void (async () => {
      do {
        again = false;
        await onePass();
      } while (again && !stopped);
    })()
      .catch((error: unknown) => {
        if (!stopped) console.error('The working set could not be kept current.', error);
      })
      .finally(() => {
        passing = false;
        if (again && !stopped) pull();
        else {
          for (const idler of idlers) idler();
          idlers = [];
        }
      });
  }

  /** One look at the business's working set: its download begun or resumed, then its changes followed. */
  async function onePass(): Promise<void> {
    const businessId = businessOf();
    if (businessId !== followed) {
      closeStream();
      followed = businessId;
    }
    if (businessId === null) {
      show({ phase: 'off', progress: null, problem: null, syncedAt: null });
      return;
    }
    let db: OfflineDatabase;
    try {
      db = await database;
      await db.open();
    } catch (error) {
      if (!stopped) show({ phase: 'unavailable', problem: isQuotaError(error) ? NO_ROOM : NO_STORAGE, progress: null, live: false });
      return;
    }
    const force = forced;
    forced = false;
    let state: SyncState | undefined;
    try {
      state = await db.syncState.get(businessId);
    } catch {
      return; // The store closed under it (signed out): nothing more to keep.
    }
    show(statusOf(force && state?.refused ? { ...state, refused: undefined } : state));
    if (!browserOnline()) {
      wentOffline();
      return;
    }
    if (state?.refused && !force && Date.now() - state.refused.at < REFUSED_FOR_MS) return;

    const controller = new AbortController();
    pass = controller;
    const get = async <T>(path: string, query?: Record<string, string | number>): Promise<T> => {
      if (controller.signal.aborted || stopped) throw new Abandoned();
      const answer = await api<T>('GET', path, { query, businessId, signal: controller.signal });
      wentOnline();
      return answer;
    };
    try {
      const places = (await db.places.get(businessId))?.fingerprint ?? null;
      const permissionsMoved = viewable?.businessId === businessId && viewable.changed;
      if (viewable?.businessId === businessId) viewable.changed = false;
      const placesMoved = Boolean(state?.placesFingerprint) && places !== null && state?.placesFingerprint !== places;
      if (!state || state.refused || placesMoved || (permissionsMoved && !sameList(viewable!.resources, state.resources))) {
        state = await begin(db, businessId, places, state, get);
      } else if (state.placesFingerprint === null && places !== null) {
        // Downloaded before the device knew the user's places: by the server's rules, which had them.
        state = { ...state, placesFingerprint: places };
        await db.syncState.update(businessId, { placesFingerprint: places });
        syncStateChanged(businessId);
      }
      if (state.phase === 'downloading') state = await download(db, state, get, controller.signal);
      await follow(db, state, places, get, controller.signal);
      openStream(businessId);
    } catch (error) {
      if (isAbort(error) || stopped || (error as { name?: string } | null)?.name === 'DatabaseClosedError') return;
      if (error instanceof ApiError && error.status === 0) wentOffline();
      else if (error instanceof ApiError && (error.status === 401 || error.status === 403)) halt();
      else if (isQuotaError(error)) await refuse(db, businessId);
      else if (!(error instanceof ApiError)) throw error;
      // Anything else the server answered (a 5xx, a route it does not have): tried again on the next tick.
    } finally {
      if (pass === controller) pass = null;
    }
  }

  /**
   * A download begins: the manifest, the cursor saved before any page, and what the device kept
   * of resources the user may no longer view removed.
   */
  async function begin(db: OfflineDatabase, businessId: number, places: string | null, before: SyncState | undefined, get: Get) {
    const manifest = (await get<{ data: Manifest }>('/api/sync')).data;
    // The places with the user's level at each, as lib/places.ts keeps them: a form opened
    // offline for the first time offers the user's places from it.
    await saveAnswer(`${businessId}|places`, businessId, 'places', await get<unknown>('/api/places'), []);
    const resources = manifest.resources.map(({ name: resource }) => resource).filter(inWorkingSet);
    const state: SyncState = {
      businessId,
      epochCursor: manifest.cursor,
      phase: 'downloading',
      pending: resources.map((resource) => ({ resource, after: 0 })),
      resources,
      placesFingerprint: places,
      syncedAt: before?.refused ? 0 : (before?.syncedAt ?? 0),
      startedAt: Date.now(),
      totals: Object.fromEntries(manifest.resources.filter(({ name: resource }) => inWorkingSet(resource)).map((r) => [r.name, r.total])),
      done: 0,
    };
    const dropped = WORKING_SET.filter((resource) => !resources.includes(resource));
    await db.transaction('rw', [db.records, db.pages, db.pageSummaries, db.answers, db.syncState], async () => {
      for (const resource of dropped) {
        await db.records.where('[businessId+resource]').equals([businessId, resource]).delete();
        await deletePages(db, businessId, resource);
        await db.answers.where('[businessId+resource]').equals([businessId, resource]).delete();
      }
      await db.syncState.put(state);
    });
    syncStateChanged(businessId);
    for (const resource of dropped) recordsChanged(businessId, resource, 'all');
    show({ phase: 'downloading', progress: progressOf(state), problem: null });
    return state;
  }

  /**
   * The pages still to come (working-set-download.ts), in the download's worker where the browser has
   * workers. The page hears of each page kept, but tells what changed once a resource is done (what
   * reads its records reads them again then, not after each of its pages) and shows the progress at
   * most once a PROGRESS_EVERY_MS: on a phone, each telling is a render of the screen, and a first
   * download is dozens of pages while the first screen is being used.
   */
  async function download(db: OfflineDatabase, start: SyncState, get: Get, signal: AbortSignal): Promise<SyncState> {
    const { businessId } = start;
    let resourceKept: string | null = null;
    let shownAt = 0;
    let unshown: SyncState | null = null;
    const tellKept = () => {
      if (resourceKept !== null) recordsChanged(businessId, resourceKept, 'all');
      resourceKept = null;
    };
    const showProgress = (state: SyncState) => {
      shownAt = Date.now();
      unshown = null;
      show({ progress: progressOf(state) });
    };
    const kept = (state: SyncState, resource: string) => {
      wentOnline();
      syncStateChanged(businessId);
      if (resourceKept !== resource) tellKept();
      resourceKept = resource;
      if (Date.now() - shownAt >= PROGRESS_EVERY_MS) showProgress(state);
      else unshown = state;
    };
    let state: SyncState;
    try {
      state =
        downloads && !downloads.broken
          ? await downloads.download(name, start, signal, kept)
          : await downloadPages(db, start, get, signal, kept);
    } finally {
      // Stopped or failed too: what was kept is told, and where the download stands.
      tellKept();
      if (unshown) showProgress(unshown);
    }
    state = { ...state, phase: 'ready', pending: [], syncedAt: Date.now() };
    await db.syncState.put(state);
    syncStateChanged(businessId);
    show({ phase: 'following', progress: null, syncedAt: state.syncedAt });
    // The catalogue's index built now, while the page is idle, not at the first scan offline.
    whenIdle(() => warmKeptIndex(businessId, getResource('items')), 10_000);
    return state;
  }

  /** The change log from the state's cursor, an answer at a time, each in one transaction with the cursor it moves to. */
  async function follow(db: OfflineDatabase, start: SyncState, places: string | null, get: Get, signal: AbortSignal) {
    let state = start;
    const { businessId } = state;
    let downloadedAgain = false;
    for (;;) {
      let delta: Delta;
      try {
        delta = (await get<{ data: Delta }>('/api/sync/changes', { cursor: state.epochCursor ?? '' })).data;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 422)) throw error;
        delta = { reset: true, cursor: null, more: false, changed: {}, removed: {} };
      }
      if (delta.reset || delta.cursor === null) {
        // The server no longer follows this cursor (its history started again): everything again, once a pass.
        if (downloadedAgain) return;
        downloadedAgain = true;
        state = await download(db, await begin(db, businessId, places, state, get), get, signal);
        continue;
      }
      if (signal.aborted) throw new Abandoned();
      const savedAt = Date.now();
      const changed = Object.entries(delta.changed).filter(([resource]) => inWorkingSet(resource));
      const removed = Object.entries(delta.removed).filter(([resource]) => inWorkingSet(resource));
      const cursor = delta.cursor;
      await db.transaction('rw', [db.records, db.pages, db.pageSummaries, db.syncState], async () => {
        for (const [resource, records] of changed) {
          // A few records as rows of their own; many (an import's prices) into their pages.
          if (records.length > PAGE_ROWS) await mergeIntoPages(db, businessId, resource, records, savedAt);
          else await db.records.bulkPut(records.map((record) => keptRow(businessId, resource, record, savedAt)));
        }
        for (const [resource, ids] of removed) {
          await db.records.bulkDelete(ids.map((id) => `${businessId}|${resource}|${id}`));
          await removeFromPages(db, businessId, resource, ids);
        }
        await db.syncState.update(businessId, { epochCursor: cursor, syncedAt: savedAt });
      });
      syncStateChanged(businessId);
      state = { ...state, epochCursor: cursor, syncedAt: savedAt };
      const touched = [...new Set([...changed, ...removed].map(([resource]) => resource))];
      for (const resource of touched)
        recordsChanged(businessId, resource, { put: delta.changed[resource], removed: delta.removed[resource] });
      show({ phase: 'following', syncedAt: savedAt });
      if (touched.length > 0) {
        invalidate(businessId, touched);
        tell({ kind: 'changed', businessId, resources: touched });
      }
      if (!delta.more) return;
      await nextTurn();
    }
  }

  /** The server said no (the session ended, or the business is not the user's): quietly, nothing more for now. */
  function halt(): void {
    halted = true;
    closeStream();
    show({ phase: 'off', live: false, progress: null });
  }

  /** Storage refused: the working set stops, in words; a download's records go if the device needs the room. */
  async function refuse(db: OfflineDatabase, businessId: number): Promise<void> {
    closeStream();
    show({ phase: 'unavailable', problem: NO_ROOM, progress: null, live: false });
    try {
      const state = await db.syncState.get(businessId);
      // A download that could not finish leaves its resources' records only where the device has room:
      // lists and records opened stay kept as answers, and read back as before.
      if (state?.phase === 'downloading' && (await roomIsShort())) {
        for (const resource of state.resources) {
          await db.records.where('[businessId+resource]').equals([businessId, resource]).delete();
          await deletePages(db, businessId, resource);
          recordsChanged(businessId, resource, 'all');
        }
      }
      const refused = { at: Date.now(), problem: NO_ROOM };
      if (state) await db.syncState.put({ ...state, refused });
      syncStateChanged(businessId);
    } catch {
      // Nothing more can be written: the status says it, and the next load tries again.
    }
  }

  /** Whether the device's storage is nearly used up (or the browser does not say). */
  async function roomIsShort(): Promise<boolean> {
    const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
    if (!estimate?.quota || estimate.usage === undefined) return true;
    return estimate.usage / estimate.quota > 0.8;
  }

  // The event stream: `ready`, then `changed` with the resources, and a keep-alive comment every 20 s.

  function openStream(businessId: number): void {
    if (stopped || !leading || halted || !browserOnline() || stream?.businessId === businessId || typeof fetch !== 'function') return;
    closeStream();
    const controller = new AbortController();
    stream = { businessId, controller };
    void listen(businessId, controller).finally(() => {
      if (stream?.controller !== controller) return;
      stream = null;
      show({ live: false });
      if (stopped || halted || !browserOnline()) return;
      clearTimeout(streamTimer);
      streamTimer = setTimeout(() => openStream(businessId), streamDelay);
      streamDelay = Math.min(streamDelay * 2, STREAM_CEILING_MS);
    });
  }

  function closeStream(): void {
    clearTimeout(streamTimer);
    const open = stream;
    stream = null;
    open?.controller.abort();
    if (status.get().live) show({ live: false });
  }

  async function listen(businessId: number, controller: AbortController): Promise<void> {
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), STREAM_SILENCE_MS);
    };
    try {
      heard();
      const response = await fetch('/api/sync/events', {
        signal: controller.signal,
        credentials: 'same-origin',
        headers: { 'Business-ID': String(businessId), 'X-Requested-With': 'XMLHttpRequest', Accept: 'text/event-stream' },
      });
      if (response.status === 401 || response.status === 403) {
        halt();
        return;
      }
      if (!response.ok || !response.body) return;
      wentOnline();
      show({ live: true });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let event = 'message';
      let data: string[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        heard();
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const raw of lines) {
          const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
          if (line === '') {
            if (data.length > 0 || event !== 'message') announced(event);
            event = 'message';
            data = [];
          } else if (!line.startsWith(':')) {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event = text;
            else if (field === 'data') data.push(text);
          }
        }
      }
    } catch {
      // The network, or the stream closed here: opened again later.
    } finally {
      clearTimeout(silence);
    }
  }

  /** An event of the stream: on `ready` (what changed while it was closed) and `changed`, a pull. */
  function announced(event: string): void {
    if (event === 'ready') streamDelay = STREAM_FIRST_MS;
    if (event === 'ready' || event === 'changed') pull();
  }

  // What makes it pull.

  const onOnline = () => {
    changeStatus({ online: true, offlineSince: null });
    streamDelay = STREAM_FIRST_MS;
    pull();
  };
  const onOffline = () => {
    closeStream();
    wentOffline();
    // The first scan offline need not wait for the catalogue's index.
    const businessId = followed ?? businessOf();
    if (businessId !== null) warmKeptIndex(businessId, getResource('items'));
  };
  const onShown = () => {
    if (document.visibilityState === 'visible') pull();
  };
  const onUser = (event: Event) => {
    const user = (event as CustomEvent<{ business_id?: unknown; permission_names?: unknown }>).detail;
    if (typeof user?.business_id === 'number' && Array.isArray(user.permission_names)) {
      const held = new Set(user.permission_names as string[]);
      const resources = WORKING_SET.filter((resource) => holdsAny(held, [permissionName('view', getResource(resource).permission)]));
      // The first fetch in this page is compared with the kept manifest; later ones with the fetch before.
      const changed = viewable?.businessId !== user.business_id || !sameList(viewable.resources, resources);
      viewable = { businessId: user.business_id, resources, changed: changed || (viewable?.changed ?? false) };
    }
    halted = false;
    pull();
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === 'business_id') onBusiness();
  };
  const onBusiness = () => {
    if (businessOf() === followed) return;
    pass?.abort();
    closeStream();
    pull();
  };
  if (hasWindow()) {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    window.addEventListener(USER_RETRIEVED, onUser);
    window.addEventListener('storage', onStorage);
    cleanups.push(() => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener(USER_RETRIEVED, onUser);
      window.removeEventListener('storage', onStorage);
    });
  }
  if (hasDocument()) {
    document.addEventListener('visibilitychange', onShown);
    cleanups.push(() => document.removeEventListener('visibilitychange', onShown));
  }
  cleanups.push(subscribeToBusiness(onBusiness));
  cleanups.push(onPlacesChanged(() => pull()));
  cleanups.push(
    onChangeSent(() => {
      if (status.get().live) return;
      clearTimeout(sentTimer);
      sentTimer = setTimeout(() => pull(), AFTER_SENT_MS);
    }),
  );
  const tick = setInterval(() => {
    if (browserOnline() && (!status.get().live || status.get().phase !== 'following')) pull();
  }, TICK_MS);

  function syncNow(): void {
    if (!leading) {
      tell({ kind: 'sync' });
      return;
    }
    streamDelay = STREAM_FIRST_MS;
    pull(true);
  }

  return {
    database,
    syncNow,
    idle: () => (passing ? new Promise<void>((resolve) => idlers.push(resolve)) : Promise.resolve()),
    stop() {
      stopped = true;
      leadership.abort();
      letGo();
      pass?.abort();
      downloads?.terminate();
      closeStream();
      clearInterval(tick);
      clearTimeout(sentTimer);
      for (const cleanup of cleanups) cleanup();
      channel?.close();
      for (const idler of idlers) idler();
      idlers = [];
    },
  };
}
