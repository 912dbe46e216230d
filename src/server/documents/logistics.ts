import { sql } from 'kysely';
import { todayInManila, type Location } from '../../domain/documents';
import { fromThousandths } from '../../domain/quantity';
import type { LineInput } from '../../domain/document-lines';
import { stockReceives } from '../../domain/resources/stock-receives';
import { stockRequests } from '../../domain/resources/stock-requests';
import { stockReturns } from '../../domain/resources/stock-returns';
import { stockTransfers } from '../../domain/resources/stock-transfers';
import { nowIso } from '../db/dialect';
import { validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import { untyped, type Trx } from '../db/scope';
import { documentStore, liveSource, viewedSource, type Reversals } from './document-store';
import { move } from './ledger';
import { priceLines, storedLines, type StoredLine } from './lines';

/**
 * Logistics: a stock request asks a location for goods → a stock transfer takes them out of the
 * source at once and puts them in transit to the destination (the request follows what was
 * transferred) → stock receives take them out of transit and on hand there (the transfer follows
 * what was received).
 *
 * Each is made where its definition's places say (`domain/places.ts`): a request by someone
 * operating at the requesting place (`to_`), which may ask any live place of the business, one
 * they do not view too; a transfer by someone operating where the goods leave (`from_`: a
 * request's or a return's own source, as a transfer made from one keeps its ends); a receive by
 * someone operating where they arrive (`to_`, the transfer's); a return by someone operating
 * where they go back from (`from_`, the transfer's destination). The document a transfer,
 * receive or return is made from must be one the user views; another is answered as one that
 * does not exist. Both sides of each see it.
 */

const lines = (input: Record<string, unknown>) => input.lines as LineInput[];
const from = (row: Record<string, unknown>): Location => ({
  type: row.from_location_type as Location['type'],
  id: Number(row.from_location_id),
});
const to = (row: Record<string, unknown>): Location => ({ type: row.to_location_type as Location['type'], id: Number(row.to_location_id) });
const counted = (columns: Record<string, unknown>, fulfils: boolean) => ({
  list: null,
  date: String(columns.date),
  partyId: null,
  fulfils,
});

/**
 * Lines fulfilling a source document's lines (`source_line_id`): item and unit are the source
 * line's, and the quantity at most what is still open on it (`quantity − quantity_done`).
 */
function fulfilling(inputs: LineInput[], sourceLines: StoredLine[], verb: string): LineInput[] {
  const byId = new Map(sourceLines.map((line) => [line.id, line]));
  const errors: Record<string, string[]> = {};
  const fulfilled = inputs.map((line, index) => {
    const source = line.source_line_id ? byId.get(line.source_line_id) : undefined;
    if (!source) {
      errors[`lines.${index}.source_line_id`] = [`Each line must be a line of the document it ${verb}.`];
      return line;
    }
    const open = fromThousandths(source.quantity - source.quantity_done);
    if (line.quantity > open) errors[`lines.${index}.quantity`] = [`Only ${open} of this line remain.`];
    return { ...line, item_id: source.item_id, unit_of_measurement_id: source.unit_of_measurement_id };
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return fulfilled;
}

/** Adds to what later documents fulfilled of source lines, refusing (in the UPDATE itself) more than they hold. */
async function fulfil(trx: Trx, fulfilled: readonly { sourceLineId: number | null; quantity: number }[], sign = 1): Promise<void> {
  for (const [index, line] of fulfilled.entries()) {
    if (line.sourceLineId === null) continue;
    const done = await trx
      .updateTable('document_lines')
      .set({ quantity_done: sql`quantity_done + ${sign * line.quantity}` })
      .where('id', '=', line.sourceLineId)
      .where(sql<boolean>`quantity_done + ${sign * line.quantity} between 0 and quantity`)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw validationError({ [`lines.${index}.quantity`]: ['More than remains of this line.'] });
  }
}

/** A status from how much of a document's lines later documents fulfilled. */
async function follow(trx: Trx, table: string, type: string, id: number, [none, part, all]: [string, string, string]): Promise<void> {
  const fulfilled = await storedLines(trx, type, [id]);
  const status = fulfilled.every((line) => line.quantity_done >= line.quantity)
    ? all
    : fulfilled.some((line) => line.quantity_done > 0)
      ? part
      : none;
  await untyped(trx)
    .updateTable(table)
    .set({ status, updated_at: nowIso(), version: sql`version + 1` })
    .where('id', '=', id)
    .execute();
}

/** What a transfer can be made from, each following what was transferred of it. */
const SOURCES = [
  ['stock_request_id', 'stock_requests', 'stock-request'],
  ['stock_return_id', 'stock_returns', 'stock-return'],
] as const;

/** A receive's ends are its transfer's. */
const receivedEnds = (transfer: Record<string, unknown>) => ({
  from_location_type: transfer.from_location_type,
  from_location_id: transfer.from_location_id,
  to_location_type: transfer.to_location_type,
  to_location_id: transfer.to_location_id,
});

/** A return goes from its transfer's destination back to its source. */
const returnedEnds = (transfer: Record<string, unknown>) => ({
  from_location_type: transfer.to_location_type,
  from_location_id: transfer.to_location_id,
  to_location_type: transfer.from_location_type,
  to_location_id: transfer.from_location_id,
});

const sameEnds = (columns: Record<string, unknown>, source: Record<string, unknown>) =>
  (['from', 'to'] as const).every(
    (side) =>
      columns[`${side}_location_type`] === source[`${side}_location_type`] &&
      Number(columns[`${side}_location_id`]) === Number(source[`${side}_location_id`]),
  );

export const stockRequestsStore: ResourceStore = documentStore(stockRequests, {
  async prepare(trx, scope, columns, input) {
    return { columns: { status: 'pending' }, lines: await priceLines(trx, scope, lines(input), counted(columns, false)) };
  },
});

export const stockTransfersStore: ResourceStore = documentStore(stockTransfers, {
  async prepare(trx, scope, columns, input) {
    let inputs = lines(input);
    const requestId = columns.stock_request_id === null || columns.stock_request_id === undefined ? null : Number(columns.stock_request_id);
    if (requestId !== null) {
      const request = await viewedSource(trx, scope, stockRequests, requestId);
      if (!request) throw validationError({ stock_request_id: ['The selected stock request is invalid.'] });
      if (!sameEnds(columns, request)) {
        throw validationError({ from_location_id: ['A transfer for a request goes from and to the request’s locations.'] });
      }
      inputs = fulfilling(inputs, await storedLines(trx, 'stock-request', [requestId]), 'transfers');
    }
    const returnId = columns.stock_return_id === null || columns.stock_return_id === undefined ? null : Number(columns.stock_return_id);
    if (returnId !== null) {
      if (requestId !== null) throw validationError({ stock_return_id: ['A transfer is made from a request or from a return, not both.'] });
      const goingBack = await viewedSource(trx, scope, stockReturns, returnId);
      if (!goingBack) throw validationError({ stock_return_id: ['The selected stock return is invalid.'] });
      if (!sameEnds(columns, goingBack)) {
        throw validationError({ from_location_id: ['A transfer for a return goes from and to the return’s locations.'] });
      }
      inputs = fulfilling(inputs, await storedLines(trx, 'stock-return', [returnId]), 'transfers');
    }
    const sourced = requestId !== null || returnId !== null;
    return { columns: { status: 'in_transit' }, lines: await priceLines(trx, scope, inputs, counted(columns, sourced)) };
  },
  async apply(trx, scope, document, prepared, columns) {
    const moved = prepared.lines!.lines;
    await move(trx, scope, document, [
      ...moved.map((line) => ({ itemId: line.itemId, location: from(columns), quantity: -line.baseQuantity })),
      ...moved.map((line) => ({ itemId: line.itemId, location: to(columns), quantity: 0, inTransit: line.baseQuantity })),
    ]);
    for (const [field, table, type] of SOURCES) {
      if (columns[field] === null || columns[field] === undefined) continue;
      await fulfil(trx, moved);
      await follow(trx, table, type, Number(columns[field]), ['pending', 'partially_transferred', 'transferred']);
    }
  },
});

export const stockReceivesStore: ResourceStore = documentStore(stockReceives, {
  placesFrom: receivedEnds,
  async prepare(trx, scope, columns, input) {
    const transfer = await viewedSource(trx, scope, stockTransfers, Number(columns.stock_transfer_id));
    if (!transfer) throw validationError({ stock_transfer_id: ['The selected stock transfer is invalid.'] });
    const inputs = fulfilling(lines(input), await storedLines(trx, 'stock-transfer', [Number(transfer.id)]), 'receives');
    return {
      columns: { status: 'received', ...receivedEnds(transfer) },
      lines: await priceLines(trx, scope, inputs, counted(columns, true)),
    };
  },
  async apply(trx, scope, document, prepared, columns) {
    const arrived = prepared.lines!.lines;
    await move(
      trx,
      scope,
      document,
      arrived.map((line) => ({ itemId: line.itemId, location: to(columns), quantity: line.baseQuantity, inTransit: -line.baseQuantity })),
    );
    await fulfil(trx, arrived);
    await follow(trx, 'stock_transfers', 'stock-transfer', Number(columns.stock_transfer_id), [
      'in_transit',
      'partially_received',
      'received',
    ]);
  },
});

/**
 * A return of a received transfer's goods: its lines name the transfer's, at most what arrived
 * of each less what earlier returns took; it goes from the transfer's destination back to its
 * source, and moves nothing until a transfer made from it does.
 */
export const stockReturnsStore: ResourceStore = documentStore(stockReturns, {
  placesFrom: returnedEnds,
  async prepare(trx, scope, columns, input) {
    const transfer = await viewedSource(trx, scope, stockTransfers, Number(columns.stock_transfer_id));
    if (!transfer) throw validationError({ stock_transfer_id: ['The selected stock transfer is invalid.'] });
    const returned = await trx
      .selectFrom('document_lines')
      .innerJoin('stock_returns', 'stock_returns.id', 'document_lines.document_id')
      .select(['document_lines.source_line_id', sql<number>`sum(document_lines.quantity)`.as('quantity')])
      .where('document_lines.document_type', '=', 'stock-return')
      .where('stock_returns.stock_transfer_id', '=', Number(transfer.id))
      .where('stock_returns.status', '!=', 'cancelled')
      .where('stock_returns.deleted_at', 'is', null)
      .groupBy('document_lines.source_line_id')
      .execute();
    const already = new Map(returned.map((row) => [Number(row.source_line_id), row.quantity]));
    const returnable = (await storedLines(trx, 'stock-transfer', [Number(transfer.id)])).map((line) => ({
      ...line,
      quantity: line.quantity_done,
      quantity_done: already.get(line.id) ?? 0,
    }));
    const inputs = fulfilling(lines(input), returnable, 'returns');
    return {
      columns: { status: 'pending', ...returnedEnds(transfer) },
      lines: await priceLines(trx, scope, inputs, counted(columns, true)),
    };
  },
});

export const logisticsReversals: Reversals = {
  'stock-transfers': {
    async void(trx, scope, row) {
      // Its request or return first, as a transfer made from one locks it first.
      for (const [field, table] of SOURCES) if (row[field] !== null) await liveSource(trx, scope, table, Number(row[field]));
      const sent = await storedLines(trx, 'stock-transfer', [Number(row.id)]);
      const document = { type: 'stock-transfer', id: Number(row.id), number: String(row.number), date: todayInManila() };
      await move(trx, scope, document, [
        ...sent.map((line) => ({ itemId: line.item_id, location: to(row), quantity: 0, inTransit: -line.base_quantity })),
        ...sent.map((line) => ({ itemId: line.item_id, location: from(row), quantity: line.base_quantity })),
      ]);
      for (const [field, table, type] of SOURCES) {
        if (row[field] === null) continue;
        const undone = sent.map((line) => ({ sourceLineId: line.source_line_id, quantity: line.quantity }));
        await fulfil(trx, undone, -1);
        await follow(trx, table, type, Number(row[field]), ['pending', 'partially_transferred', 'transferred']);
      }
    },
  },
  'stock-receives': {
    async void(trx, scope, row) {
      // Its transfer first, as a receive made from it locks it first.
      await liveSource(trx, scope, 'stock_transfers', Number(row.stock_transfer_id));
      const arrived = await storedLines(trx, 'stock-receive', [Number(row.id)]);
      const document = { type: 'stock-receive', id: Number(row.id), number: String(row.number), date: todayInManila() };
      await move(
        trx,
        scope,
        document,
        arrived.map((line) => ({ itemId: line.item_id, location: to(row), quantity: -line.base_quantity, inTransit: line.base_quantity })),
      );
      await fulfil(
        trx,
        arrived.map((line) => ({ sourceLineId: line.source_line_id, quantity: line.quantity })),
        -1,
      );
      await follow(trx, 'stock_transfers', 'stock-transfer', Number(row.stock_transfer_id), [
        'in_transit',
        'partially_received',
        'received',
      ]);
    },
  },
};
