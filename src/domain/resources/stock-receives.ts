import { reference } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { TRANSFER_SEARCH, transferHeader, receivedLifecycle } from './document-fields';
import { betweenPlaces } from '../places';

const lifecycle = receivedLifecycle('Its goods are in transit again, and what it received is open again on its transfer.');

/** Goods of a transfer arriving: out of transit, on hand at the transfer's destination. */
export const stockReceives = defineResource({
  name: 'stock-receives',
  singular: 'Stock Receive',
  plural: 'Stock Receives',
  display: 'number',
  menu: { group: 'Logistics', icon: 'package-check' },
  editable: false,
  document: {
    type: 'stock-receive',
    followOnIcon: 'package-check',
    prefix: 'SRV',
    lines: 'quantities',
    twoLocations: true,
    stock: 'in',
    effects: { stock: [{ at: 'to', onHand: 1, inTransit: -1 }], fulfils: true },
    source: { field: 'stock_transfer_id', resource: 'stock-transfers' },
    lifecycle,
  },
  places: betweenPlaces('to', 'the place receiving them'),
  fields: {
    stock_transfer_id: reference('Stock transfer', 'stock-transfers', { required: true }),
    ...transferHeader(statusValues(lifecycle), { computed: true }),
  },
  search: [...TRANSFER_SEARCH, 'stock_transfer_id'],
  sort: ['number', 'date'],
  columns: ['number', 'date', 'stock_transfer_id', 'from_location_id', 'to_location_id', 'status'],
});
