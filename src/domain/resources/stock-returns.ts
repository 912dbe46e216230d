import { reference, text } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader, transferredLifecycle } from './document-fields';
import { betweenPlaces } from '../places';

const lifecycle = transferredLifecycle({
  cancelReverses: 'Its goods are not sent back.',
  transfer: { label: 'Transfer back', field: 'stock_return_id', route: '/stock-transfers/create/from-stock-return/$from' },
});

/**
 * Goods of a received transfer to be sent back, and why: from the transfer's destination to its
 * source. A stock transfer made from it (`/stock-transfers/create/from-stock-return/{id}`) carries them.
 */
export const stockReturns = defineResource({
  name: 'stock-returns',
  singular: 'Stock Return',
  plural: 'Stock Returns',
  display: 'number',
  menu: { group: 'Logistics', icon: 'undo-2' },
  editable: false,
  document: {
    type: 'stock-return',
    followOnIcon: 'undo-2',
    prefix: 'SRT',
    lines: 'quantities',
    twoLocations: true,
    source: { field: 'stock_transfer_id', resource: 'stock-transfers', reversed: true },
    lifecycle,
  },
  places: betweenPlaces('from', 'the place sending them back'),
  fields: {
    stock_transfer_id: reference('Stock transfer', 'stock-transfers', { required: true }),
    reason: text('Reason', { required: true, max: 500 }),
    ...transferHeader(statusValues(lifecycle), { computed: true }),
  },
  search: [...TRANSFER_SEARCH, 'stock_transfer_id', 'reason'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'stock_transfer_id', 'from_location_id', 'to_location_id', 'reason', 'status'],
});
