import { date } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader, transferredLifecycle } from './document-fields';
import { betweenPlaces } from '../places';

const lifecycle = transferredLifecycle({
  cancelReverses: 'Nothing will be transferred for it.',
  transfer: { label: 'Transfer', field: 'stock_request_id', route: '/stock-transfers/create/from-stock-request/$from' },
});

/** A location asks another for goods: the requester is the `to_` location, the source the `from_`. */
export const stockRequests = defineResource({
  name: 'stock-requests',
  singular: 'Stock Request',
  plural: 'Stock Requests',
  display: 'number',
  menu: { group: 'Logistics', icon: 'clipboard-list' },
  document: { type: 'stock-request', prefix: 'SR', lines: 'quantities', twoLocations: true, updatable: ['notes', 'needed_by'], lifecycle },
  places: betweenPlaces('to', 'the requesting place'),
  fields: {
    ...transferHeader(statusValues(lifecycle)),
    needed_by: date('Needed by'),
  },
  search: [...TRANSFER_SEARCH, 'needed_by'],
  sort: ['number', 'date', 'needed_by', 'status'],
  columns: ['number', 'date', 'from_location_id', 'to_location_id', 'needed_by', 'status'],
});
