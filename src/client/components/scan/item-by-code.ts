import { useQueryClient } from '@tanstack/react-query';
import { getResource } from '../../../domain/resources/registry';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';

/**
 * The item a scanned code names: its barcode as it is, else its SKU (a QR or Code 128 label may
 * carry either). Asked as a list query, so what was read online is found offline too.
 */
export function useItemByCode(): (code: string) => Promise<ApiRecord | undefined> {
  const businessId = useActiveBusinessId();
  const queryClient = useQueryClient();
  const items = getResource('items');
  return async (code) => {
    for (const field of ['barcode', 'sku']) {
      const answer = await queryClient.fetchQuery(listQuery(businessId, items, { [field]: code.trim(), is_strict: 1, limit: 1 }));
      if (answer.data[0]) return answer.data[0];
    }
    return undefined;
  };
}
