import type { ResourceDefinition } from './resource';

/**
 * The list contract of every `GET /api/{resource}`, shared by the
 * server that answers it and the screens that keep it in their URL:
 *
 *   ?page=2&per_page=25&order_by=asc&order_by_field_name=name&with_trashed=1&is_strict=0&name=rice
 *
 * `page` (from 1), `per_page` (15, 25, 50, 75 or 100; default 15), `order_by` (asc|desc; default
 * desc), `order_by_field_name` (a sortable field; default id), `with_trashed` / `only_trashed`
 * (0|1), `is_strict` (1: exact match; 0: case-insensitive contains), `limit` (a picker's page of
 * 1 to 100 rows), and the resource's search fields by name. The answer is
 * `{data, meta: {total, per_page, current_page, last_page, from, to}, links: {first, last, prev, next}}`.
 */

export const PAGE_SIZES = [15, 25, 50, 75, 100] as const;
export const DEFAULT_PAGE_SIZE = 15;
export const PICKER_LIMIT = 15;

/**
 * The search values a list was asked for: non-reserved names with a non-empty value, trimmed —
 * except ids (`id`, references), taken as sent, so ` 5 ` names no record rather than record 5.
 */
export function activeSearches(definition: ResourceDefinition, params: Record<string, unknown>): [string, string][] {
  return definition.search.flatMap((name) => {
    const value = params[name];
    if (typeof value !== 'string' || value.trim() === '') return [];
    const field = definition.fields[name];
    const namesRecord = name === 'id' || field?.kind === 'reference' || field?.referencesBy !== undefined;
    return [[name, namesRecord ? value : value.trim()] as [string, string]];
  });
}

export interface ListMeta {
  /** Every record the list selects; when `total_exact` is false, only how many were counted: there are more. */
  total: number;
  /** False when a search matched so many records that counting stopped at `total` (more than that match). */
  total_exact: boolean;
  per_page: number;
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
}

/** A page's `meta`. Of a total that is not exact, the last page is the last known to hold rows: the one past the count. */
export function listMeta(total: number, page: number, perPage: number, rowsOnPage: number, exact = true): ListMeta {
  const from = rowsOnPage > 0 ? (page - 1) * perPage + 1 : null;
  return {
    total,
    total_exact: exact,
    per_page: perPage,
    current_page: page,
    last_page: Math.max(1, Math.ceil((exact ? total : total + 1) / perPage)),
    from,
    to: from === null ? null : from + rowsOnPage - 1,
  };
}
