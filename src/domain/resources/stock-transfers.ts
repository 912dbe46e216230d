import { reference } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader } from './document-fields';
import { betweenPlaces } from '../places';

/** Why what did not arrive of a transfer was closed as lost: the receiver says which, and "Other" with a note. */
export const LOST_REASONS = [
  { value: 'damaged', label: 'Damaged in transit' },
  { value: 'lost_in_transit', label: 'Lost in transit' },
  { value: 'short_shipped', label: 'Short-shipped by the sender' },
  { value: 'other', label: 'Other' },
] as const;

export type LostReason = (typeof LOST_REASONS)[number]['value'];

/** The longest note a close may carry. */
export const LOST_NOTE_MAX = 500;

/**
 * What is wrong with a close's reason and note, by the fields that carry them (`reason`, `note` of
 * the close; `lost_reason`, `lost_note` of a receive closing the rest): a reason of the list, and a
 * note when it is "Other", which says nothing by itself.
 */
export function lostRestErrors(
  reason: unknown,
  note: unknown,
  fields: { reason: string; note: string } = { reason: 'reason', note: 'note' },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (reason === null || reason === undefined || reason === '') errors[fields.reason] = ['Say why the rest did not arrive.'];
  else if (!LOST_REASONS.some((known) => known.value === reason)) errors[fields.reason] = ['The selected reason is invalid.'];
  const written = typeof note === 'string' ? note.trim() : '';
  if (note !== null && note !== undefined && typeof note !== 'string') errors[fields.note] = ['The note must be text.'];
  else if (written.length > LOST_NOTE_MAX) errors[fields.note] = [`The note may not be longer than ${LOST_NOTE_MAX} characters.`];
  else if (reason === 'other' && written === '') errors[fields.note] = ['Say in a note what happened to the rest.'];
  return errors;
}

/** "Damaged in transit", or "Other: fell off the jeepney" — as the history and the view say it. */
export function lostRestWords(reason: LostReason, note: string | null | undefined): string {
  const label = LOST_REASONS.find((known) => known.value === reason)?.label ?? reason;
  const written = note?.trim();
  return written ? `${label}: ${written}` : label;
}

const lifecycle: Lifecycle = {
  statuses: {
    in_transit: 'outstanding',
    partially_received: 'outstanding',
    received: 'complete',
    closed_short: 'complete',
    void: 'undone',
  },
  // Sent when made: its goods leave at once.
  start: 'in_transit',
  transitions: [
    {
      name: 'void',
      direction: 'undo',
      from: ['in_transit'],
      to: 'void',
      permission: 'delete',
      reverses: 'Its goods leave transit and are on hand again where they left, and its request or return is open again.',
    },
    {
      // The receivers know what arrived and what did not: it is theirs to close, where they operate
      // (the destination), with the permission that lets them receive. Only once something arrived:
      // a transfer nothing of which arrived is voided by its sender instead.
      name: 'close',
      direction: 'undo',
      label: 'Close the rest as lost',
      from: ['partially_received'],
      to: 'closed_short',
      permission: 'create',
      asKind: 'stock-receives',
      reasons: LOST_REASONS,
      reverses: 'What has not arrived leaves transit as lost: it is on hand nowhere, and no more of this transfer can be received.',
    },
  ],
  trashable: ['void'],
  followOns: [
    {
      resource: 'stock-receives',
      label: 'Receive transfer',
      from: ['in_transit', 'partially_received'],
      field: 'stock_transfer_id',
      prefill: 'open-lines',
    },
    {
      resource: 'stock-returns',
      label: 'Return',
      from: ['partially_received', 'received', 'closed_short'],
      field: 'stock_transfer_id',
      prefill: 'done-lines',
    },
  ],
  linesDone: 'Received',
};

/**
 * Goods dispatched: out of the `from_` location at once, in transit to the `to_` location until
 * received. Made from a stock request (what it asks for) or a stock return (goods going back).
 */
export const stockTransfers = defineResource({
  name: 'stock-transfers',
  singular: 'Stock Transfer',
  plural: 'Stock Transfers',
  display: 'number',
  menu: { group: 'Logistics', icon: 'truck' },
  editable: false,
  document: {
    type: 'stock-transfer',
    followOnIcon: 'truck',
    prefix: 'ST',
    lines: 'quantities',
    twoLocations: true,
    stock: 'out',
    effects: {
      stock: [
        { at: 'from', onHand: -1, inTransit: 0 },
        { at: 'to', onHand: 0, inTransit: 1 },
        // Closed short, what did not arrive leaves transit as lost.
        { at: 'to', onHand: 0, inTransit: -1, rest: { status: 'closed_short', takenBy: 'stock-receive' } },
      ],
      fulfils: true,
      carries: true,
    },
    source: { field: 'stock_request_id', resource: 'stock-requests' },
    lifecycle,
  },
  places: betweenPlaces('from', 'the place the goods leave'),
  fields: {
    ...transferHeader(statusValues(lifecycle)),
    stock_request_id: reference('Stock request', 'stock-requests'),
    stock_return_id: reference('Stock return', 'stock-returns'),
  },
  search: [...TRANSFER_SEARCH, 'stock_request_id', 'stock_return_id'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'from_location_id', 'to_location_id', 'stock_request_id', 'status'],
});
