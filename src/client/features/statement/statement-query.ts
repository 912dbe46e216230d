import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { keptAnswer } from '../../lib/kept-answer';
import type { ReadBack } from '../../lib/resource-queries';

/** A customer's statement of account, as `GET /api/contacts/{id}/statement` answers it (src/server/routes/statements.routes.ts); money in pesos. */
export interface StatementAnswer {
  from: string;
  to: string;
  business: { name: string; trade_name: string | null; address: string | null; tin: string | null };
  customer: { id: number; name: string; company_name: string | null; address: string | null; tin: string | null };
  /** The places whose documents it holds, for a user who views only some; null: every place. */
  places: string[] | null;
  opening_balance: number;
  data: StatementRow[];
  totals: { debit: number; credit: number };
  closing_balance: number;
}

export interface StatementRow {
  date: string;
  resource: string;
  id: number;
  kind: string;
  number: string;
  description: string;
  debit: number;
  credit: number;
  balance: number;
}

/**
 * The statement of the contact `contactId` over a period: from the server, kept on this device
 * with the overview's answers (which a change of the user's places takes away); without a network,
 * the kept copy with the time it was saved.
 */
export const statementQuery = (businessId: number | null, contactId: number, period: { from: string; to: string }) =>
  queryOptions({
    queryKey: [businessId, 'statement', contactId, period],
    queryFn: ({ signal }): Promise<StatementAnswer & ReadBack> =>
      keptAnswer(
        businessId,
        'overview',
        `${businessId}|overview|statement/${contactId}|?from=${period.from}&to=${period.to}`,
        'this statement',
        () => api<StatementAnswer>('GET', `/api/contacts/${contactId}/statement`, { query: period, signal }),
      ),
    networkMode: 'always',
    retry: false,
  });
