import { reference } from '../fields';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader } from './document-fields';

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
  },
  fields: {
    ...transferHeader(['in_transit', 'partially_received', 'received', 'void']),
    stock_request_id: reference('Stock request', 'stock-requests'),
    stock_return_id: reference('Stock return', 'stock-returns'),
  },
  search: [...TRANSFER_SEARCH, 'stock_request_id', 'stock_return_id'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'from_location_id', 'to_location_id', 'stock_request_id', 'status'],
});
