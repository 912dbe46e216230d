import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../domain/list-params';
import type { ResourceDefinition } from '../../../domain/resource';
import type { Query } from '../../lib/api';
import type { Order } from '../../lib/sorting';

/** A list screen's state, all of it in the URL's search params, so a list can be linked, reloaded and gone back to. */
export interface ListState {
  page: number;
  per_page: number;
  order_by: Order;
  order_by_field_name: string;
  with_trashed: boolean;
  only_trashed: boolean;
  is_strict: boolean;
  searches: Record<string, string>;
}

const flag = (value: unknown) => value === 1 || value === '1' || value === true || value === 'true';

/** Reads the URL leniently: a hand-edited or stale link falls back to defaults, never fails. */
export function readListState(definition: ResourceDefinition, raw: Record<string, unknown>): ListState {
  const page = Number(raw.page);
  const perPage = Number(raw.per_page);
  const field = String(raw.order_by_field_name ?? 'id');
  const searches: Record<string, string> = {};
  for (const name of definition.search) {
    const value = raw[name];
    if (value !== undefined && value !== null && String(value).trim() !== '') searches[name] = String(value);
  }
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    per_page: (PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : DEFAULT_PAGE_SIZE,
    order_by: raw.order_by === 'asc' ? 'asc' : 'desc',
    order_by_field_name: definition.sort.includes(field) ? field : 'id',
    with_trashed: flag(raw.with_trashed),
    only_trashed: flag(raw.only_trashed),
    is_strict: flag(raw.is_strict),
    searches,
  };
}

/** What the API is asked. */
export function apiQuery(state: ListState): Query {
  return {
    page: state.page,
    per_page: state.per_page,
    order_by: state.order_by,
    order_by_field_name: state.order_by_field_name,
    with_trashed: state.with_trashed ? 1 : 0,
    only_trashed: state.only_trashed ? 1 : 0,
    is_strict: state.is_strict ? 1 : 0,
    ...state.searches,
  };
}

/** What the URL shows: everything but defaults, so a plain list has a plain address. */
export function urlSearch(state: ListState): Record<string, string | number> {
  const search: Record<string, string | number> = { ...state.searches };
  if (state.page !== 1) search.page = state.page;
  if (state.per_page !== DEFAULT_PAGE_SIZE) search.per_page = state.per_page;
  if (state.order_by !== 'desc') search.order_by = state.order_by;
  if (state.order_by_field_name !== 'id') search.order_by_field_name = state.order_by_field_name;
  if (state.with_trashed) search.with_trashed = 1;
  if (state.only_trashed) search.only_trashed = 1;
  if (state.is_strict) search.is_strict = 1;
  return search;
}

/** The field the Quick Search box searches: the display field, else the first text field. */
export function quickSearchField(definition: ResourceDefinition): string | undefined {
  if (definition.search.includes(definition.display) && definition.display !== 'id') return definition.display;
  return definition.search.find((name) => ['text', 'email'].includes(definition.fields[name]?.kind ?? ''));
}

/**
 * Records named by no text of their own (prices, stocks, conversions) are quick-searched by the
 * record they are of: the box picks one (an item by name, SKU or barcode) and the list is searched
 * by its id. Undefined when the list has a text field to search.
 */
export function quickSearchReference(definition: ResourceDefinition): string | undefined {
  if (quickSearchField(definition)) return undefined;
  return definition.search.find((name) => definition.fields[name]?.kind === 'reference' && definition.fields[name]?.references);
}
