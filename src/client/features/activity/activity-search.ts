import { findResource } from '../../../domain/resources/registry';

/** The filters of `/activity`, kept in the URL so a search can be shared and survives a reload. */
export interface ActivitySearch {
  resource?: string;
  record_id?: string;
  user_id?: string;
  from?: string;
  to?: string;
  page?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const WHOLE = /^\d{1,9}$/;

/** Only well-formed filters reach the screen: a hand-edited URL cannot make the API answer 422. */
export function activitySearch(search: Record<string, unknown>): ActivitySearch {
  const text = (name: string, pattern: RegExp) => {
    const value = search[name];
    const raw = typeof value === 'number' ? String(value) : value;
    return typeof raw === 'string' && pattern.test(raw) ? raw : undefined;
  };
  const resource = typeof search.resource === 'string' && findResource(search.resource) ? search.resource : undefined;
  const page = Number(search.page);
  return {
    resource,
    record_id: text('record_id', WHOLE),
    user_id: text('user_id', WHOLE),
    from: text('from', DAY),
    to: text('to', DAY),
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}
