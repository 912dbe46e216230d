import { sql } from 'kysely';
import { centavosToPesos } from '../../domain/money';
import { fromThousandths, toThousandths } from '../../domain/quantity';
import type { LineInput } from '../../domain/document-lines';
import { bills } from '../../domain/resources/bills';
import { purchaseOrders } from '../../domain/resources/purchase-orders';
import { receiveOrders } from '../../domain/resources/receive-orders';
import { nowIso } from '../db/dialect';
import { conflict, validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import type { Scope, Trx } from '../db/scope';
import type { ServerPart } from './server-part';
import { documentStore, liveSource, viewedSource } from './document-store';
import { costBilled } from './costing';
import { priceLines, storedLines, type StoredLine } from './lines';

/**
 * Purchasing: purchase orders → receive orders (stock in; the order's status follows what was
 * received) → bills → bill payments (the bill's balance and status follow).
 */

const lines = (input: Record<string, unknown>) => input.lines as LineInput[];

/** open → partially_received → received, from what its lines have received. */
async function followPurchaseOrder(trx: Trx, purchaseOrderId: number): Promise<void> {
  const orderLines = await storedLines(trx, 'purchase-order', [purchaseOrderId]);
  const received = orderLines.filter((line) => line.quantity_done > 0).length;
  const complete = orderLines.every((line) => line.quantity_done >= line.quantity);
  const status = complete ? 'received' : received > 0 ? 'partially_received' : 'open';
  await trx
    .updateTable('purchase_orders')
    .set({ status, updated_at: nowIso(), version: sql`version + 1` })
    .where('id', '=', purchaseOrderId)
    .where('status', '!=', 'cancelled')
    .execute();
}

const purchaseOrdersStore: ResourceStore = documentStore(purchaseOrders, {
  async prepare(trx, scope, columns, input) {
    const priced = await priceLines(trx, scope, lines(input), {
      list: 'purchase',
      date: String(columns.date),
      partyId: Number(columns.contact_id),
    });
    return { lines: priced };
  },
  async relines(trx, scope, row, inputs) {
    if (row.status !== 'open')
      throw conflict(`Purchase order ${String(row.number)} is ${String(row.status).replace('_', ' ')}: its lines can no longer change.`);
    const billed = await trx
      .selectFrom('bills')
      .select('id')
      .where('purchase_order_id', '=', Number(row.id))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (billed) throw conflict(`Purchase order ${String(row.number)} is billed: its lines can no longer change.`);
    return priceLines(trx, scope, inputs, { list: 'purchase', date: String(row.date), partyId: Number(row.contact_id) });
  },
});

/**
 * The lines of a document made from a purchase order (a receipt, a bill), each taken to the
 * order line it fulfils: the one it names (`source_line_id`), or else the order's line of the
 * same item (and unit, when given) with the most still open. Each takes at most what is still
 * open of its order line (`open`), counting the document's earlier lines; a line of an item the
 * order does not hold is refused.
 */
function againstOrder(
  inputs: LineInput[],
  order: Record<string, unknown>,
  orderLines: StoredLine[],
  open: (line: StoredLine) => number,
  verb: string,
): LineInput[] {
  const left = new Map(orderLines.map((line) => [line.id, open(line)]));
  const errors: Record<string, string[]> = {};
  const matched = inputs.map((line, index) => {
    const named = line.source_line_id === null || line.source_line_id === undefined ? undefined : line.source_line_id;
    const candidates = orderLines.filter((source) =>
      named !== undefined
        ? source.id === named
        : source.item_id === line.item_id &&
          (line.unit_of_measurement_id === undefined || source.unit_of_measurement_id === line.unit_of_measurement_id),
    );
    const source = candidates.sort((a, b) => (left.get(b.id) ?? 0) - (left.get(a.id) ?? 0))[0];
    if (!source) {
      errors[named !== undefined ? `lines.${index}.source_line_id` : `lines.${index}.item_id`] = [
        named !== undefined
          ? `This line is not a line of purchase order ${String(order.number)}.`
          : `This item is not on purchase order ${String(order.number)}${line.unit_of_measurement_id === undefined ? '' : ' in this unit'}.`,
      ];
      return line;
    }
    const remaining = left.get(source.id) ?? 0;
    const quantity = toThousandths(line.quantity);
    if (quantity > remaining)
      errors[`lines.${index}.quantity`] = [`Only ${fromThousandths(Math.max(0, remaining))} of this line remain to be ${verb}.`];
    left.set(source.id, remaining - quantity);
    return {
      ...line,
      source_line_id: source.id,
      item_id: source.item_id,
      unit_of_measurement_id: source.unit_of_measurement_id,
      unit_price: line.unit_price ?? centavosToPesos(source.unit_price),
      discount_percent: line.discount_percent ?? source.discount_percent / 100,
    };
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return matched;
}

/**
 * The live purchase order of the document's supplier that a receipt or a bill is made from, locked;
 * one at a place the user does not view is answered as one that does not exist.
 */
async function sourceOrder(trx: Trx, scope: Scope, columns: Record<string, unknown>): Promise<Record<string, unknown>> {
  const order = await viewedSource(trx, scope, purchaseOrders, Number(columns.purchase_order_id));
  if (!order) throw validationError({ purchase_order_id: ['The selected purchase order is invalid.'] });
  if (Number(order.contact_id) !== Number(columns.contact_id)) {
    throw validationError({ contact_id: ['The supplier must be the purchase order’s supplier.'] });
  }
  return order;
}

/** How much of each purchase order line unvoided bills have billed, by line id. */
async function billedOf(trx: Trx, orderId: number): Promise<Map<number, number>> {
  const rows = await trx
    .selectFrom('document_lines')
    .innerJoin('bills', 'bills.id', 'document_lines.document_id')
    .select(['document_lines.source_line_id', sql<number>`sum(document_lines.quantity)`.as('quantity')])
    .where('document_lines.document_type', '=', 'bill')
    .where('bills.purchase_order_id', '=', orderId)
    .where('bills.status', '!=', 'void')
    .where('document_lines.source_line_id', 'is not', null)
    .groupBy('document_lines.source_line_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.source_line_id), row.quantity]));
}

/**
 * A receive order against a purchase order receives the order's lines (see `againstOrder`), at
 * most what is still to be received of each; without an order, it prices its own lines.
 */
const receiveOrdersStore: ResourceStore = documentStore(receiveOrders, {
  async prepare(trx, scope, columns, input) {
    const orderId = columns.purchase_order_id === null ? null : Number(columns.purchase_order_id);
    let inputs = lines(input);
    if (orderId !== null) {
      const order = await sourceOrder(trx, scope, columns);
      const orderLines = await storedLines(trx, 'purchase-order', [orderId]);
      inputs = againstOrder(inputs, order, orderLines, (line) => line.quantity - line.quantity_done, 'received');
    }
    const priced = await priceLines(trx, scope, inputs, {
      list: 'purchase',
      date: String(columns.date),
      partyId: Number(columns.contact_id),
      // Only a receipt against an order fulfils order lines.
      fulfils: orderId !== null,
    });
    return { lines: priced };
  },
  async apply(trx, _scope, _document, prepared, columns) {
    if (columns.purchase_order_id === null) return;
    for (const [index, line] of prepared.lines!.lines.entries()) {
      if (line.sourceLineId === null) continue;
      // Guarded in the UPDATE itself: a receipt made meanwhile may have taken what was open.
      const received = await trx
        .updateTable('document_lines')
        .set({ quantity_done: sql`quantity_done + ${line.quantity}` })
        .where('id', '=', line.sourceLineId)
        .where(sql<boolean>`quantity_done + ${line.quantity} <= quantity`)
        .executeTakeFirst();
      if (Number(received.numUpdatedRows) === 0) {
        throw validationError({ [`lines.${index}.quantity`]: ['More than remains to be received of this line.'] });
      }
    }
    await followPurchaseOrder(trx, Number(columns.purchase_order_id));
  },
});

/** A bill against a purchase order bills the order's lines (see `againstOrder`), at most what unvoided bills have not billed of each. */
const billsStore: ResourceStore = documentStore(bills, {
  async prepare(trx, scope, columns, input) {
    let inputs = lines(input);
    const orderId = columns.purchase_order_id === null ? null : Number(columns.purchase_order_id);
    if (orderId !== null) {
      const order = await sourceOrder(trx, scope, columns);
      const billed = await billedOf(trx, orderId);
      const orderLines = await storedLines(trx, 'purchase-order', [orderId]);
      inputs = againstOrder(inputs, order, orderLines, (line) => line.quantity - (billed.get(line.id) ?? 0), 'billed');
    }
    const priced = await priceLines(trx, scope, inputs, {
      list: 'purchase',
      date: String(columns.date),
      partyId: Number(columns.contact_id),
      // A bill's lines name the order lines they bill, which are counted by what bills name.
      fulfils: orderId !== null,
    });
    return { columns: { amount_paid: 0, balance: priced.totals.total }, lines: priced };
  },
  async apply(trx, scope, document, prepared) {
    // What it bills, the goods received against it cost from now on (docs/costing.md).
    const billed = prepared.lines!.lines.flatMap((line) => (line.sourceLineId === null ? [] : [line.sourceLineId]));
    await costBilled(trx, scope.businessId, { type: document.type, id: document.id, voided: false }, billed);
  },
});

/** Orders, receipts and bills; bill payments are served from their declaration (`effects.settles`). */
export const purchasingParts: readonly ServerPart[] = [
  { definition: purchaseOrders, store: purchaseOrdersStore },
  {
    definition: receiveOrders,
    store: receiveOrdersStore,
    reversals: {
      // Its goods leave stock as it declares; what it received of its order is owed again.
      async void(trx, scope, row) {
        if (row.purchase_order_id === null) return;
        // The order first, as a receipt made from it locks it first: never the two in opposite orders.
        await liveSource(trx, scope, 'purchase_orders', Number(row.purchase_order_id));
        for (const line of await storedLines(trx, receiveOrders.document!.type, [Number(row.id)])) {
          if (line.source_line_id === null) continue;
          await trx
            .updateTable('document_lines')
            .set({ quantity_done: sql`quantity_done - ${line.quantity}` })
            .where('id', '=', line.source_line_id)
            .execute();
        }
        await followPurchaseOrder(trx, Number(row.purchase_order_id));
      },
    },
  },
  {
    definition: bills,
    store: billsStore,
    reversals: {
      // The goods received against what it billed cost what they did before it: their receipt's
      // price, or another unvoided bill's. Its payments and memoranda are refused first (balanceVoid).
      async void(trx, scope, row) {
        const billed = (await storedLines(trx, bills.document!.type, [Number(row.id)])).flatMap((line) =>
          line.source_line_id === null ? [] : [line.source_line_id],
        );
        await costBilled(trx, scope.businessId, { type: bills.document!.type, id: Number(row.id), voided: true }, billed);
      },
    },
  },
];
