import { sql } from 'kysely';
import { todayInManila } from '../../domain/documents';
import { centavosToPesos } from '../../domain/money';
import { fromThousandths } from '../../domain/quantity';
import type { LineInput } from '../../domain/resources/document-fields';
import { billPayments } from '../../domain/resources/bill-payments';
import { bills } from '../../domain/resources/bills';
import { purchaseOrders } from '../../domain/resources/purchase-orders';
import { receiveOrders } from '../../domain/resources/receive-orders';
import { nowIso } from '../db/dialect';
import { conflict, validationError } from '../errors';
import type { ResourceStore, Trx } from '../resources/store';
import { documentStore, liveSource, locationOf, type DocumentAction } from './document-store';
import { move } from './ledger';
import { priceLines, storedLines } from './lines';
import { balanceVoid, paymentStore, paymentVoid } from './payments';

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

export const purchaseOrdersStore: ResourceStore = documentStore(purchaseOrders, {
  async prepare(trx, scope, columns, input) {
    const priced = await priceLines(trx, scope, lines(input), {
      list: 'purchase',
      date: String(columns.date),
      partyId: Number(columns.contact_id),
    });
    return { columns: { status: 'open' }, lines: priced };
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
  async beforeTrash(trx, _scope, row) {
    const orderLines = await storedLines(trx, 'purchase-order', [Number(row.id)]);
    if (orderLines.some((line) => line.quantity_done > 0)) {
      throw conflict('Goods were received against this purchase order: void its receive orders before deleting it.');
    }
  },
});

/**
 * A receive order against a purchase order takes the order's lines it names (`source_line_id`),
 * at most what is still to be received of each; without one, it prices its own lines.
 */
export const receiveOrdersStore: ResourceStore = documentStore(receiveOrders, {
  async prepare(trx, scope, columns, input) {
    const orderId = columns.purchase_order_id === null ? null : Number(columns.purchase_order_id);
    let inputs = lines(input);
    if (orderId !== null) {
      const order = await liveSource(trx, scope, 'purchase_orders', orderId);
      if (!order) throw validationError({ purchase_order_id: ['The selected purchase order is invalid.'] });
      if (order.status === 'cancelled') throw conflict(`Purchase order ${String(order.number)} is cancelled.`);
      if (Number(order.contact_id) !== Number(columns.contact_id)) {
        throw validationError({ contact_id: ['The supplier must be the purchase order’s supplier.'] });
      }
      const orderLines = new Map((await storedLines(trx, 'purchase-order', [orderId])).map((line) => [line.id, line]));
      const errors: Record<string, string[]> = {};
      inputs = inputs.map((line, index) => {
        if (line.source_line_id === null || line.source_line_id === undefined) return line;
        const source = orderLines.get(line.source_line_id);
        if (!source) {
          errors[`lines.${index}.source_line_id`] = ['This line is not a line of the purchase order.'];
          return line;
        }
        const open = fromThousandths(source.quantity - source.quantity_done);
        if (line.quantity > open) errors[`lines.${index}.quantity`] = [`Only ${open} of this line remain to be received.`];
        return {
          ...line,
          item_id: source.item_id,
          unit_of_measurement_id: source.unit_of_measurement_id,
          unit_price: line.unit_price ?? centavosToPesos(source.unit_price),
          discount_percent: line.discount_percent ?? source.discount_percent / 100,
        };
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);
    }
    const priced = await priceLines(trx, scope, inputs, {
      list: 'purchase',
      date: String(columns.date),
      partyId: Number(columns.contact_id),
      // Only a receipt against an order fulfils order lines.
      fulfils: orderId !== null,
    });
    return { columns: { status: 'received' }, lines: priced };
  },
  async apply(trx, scope, document, prepared, columns) {
    const location = locationOf(columns)!;
    await move(
      trx,
      scope,
      document,
      prepared.lines!.lines.map((line) => ({ itemId: line.itemId, location, quantity: line.baseQuantity })),
    );
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
  async beforeTrash(_trx, _scope, row) {
    if (row.status !== 'void') throw conflict(`Receive order ${String(row.number)} put goods in stock: void it before deleting it.`);
  },
});

export const billsStore: ResourceStore = documentStore(bills, {
  async prepare(trx, scope, columns, input) {
    if (columns.purchase_order_id !== null) {
      const order = await liveSource(trx, scope, 'purchase_orders', Number(columns.purchase_order_id));
      if (!order) throw validationError({ purchase_order_id: ['The selected purchase order is invalid.'] });
      if (order.status === 'cancelled') throw conflict(`Purchase order ${String(order.number)} is cancelled.`);
    }
    const priced = await priceLines(trx, scope, lines(input), {
      list: 'purchase',
      date: String(columns.date),
      partyId: Number(columns.contact_id),
    });
    return { columns: { status: 'unpaid', amount_paid: 0, balance: priced.totals.total }, lines: priced };
  },
  async beforeTrash(_trx, _scope, row) {
    if (row.status !== 'void') throw conflict(`Bill ${String(row.number)} is still owed or paid: void it before deleting it.`);
  },
});

export const billPaymentsStore: ResourceStore = paymentStore(billPayments, { table: 'bills', field: 'bill_id', noun: 'Bill' });

export const purchasingActions: Record<string, DocumentAction> = {
  'purchase-orders': {
    name: 'cancel',
    status: 'cancelled',
    permission: 'update',
    async undo(trx, _scope, row) {
      if (row.status === 'cancelled') throw conflict(`Purchase order ${String(row.number)} is already cancelled.`);
      const orderLines = await storedLines(trx, 'purchase-order', [Number(row.id)]);
      if (orderLines.some((line) => line.quantity_done > 0)) {
        throw conflict(`Goods were received against purchase order ${String(row.number)}: void its receive orders first.`);
      }
    },
  },
  'receive-orders': {
    name: 'void',
    status: 'void',
    permission: 'delete',
    async undo(trx, scope, row) {
      if (row.status === 'void') throw conflict(`Receive order ${String(row.number)} is already void.`);
      // The order first, as a receipt made from it locks it first: never the two in opposite orders.
      if (row.purchase_order_id !== null) await liveSource(trx, scope, 'purchase_orders', Number(row.purchase_order_id));
      const location = locationOf(row)!;
      const received = await storedLines(trx, 'receive-order', [Number(row.id)]);
      await move(
        trx,
        scope,
        { type: 'receive-order', id: Number(row.id), number: String(row.number), date: todayInManila() },
        received.map((line) => ({ itemId: line.item_id, location, quantity: -line.base_quantity })),
      );
      if (row.purchase_order_id === null) return;
      for (const line of received) {
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
  bills: balanceVoid('Bill', 'bills'),
  'bill-payments': paymentVoid('Bill payment', 'bills', 'bill_id'),
};
