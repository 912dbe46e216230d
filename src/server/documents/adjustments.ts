import { z } from 'zod';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import type { ResourceStore } from '../resources/store';
import type { ServerPart } from './server-part';
import { declaredDocumentStore } from './document-store';

/**
 * Stock adjustments: each line's signed quantity moves the stock at the adjustment's place in the
 * transaction that posts it (its spec's `stock: 'both'`) — a decrease past what is on hand is
 * refused (409, naming the item) and nothing is written; a line's reason may decide its sign
 * (`domain/document-lines.ts`). A void moves every line back, once (the transition route decides
 * it on the row it locked, and who may take it: see the lifecycle's `byMakerSameDay`).
 */

const store = declaredDocumentStore(stockAdjustments);

const stockAdjustmentsStore: ResourceStore = {
  ...store,
  // Who made each adjustment: the screen offers its maker the void on the day they made it.
  async decorate(db, scope, records) {
    await store.decorate?.(db, scope, records);
    const rows = await db
      .selectFrom('stock_adjustments')
      .select(['id', 'created_by'])
      .where(
        'id',
        'in',
        records.map((record) => record.id),
      )
      .execute();
    const makers = new Map(rows.map((row) => [Number(row.id), row.created_by === null ? null : Number(row.created_by)]));
    for (const record of records) record.created_by = makers.get(record.id) ?? null;
  },
  decorated: {
    created_by: z
      .number()
      .int()
      .nullable()
      .describe('The user who made it: they may void it on the day they made it without the delete permission'),
  },
};

/** Stock adjustments; a void moves their lines back as they declare (`effects.stock`). */
export const adjustmentsPart: ServerPart = { definition: stockAdjustments, store: stockAdjustmentsStore };
