import { date } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { DOCUMENT_SEARCH, documentHeader, documentTotals } from './document-fields';

const lifecycle: Lifecycle = {
  statuses: { open: 'open', partially_received: 'outstanding', received: 'complete', cancelled: 'undone' },
  start: 'open',
  transitions: [
    {
      name: 'cancel',
      direction: 'undo',
      from: ['open'],
      to: 'cancelled',
      permission: 'update',
      reverses: 'Nothing more can be received against it. An order that goods were received against cannot be cancelled.',
    },
  ],
  trashable: ['open', 'cancelled'],
  followOns: [
    {
      resource: 'receive-orders',
      label: 'Receive',
      from: ['open', 'partially_received'],
      field: 'purchase_order_id',
      prefill: 'open-lines',
    },
    {
      resource: 'bills',
      label: 'Bill',
      from: ['open', 'partially_received', 'received'],
      field: 'purchase_order_id',
      prefill: 'all-lines',
    },
  ],
  linesDone: 'Received',
};

export const purchaseOrders = defineResource({
  name: 'purchase-orders',
  singular: 'Purchase Order',
  plural: 'Purchase Orders',
  display: 'number',
  menu: { group: 'Purchasing', icon: 'shopping-cart' },
  document: {
    type: 'purchase-order',
    prefix: 'PO',
    lines: 'priced',
    contact: 'Supplier',
    updatable: ['notes', 'expected_date', 'lines'],
    lifecycle,
  },
  fields: {
    ...documentHeader('Supplier', statusValues(lifecycle)),
    expected_date: date('Expected date'),
    ...documentTotals(),
  },
  search: [...DOCUMENT_SEARCH],
  sort: ['number', 'date', 'total', 'status'],
  columns: ['number', 'date', 'contact_id', 'status', 'total'],
});
