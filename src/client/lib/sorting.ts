export type Order = 'asc' | 'desc';

export interface Sort {
  field: string;
  order: Order;
}

export const DEFAULT_SORT: Sort = { field: 'id', order: 'desc' };

/**
 * A click on a column header: a new column sorts descending, a descending one
 * ascending, and an ascending one goes back to the default, id descending.
 */
export function nextColumnSort(current: Sort, field: string): Sort {
  if (current.field !== field) return { field, order: 'desc' };
  if (current.order === 'desc') return { field, order: 'asc' };
  return DEFAULT_SORT;
}

/** The pager's toggle: choosing the order already in force returns the sort field to id. */
export function pagerSort(current: Sort, order: Order): Sort {
  return current.order === order ? { field: 'id', order } : { field: current.field, order };
}

/** The toggle's two words: Newest/Oldest by id, Decending/Ascending (the product's spelling) otherwise. */
export function sortWords(field: string): Record<Order, string> {
  return field === 'id' ? { desc: 'Newest', asc: 'Oldest' } : { desc: 'Decending', asc: 'Ascending' };
}

/** `created_at` → `Created at`. */
export function fieldCaption(field: string): string {
  const words = field.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
