import { queryOptions } from '@tanstack/react-query';
import type { MarginsReport, StockValueReport } from '../../../domain/reports';
import { api, queryString, type Query } from '../../lib/api';
import { keptAnswer } from '../../lib/kept-answer';
import type { ReadBack } from '../../lib/resource-queries';

/** The report endpoints' names: `/api/reports/{name}`, and `{name}.csv` (and `.pdf`) to take away. */
type ReportPath = 'stock-value' | 'margins';

/**
 * A page of a report: from the server, kept on this device with the overview's answers (which a
 * change of the user's places takes away); without a network, the kept copy with the time it was
 * saved. While another page, day or period loads, the one shown stays — never another business's.
 */
const reportQuery = <T extends object>(businessId: number | null, report: ReportPath, what: string, params: Query) =>
  queryOptions({
    queryKey: [businessId, 'reports', report, params],
    queryFn: ({ signal }): Promise<T & ReadBack> =>
      keptAnswer(businessId, 'overview', `${businessId}|overview|reports/${report}|${queryString(params)}`, what, () =>
        api<T>('GET', `/api/reports/${report}`, { query: params, signal }),
      ),
    networkMode: 'always',
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[0] === businessId ? previous : undefined),
    retry: false,
  });

/** `GET /api/reports/stock-value`: `{ date, branch_id | warehouse_id, page, per_page }`. */
export const stockValueQuery = (businessId: number | null, params: Query) =>
  reportQuery<StockValueReport>(businessId, 'stock-value', 'this stock value report', params);

/** `GET /api/reports/margins`: `{ from, to, by, branch_id | warehouse_id, page, per_page }`. */
export const marginsQuery = (businessId: number | null, params: Query) =>
  reportQuery<MarginsReport>(businessId, 'margins', 'this margin report', params);
