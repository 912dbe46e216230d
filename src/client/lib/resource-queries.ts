import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listMeta, type ListMeta } from '../../domain/list-params';
import type { ResourceDefinition } from '../../domain/resource';
import { api, queryString, type Query } from './api';
import { searchKept } from './kept-search';
import { isNetworkFailure, NotAvailableOffline, readAnswer, keptRecords, readRecord, saveAnswer, type OutboxEntry } from './offline-store';

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

/**
 * A list: from the server, kept on this device; without a network, the kept copy of the same
 * list — or, for a picker (`limit`), the kept records whose display matches the typed text.
 */
export const listQuery = (businessId: number | null, definition: ResourceDefinition, params: Query) =>
  queryOptions({
    queryKey: [...resourceKey(businessId, definition), 'list', params],
    queryFn: async ({ signal }): Promise<ListAnswer> => {
      const key = `${businessId}|${definition.name}|list|${queryString(params)}`;
      try {
        const answer = await api<ListAnswer>('GET', `/api/${definition.name}`, { query: params, signal });
        if (businessId !== null) void saveAnswer(key, businessId, definition.name, answer, answer.data);
        return answer;
      } catch (error) {
        if (!isNetworkFailure(error) || businessId === null) throw error;
        const saved = await readAnswer(key);
        if (saved) return { ...(saved.body as ListAnswer), savedOffline: saved.savedAt };
        // A list or search not seen as such: the records this device kept, searched by the list's own fields.
        const kept = await keptRecords(businessId, definition.name);
        if (kept.length === 0) throw new NotAvailableOffline(`this list of ${definition.plural.toLowerCase()}`);
        const found = searchKept(definition, params as Record<string, unknown>, kept);
        return {
          data: found.rows as ApiRecord[],
          meta: listMeta(found.total, found.page, found.perPage, found.rows.length),
          links: { first: '', last: '', prev: null, next: null },
          savedOffline: Date.now(),
        };
      }
    },
    networkMode: 'always',
    placeholderData: keepPreviousData,
    retry: false,
  });

/** One record: from the server, kept on this device; without a network, as last seen here. */
export const recordQuery = (businessId: number | null, definition: ResourceDefinition, id: number) =>
  queryOptions({
    queryKey: [...resourceKey(businessId, definition), 'record', id],
    queryFn: async ({ signal }): Promise<ApiRecord> => {
      const key = `${businessId}|${definition.name}|record|${id}`;
      try {
        const record = (await api<{ data: ApiRecord }>('GET', `/api/${definition.name}/${id}`, { signal })).data;
        if (businessId !== null) void saveAnswer(key, businessId, definition.name, record, [record]);
        return record;
      } catch (error) {
        if (!isNetworkFailure(error) || businessId === null) throw error;
        const saved = (await readAnswer(key)) ?? (await readRecord(businessId, definition.name, id));
        const body = saved && ('body' in saved ? saved.body : saved.record);
        if (saved && body) return { ...(body as ApiRecord), savedOffline: saved.savedAt };
        throw new NotAvailableOffline(`this ${definition.singular.toLowerCase()}`);
      }
    },
    networkMode: 'always',
    retry: false,
  });
