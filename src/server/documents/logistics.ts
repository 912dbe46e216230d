import { sql } from 'kysely';
import { z } from 'zod';
import { todayInManila, type Location } from '../../domain/documents';
import { pastTense } from '../../domain/lifecycle';
import { fromThousandths } from '../../domain/quantity';
import type { LineInput } from '../../domain/document-lines';
import { stockReceives } from '../../domain/resources/stock-receives';
import { stockRequests } from '../../domain/resources/stock-requests';
import { stockReturns } from '../../domain/resources/stock-returns';
import { lostRestErrors, lostRestWords, stockTransfers, type LostReason } from '../../domain/resources/stock-transfers';
import { recordActivity } from '../activity/activity-log';
import { nowIso } from '../db/dialect';
import { conflict, validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import { untyped, type Scope, type Trx } from '../db/scope';
import type { ServerPart } from './server-part';
import { documentStore, liveSource, viewedSource } from './document-store';
import { move } from './ledger';
import { fulfil, priceLines, storedLines, type StoredLine } from './lines';

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

const stockRequestsStore: ResourceStore = documentStore(stockRequests, {
  async prepare(trx, scope, columns, input) {
    return { lines: await priceLines(trx, scope, lines(input), counted(columns, false)) };
  },
});

const stockTransfersStore: ResourceStore = documentStore(stockTransfers, {
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
    return { lines: await priceLines(trx, scope, inputs, counted(columns, sourced)) };
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

/**
 * What has not arrived of each line of a transfer, in the base unit: what the line sent less what
 * its receives (not voided) took, as the ledger moved them, line by line.
 */
async function notArrived(trx: Trx, transfer: Record<string, unknown>): Promise<{ itemId: number; base: number }[]> {
  const sent = await storedLines(trx, 'stock-transfer', [Number(transfer.id)]);
  const arrived = await trx
    .selectFrom('document_lines')
    .innerJoin('stock_receives', 'stock_receives.id', 'document_lines.document_id')
    .select(['document_lines.source_line_id', sql<number>`sum(document_lines.base_quantity)`.as('base')])
    .where('document_lines.document_type', '=', 'stock-receive')
    .where('stock_receives.stock_transfer_id', '=', Number(transfer.id))
    .where('stock_receives.status', '!=', 'void')
    .groupBy('document_lines.source_line_id')
    .execute();
  const byLine = new Map(arrived.map((row) => [Number(row.source_line_id), Number(row.base)]));
  return sent
    .map((line) => ({ itemId: line.item_id, base: line.base_quantity - (byLine.get(line.id) ?? 0) }))
    .filter((line) => line.base > 0);
}

/**
 * Writes off what has not arrived of a transfer (locked by the caller, partially received) as
 * lost: it leaves transit at the destination without arriving anywhere. The source gave it up
 * when the transfer left, so neither place's stock on hand changes; only what was on its way stops
 * being counted. The caller then closes the transfer short by a guarded UPDATE of its status.
 * Answers the history's words for it.
 */
async function writeOffRest(
  trx: Trx,
  scope: Scope,
  transfer: Record<string, unknown>,
  reason: LostReason,
  note: string | null,
): Promise<string> {
  const lost = await notArrived(trx, transfer);
  const document = { type: 'stock-transfer', id: Number(transfer.id), number: String(transfer.number), date: todayInManila() };
  await move(
    trx,
    scope,
    document,
    lost.map((line) => ({ itemId: line.itemId, location: to(transfer), quantity: 0, inTransit: -line.base })),
  );
  const items = await trx
    .selectFrom('items')
    .select(['id', 'name'])
    .where('id', 'in', [...lost.map((line) => line.itemId), 0])
    .execute();
  const named = items.map((item) => {
    const base = lost.filter((line) => line.itemId === item.id).reduce((sum, line) => sum + line.base, 0);
    return `${fromThousandths(base)} ${item.name}`;
  });
  return `The rest closed as lost (${lostRestWords(reason, note)}): ${named.join(', ')}.`;
}

/** A receive's answer to what happened to the rest of its transfer: kept in transit, or closed as lost and why. */
const restInput = {
  rest: z.enum(['keep', 'close'], { error: 'The rest must be kept in transit (keep) or closed as lost (close).' }).optional(),
  lost_reason: z.string().nullish(),
  lost_note: z.string().nullish(),
};

const receivesStore = documentStore(stockReceives, {
  placesFrom: receivedEnds,
  async prepare(trx, scope, columns, input) {
    const transfer = await viewedSource(trx, scope, stockTransfers, Number(columns.stock_transfer_id));
    if (!transfer) throw validationError({ stock_transfer_id: ['The selected stock transfer is invalid.'] });
    const inputs = fulfilling(lines(input), await storedLines(trx, 'stock-transfer', [Number(transfer.id)]), 'receives');
    return {
      columns: receivedEnds(transfer),
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
 * Stock receives: each takes goods of its transfer out of transit; one that leaves some of it in
 * transit may close the rest as lost at once (`rest: 'close'`, with `lost_reason` and `lost_note`),
 * in its own transaction, as the transfer's close would later.
 */
const stockReceivesStore: ResourceStore = {
  ...receivesStore,
  createFields: { ...receivesStore.createFields, ...restInput },
  async insert(trx, scope, columns, input) {
    const closing = input.rest === 'close';
    if (closing) {
      const errors = lostRestErrors(input.lost_reason, input.lost_note, { reason: 'lost_reason', note: 'lost_note' });
      if (Object.keys(errors).length > 0) throw validationError(errors);
    }
    const id = await receivesStore.insert(trx, scope, columns, input);
    if (!closing) return id;
    // Locked since the receive was made from it; its status now follows what arrived.
    const transfer = (await liveSource(trx, scope, 'stock_transfers', Number(columns.stock_transfer_id)))!;
    if (transfer.status !== 'partially_received') throw validationError({ rest: ['Nothing of the transfer is left in transit to close.'] });
    const note = typeof input.lost_note === 'string' && input.lost_note.trim() !== '' ? input.lost_note.trim() : null;
    const summary = await writeOffRest(trx, scope, transfer, input.lost_reason as LostReason, note);
    // Decided on the status it was in, as the transfer's own close is.
    const closed = await untyped(trx)
      .updateTable('stock_transfers')
      .set({ status: 'closed_short', updated_at: nowIso(), version: sql`version + 1` })
      .where('id', '=', Number(transfer.id))
      .where('status', '=', 'partially_received')
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) !== 1) throw conflict('This stock transfer changed meanwhile; reload it.');
    await recordActivity(trx, scope, {
      resource: 'stock-transfers',
      recordId: Number(transfer.id),
      action: pastTense('close'),
      changes: { status: { from: 'partially_received', to: 'closed_short' } },
      summary,
    });
    return id;
  },
};

/**
 * A return of a received transfer's goods: its lines name the transfer's, at most what arrived
 * of each less what earlier returns took; it goes from the transfer's destination back to its
 * source, and moves nothing until a transfer made from it does.
 */
const stockReturnsStore: ResourceStore = documentStore(stockReturns, {
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
      columns: returnedEnds(transfer),
      lines: await priceLines(trx, scope, inputs, counted(columns, true)),
    };
  },
});

/** A transfer's void puts what it sent back at its origin; its close writes off what never arrived. */
const transferWork: ServerPart['reversals'] = {
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
  async close(trx, scope, row, given) {
    const errors = lostRestErrors(given?.reason, given?.note);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const note = given?.note?.trim() || null;
    return writeOffRest(trx, scope, row, given!.reason as LostReason, note);
  },
};

/** A receive's void puts what arrived back in transit. */
const receiveWork: ServerPart['reversals'] = {
  async void(trx, scope, row) {
    // Its transfer first, as a receive made from it locks it first.
    const transfer = await liveSource(trx, scope, 'stock_transfers', Number(row.stock_transfer_id));
    // What never arrived was written off when the transfer was closed: putting these goods back
    // in transit would leave them on their way on a transfer nothing more can be received of.
    if (transfer?.status === 'closed_short') {
      throw conflict(`${stockTransfers.singular} ${String(transfer.number)} was closed short: its receives can no longer be voided.`);
    }
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
    await follow(trx, 'stock_transfers', 'stock-transfer', Number(row.stock_transfer_id), ['in_transit', 'partially_received', 'received']);
  },
};

/** Stock requests, transfers, receives and returns. */
export const logisticsParts: readonly ServerPart[] = [
  { definition: stockRequests, store: stockRequestsStore },
  { definition: stockTransfers, store: stockTransfersStore, reversals: transferWork },
  { definition: stockReceives, store: stockReceivesStore, reversals: receiveWork },
  { definition: stockReturns, store: stockReturnsStore },
];
