import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listMeta, type ListMeta } from '../../domain/list-params';
import type { ResourceDefinition } from '../../domain/resource';
import { api, ApiError, queryString, type Query } from './api';
import { keptInIdOrder } from './kept-id-order';
import { keptIndex, madeKeptIndex, warmKeptIndex } from './kept-index';
import { answeredByWorkingSet, searchKept } from './kept-search';
import { isNewer, keptRecord } from './kept-records';
import { whenIdle } from './when-idle';
import {
  isNetworkFailure,
  keptWhole,
  NotAvailableOffline,
  offlineDatabase,
  readAnswer,
  saveAnswer,
  type OutboxEntry,
} from './offline-store';

/** When a screen shows a copy kept on this device because the network failed: the time it was saved. */
export interface ReadBack {
  savedOffline?: number;
}

export type ApiRecord = Record<string, unknown> & {
  /** A server id, or the client key of a record created on this device that has not synced yet. */
  id: number | string;
  deleted_at: string | null;
  version: number;
  /** The newest change to the record still in the outbox. */
  pending?: OutboxEntry;
} & ReadBack;

export interface ListAnswer extends ReadBack {
  data: ApiRecord[];
  meta: ListMeta;
  links: { first: string; last: string; prev: string | null; next: string | null };
}

/** Query keys: everything of a resource sits under [businessId, resource]. */
export const resourceKey = (businessId: number | null, definition: ResourceDefinition) => [businessId, definition.name] as const;

/** A call not made: the browser says it has no network, so the answer kept on this device is read at once. */
const noNetwork = () => new ApiError(0, 'The server cannot be reached. Check the connection and try again.');
const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * A list: from the server, kept on this device; without a network, the kept copy of the same
 * list — or, for a list or search not seen as such, the kept records searched by the list's own
 * fields (kept-search.ts, over their index in memory: kept-index.ts). A list of a resource the
 * device keeps whole (its working set, working-set.ts) is answered from the kept records, current
 * as of the working set's last sync, rather than from a list saved before — when they hold its
 * whole answer (`answeredByWorkingSet`: no trash, and of documents only those still worked on).
 */
export const listQuery = (businessId: number | null, definition: ResourceDefinition, params: Query) =>
  queryOptions({
    queryKey: [...resourceKey(businessId, definition), 'list', params],
    queryFn: async ({ signal }): Promise<ListAnswer> => {
      const key = `${businessId}|${definition.name}|list|${queryString(params)}`;
      try {
        if (offline()) throw noNetwork();
        const answer = await api<ListAnswer>('GET', `/api/${definition.name}`, { query: params, signal });
        if (businessId !== null) void saveAnswer(key, businessId, definition.name, answer, answer.data);
        return answer;
      } catch (error) {
        if (!isNetworkFailure(error) || businessId === null) throw error;
        const asked = params as Record<string, unknown>;
        const whole = answeredByWorkingSet(definition, asked) ? await keptWhole(businessId, definition.name) : null;
        const saved = whole ? undefined : await readAnswer(key);
        if (saved) return { ...(saved.body as ListAnswer), savedOffline: saved.savedAt };
        // The list a screen opens on, of records kept whole, read from the store before their index is
        // made (its making is most of a cold start offline): the index is made after, for what comes next.
        const first = whole && !madeKeptIndex(businessId, definition) ? await firstPageKept(businessId, definition, asked) : null;
        // A list or search not seen as such: the records this device kept, searched by the list's own fields.
        const index = first ? null : await keptIndex(businessId, definition);
        if (!first && (!index || (index.size === 0 && !whole)))
          throw new NotAvailableOffline(`this list of ${definition.plural.toLowerCase()}`);
        const found = first ?? searchKept(definition, asked, index!);
        return {
          data: found.rows as ApiRecord[],
          meta: listMeta(found.total, found.page, found.perPage, found.rows.length),
          links: { first: '', last: '', prev: null, next: null },
          savedOffline: whole?.syncedAt || Date.now(),
        };
      }
    },
    networkMode: 'always',
    placeholderData: keepPreviousData,
    retry: false,
  });

/** A page of a list in id order read from the kept records (kept-id-order.ts), the index made once the page is idle; null when it cannot be. */
async function firstPageKept(businessId: number, definition: ResourceDefinition, asked: Record<string, unknown>) {
  const found = await offlineDatabase()
    ?.then((db) => keptInIdOrder(db, businessId, definition, asked))
    .catch(() => null);
  if (found) whenIdle(() => warmKeptIndex(businessId, definition));
  return found ?? null;
}

/**
 * One record: from the server, kept on this device; without a network, as last seen here — the
 * record's own answer, or the record as a list or the working set's sync last brought it, whichever
 * is newer (by version, then by when it was saved).
 */
export const recordQuery = (businessId: number | null, definition: ResourceDefinition, id: number) =>
  queryOptions({
    queryKey: [...resourceKey(businessId, definition), 'record', id],
    queryFn: async ({ signal }): Promise<ApiRecord> => {
      const key = `${businessId}|${definition.name}|record|${id}`;
      try {
        if (offline()) throw noNetwork();
        const record = (await api<{ data: ApiRecord }>('GET', `/api/${definition.name}/${id}`, { signal })).data;
        if (businessId !== null) void saveAnswer(key, businessId, definition.name, record, [record]);
        return record;
      } catch (error) {
        if (!isNetworkFailure(error) || businessId === null) throw error;
        const [answered, listed] = await Promise.all([
          readAnswer(key),
          offlineDatabase()
            ?.then((db) => keptRecord(db, businessId, definition.name, id))
            .catch(() => undefined),
        ]);
        const own = answered?.body ? { record: answered.body as ApiRecord, savedAt: answered.savedAt } : undefined;
        const newest = own && listed ? (isNewer(listed, own) ? listed : own) : (own ?? listed);
        if (newest) return { ...(newest.record as ApiRecord), savedOffline: newest.savedAt };
        throw new NotAvailableOffline(`this ${definition.singular.toLowerCase()}`);
      }
    },
    networkMode: 'always',
    retry: false,
  });
