import { date } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader } from './document-fields';

/** A location asks another for goods: the requester is the `to_` location, the source the `from_`. */
const lifecycle: Lifecycle = {
  statuses: { pending: 'open', partially_transferred: 'outstanding', transferred: 'complete', cancelled: 'undone' },
  transitions: [
    { name: 'cancel', from: ['pending'], to: 'cancelled', permission: 'update', reverses: 'Nothing will be transferred for it.' },
  ],
  followOns: [
    {
      resource: 'stock-transfers',
      label: 'Transfer',
      from: ['pending', 'partially_transferred'],
      field: 'stock_request_id',
      prefill: 'open-lines',
      route: '/stock-transfers/create/from-stock-request/$from',
    },
  ],
  linesDone: 'Transferred',
};

export const stockRequests = defineResource({
  name: 'stock-requests',
  singular: 'Stock Request',
  plural: 'Stock Requests',
  display: 'number',
  document: { type: 'stock-request', prefix: 'SR', lines: 'quantities', twoLocations: true, updatable: ['notes', 'needed_by'], lifecycle },
  fields: {
    ...transferHeader(statusValues(lifecycle)),
    needed_by: date('Needed by'),
  },
  search: [...TRANSFER_SEARCH, 'needed_by'],
  sort: ['number', 'date', 'needed_by', 'status'],
  columns: ['number', 'date', 'from_location_id', 'to_location_id', 'needed_by', 'status'],
});
