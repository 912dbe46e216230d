import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { keptAnswer } from '../../lib/kept-answer';
import type { ReadBack } from '../../lib/resource-queries';
import type { Statement } from '../../../domain/statement';

/**
 * The statement of the contact `contactId` over a period: from the server, kept on this device
 * with the overview's answers (which a change of the user's places takes away); without a network,
 * the kept copy with the time it was saved.
 */
export const statementQuery = (businessId: number | null, contactId: number, period: { from: string; to: string }) =>
  queryOptions({
    queryKey: [businessId, 'statement', contactId, period],
    queryFn: ({ signal }): Promise<Statement & ReadBack> =>
      keptAnswer(
        businessId,
        'overview',
        `${businessId}|overview|statement/${contactId}|?from=${period.from}&to=${period.to}`,
        'this statement',
        () => api<Statement>('GET', `/api/contacts/${contactId}/statement`, { query: period, signal }),
      ),
    networkMode: 'always',
    retry: false,
  });
