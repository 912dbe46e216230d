import { ApiError } from './api';
import { keepPage, pageRanges, rowIds, type PageRange } from './kept-records';
import { nextTurn } from './next-turn';
import type { OfflineDatabase, SyncState } from './offline-store';

/**
 * The working set's first download (working-set.ts): each resource's pages still to come, each kept
 * as it comes (kept-records.ts `keepPage`) in one transaction with where the download stands. It runs
 * in a worker of its own where the browser has workers (working-set-worker.ts), so parsing and
 * keeping tens of thousands of records never holds the screen; inline where it has none (tests).
 */

/** Records a page of the first download asks for. */
export const PAGE_SIZE = 1000;

/** Why a pass stopped without failing: the business changed, or the engine stopped. */
export class Abandoned extends Error {}

export type Get = <T>(path: string, query?: Record<string, string | number>) => Promise<T>;

/** A page of the first download (`GET /api/sync/records/:resource`). */
interface SyncPage {
  data: Record<string, unknown>[];
  next: number | null;
}

/**
 * The pages still to come. A page holds every record of the working set in its range of ids (after
 * the page before, up to its last; the last page, all after), so what the device kept in that range
 * before is replaced by it: a record it did not bring has left the working set (deleted, out of the
 * user's places, a document closed) and goes — unless it says so itself (a closed document the user
 * opened, kept as they saw it). Records the server still sends are never missing meanwhile: a
 * download again (a reset, other places) puts each over its old copy. The next page is asked for
 * while one is written; `kept` hears of each page once it is stored. Resolves the state with nothing
 * pending; the caller marks it ready.
 */
export async function downloadPages(
  db: OfflineDatabase,
  start: SyncState,
  get: Get,
  signal: AbortSignal,
  kept: (state: SyncState, resource: string) => void,
): Promise<SyncState> {
  let state = start;
  const { businessId } = state;
  /** The resource downloading in this pass: its pages' ranges, its rows' ids (read once it begins), and the page coming. */
  let current = null as { resource: string; ranges: PageRange[]; rowIds: number[]; coming: Promise<SyncPage> | null } | null;
  const ask = (resource: string, after: number) => {
    const asked = get<SyncPage>('/api/sync/records/' + resource, { after, limit: PAGE_SIZE }).catch((error: unknown) => {
      // Taken out of the user's working set since the manifest (a permission gone): left for the next download.
      if (error instanceof ApiError && error.status === 404) return { data: [], next: null };
      throw error;
    });
    // Asked ahead: its failure is told when it is awaited, or by nobody if the pass stops first.
    asked.catch(() => undefined);
    return asked;
  };
  while (state.pending.length > 0) {
    const [{ resource, after }, ...rest] = state.pending;
    if (current?.resource !== resource) {
      const [ranges, ids] = await Promise.all([pageRanges(db, businessId, resource), rowIds(db, businessId, resource)]);
      current = { resource, ranges, rowIds: ids, coming: null };
    }
    const page = await (current.coming ?? ask(resource, after));
    current.coming = page.next === null ? null : ask(resource, page.next);
    if (signal.aborted) throw new Abandoned();
    state = {
      ...state,
      pending: page.next === null ? rest : [{ resource, after: page.next }, ...rest],
      done: state.done + page.data.length,
    };
    const records = { businessId, resource, after, last: page.next ?? Number.POSITIVE_INFINITY, records: page.data, savedAt: Date.now() };
    const { ranges, rowIds: candidates } = current;
    const written = state;
    await db.transaction('rw', [db.pages, db.pageSummaries, db.records, db.syncState], async () => {
      await keepPage(db, records, ranges, candidates);
      await db.syncState.put(written);
    });
    kept(state, resource);
    await nextTurn();
  }
  return state;
}
