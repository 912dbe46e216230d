import { reference, text } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader } from './document-fields';

/**
 * Goods of a received transfer to be sent back, and why: from the transfer's destination to its
 * source. A stock transfer made from it (`/stock-transfers/create/from-stock-return/{id}`) carries them.
 */
const lifecycle: Lifecycle = {
  statuses: { pending: 'open', partially_transferred: 'outstanding', transferred: 'complete', cancelled: 'undone' },
  transitions: [{ name: 'cancel', from: ['pending'], to: 'cancelled', permission: 'update', reverses: 'Its goods are not sent back.' }],
  followOns: [
    {
      resource: 'stock-transfers',
      label: 'Transfer back',
      from: ['pending', 'partially_transferred'],
      field: 'stock_return_id',
      prefill: 'open-lines',
      route: '/stock-transfers/create/from-stock-return/$from',
    },
  ],
  linesDone: 'Transferred',
};

export const stockReturns = defineResource({
  name: 'stock-returns',
  singular: 'Stock Return',
  plural: 'Stock Returns',
  display: 'number',
  editable: false,
  document: {
    type: 'stock-return',
    prefix: 'SRT',
    lines: 'quantities',
    twoLocations: true,
    source: { field: 'stock_transfer_id', resource: 'stock-transfers' },
    lifecycle,
  },
  fields: {
    stock_transfer_id: reference('Stock transfer', 'stock-transfers', { required: true }),
    reason: text('Reason', { required: true, max: 500 }),
    ...transferHeader(statusValues(lifecycle), { computed: true }),
  },
  search: [...TRANSFER_SEARCH, 'stock_transfer_id', 'reason'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'stock_transfer_id', 'from_location_id', 'to_location_id', 'reason', 'status'],
});
