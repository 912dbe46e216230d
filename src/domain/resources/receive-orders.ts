import { reference } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { DOCUMENT_SEARCH, documentHeader, documentTotals, receivedLifecycle } from './document-fields';

const lifecycle = receivedLifecycle('Its goods leave stock again; what it received of a purchase order is open again on the order.');

/** Goods arriving, against a purchase order or without one: stock in at its location. */
export const receiveOrders = defineResource({
  name: 'receive-orders',
  singular: 'Receive Order',
  plural: 'Receive Orders',
  display: 'number',
  menu: { group: 'Purchasing', icon: 'arrow-down-to-line' },
  editable: false,
  document: {
    type: 'receive-order',
    followOnIcon: 'package-check',
    prefix: 'RO',
    lines: 'priced',
    contact: 'Supplier',
    stock: 'in',
    effects: { stock: [{ at: 'own', onHand: 1, inTransit: 0 }], fulfils: true, cost: { from: 'amount', billedBy: 'bill' } },
    source: { field: 'purchase_order_id', resource: 'purchase-orders' },
    lifecycle,
  },
  fields: {
    ...documentHeader('Supplier', statusValues(lifecycle)),
    purchase_order_id: reference('Purchase order', 'purchase-orders'),
    ...documentTotals(),
  },
  search: [...DOCUMENT_SEARCH, 'purchase_order_id'],
  sort: ['number', 'date', 'total'],
  columns: ['number', 'date', 'contact_id', 'purchase_order_id', 'status', 'total'],
});
