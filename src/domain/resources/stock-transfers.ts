import { reference } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader } from './document-fields';
import { betweenPlaces } from '../places';

const lifecycle: Lifecycle = {
  statuses: { in_transit: 'outstanding', partially_received: 'outstanding', received: 'complete', void: 'undone' },
  transitions: [
    {
      name: 'void',
      from: ['in_transit'],
      to: 'void',
      permission: 'delete',
      reverses: 'Its goods leave transit and are on hand again where they left, and its request or return is open again.',
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
      from: ['partially_received', 'received'],
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
  editable: false,
  document: {
    type: 'stock-transfer',
    prefix: 'ST',
    lines: 'quantities',
    twoLocations: true,
    stock: 'out',
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
