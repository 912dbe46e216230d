import type { LineInput } from '../../domain/document-lines';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import type { ResourceStore } from '../resources/store';
import { documentStore, moveBack, type Reversals } from './document-store';
import { priceLines } from './lines';

/**
 * Stock adjustments: each line's signed quantity moves the stock at the adjustment's place in the
 * transaction that posts it (its spec's `stock: 'both'`) — a decrease past what is on hand is
 * refused (409, naming the item) and nothing is written; a void moves every line back, once (the
 * transition route decides it on the row it locked).
 */

export const stockAdjustmentsStore: ResourceStore = documentStore(stockAdjustments, {
  async prepare(trx, scope, columns, input) {
    const lines = await priceLines(trx, scope, input.lines as LineInput[], {
      list: null,
      date: String(columns.date),
      partyId: null,
      adjusts: true,
    });
    return { columns: { status: 'posted' }, lines };
  },
});

export const adjustmentReversals: Reversals = {
  'stock-adjustments': {
    async void(trx, scope, row) {
      await moveBack(trx, scope, row, 'stock-adjustment', -1);
    },
  },
};
