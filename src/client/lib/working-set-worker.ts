/// <reference lib="webworker" />
import Dexie from 'dexie';
import { api, ApiError } from './api';
import { declareOfflineSchema } from './offline-schema';
import type { OfflineDatabase, SyncState } from './offline-store';
import { Abandoned, downloadPages } from './working-set-download';

/**
 * The working set's first download, in a worker (working-set.ts starts it): the pages are fetched,
 * parsed and kept here, in the user's own database opened by name, so the screen never waits on them.
 * One download at a time; it tells the page each page kept, and when the download ends or fails.
 */

export type ToWorker = { kind: 'download'; database: string; state: SyncState } | { kind: 'stop' };

/** What ended a download, as the engine's own pass would have thrown it. */
export type Failure =
  { kind: 'abandoned' } | { kind: 'api'; status: number; message: string } | { kind: 'other'; name: string; message: string };

export type FromWorker =
  { kind: 'kept'; state: SyncState; resource: string } | { kind: 'done'; state: SyncState } | { kind: 'failed'; failure: Failure };

declare const self: DedicatedWorkerGlobalScope;

let controller: AbortController | null = null;

function failureOf(error: unknown): Failure {
  if (error instanceof Abandoned || (error as { name?: string } | null)?.name === 'AbortError') return { kind: 'abandoned' };
  if (error instanceof ApiError) return { kind: 'api', status: error.status, message: error.message };
  // Dexie wraps IndexedDB's own error (a full disk's QuotaExceededError) as `inner`.
  const failed = error as { name?: string; message?: string; inner?: { name?: string } } | null;
  return { kind: 'other', name: failed?.inner?.name ?? failed?.name ?? 'Error', message: failed?.message ?? String(error) };
}

async function download(name: string, start: SyncState): Promise<void> {
  const pass = new AbortController();
  controller = pass;
  const db = new Dexie(name) as OfflineDatabase;
  declareOfflineSchema(db);
  const post = (message: FromWorker) => self.postMessage(message);
  try {
    const get = <T>(path: string, query?: Record<string, string | number>) => {
      if (pass.signal.aborted) throw new Abandoned();
      return api<T>('GET', path, { query, businessId: start.businessId, signal: pass.signal });
    };
    const state = await downloadPages(db, start, get, pass.signal, (kept, resource) => post({ kind: 'kept', state: kept, resource }));
    post({ kind: 'done', state });
  } catch (error) {
    post({ kind: 'failed', failure: failureOf(error) });
  } finally {
    db.close();
    if (controller === pass) controller = null;
  }
}

self.addEventListener('message', (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.kind === 'stop') controller?.abort();
  else void download(message.database, message.state);
});
