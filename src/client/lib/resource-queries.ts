import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListMeta } from '../../domain/list-params';
import type { ResourceDefinition } from '../../domain/resource';
import { api, type Query } from './api';

export type ApiRecord = Record<string, unknown> & { id: number; deleted_at: string | null; version: number };

export interface ListAnswer {
  data: ApiRecord[];
  meta: ListMeta;
  links: { first: string; last: string; prev: string | null; next: string | null };
}

/** Keys per ARCHITECTURE.md: everything of a resource sits under [businessId, resource]. */
export const resourceKey = (businessId: number | null, definition: ResourceDefinition) => [businessId, definition.name] as const;

export const listQuery = (businessId: number | null, definition: ResourceDefinition, params: Query) =>
  queryOptions({
    queryKey: [...resourceKey(businessId, definition), 'list', params],
    queryFn: ({ signal }) => api<ListAnswer>('GET', `/api/${definition.name}`, { query: params, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const recordQuery = (businessId: number | null, definition: ResourceDefinition, id: number) =>
  queryOptions({
    queryKey: [...resourceKey(businessId, definition), 'record', id],
    queryFn: async ({ signal }) => (await api<{ data: ApiRecord }>('GET', `/api/${definition.name}/${id}`, { signal })).data,
    retry: false,
  });
