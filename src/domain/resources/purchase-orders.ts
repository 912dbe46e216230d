import { date } from '../fields';
import { defineResource } from '../resource';
import { DOCUMENT_SEARCH, documentHeader, documentTotals } from './document-fields';

export const purchaseOrders = defineResource({
  name: 'purchase-orders',
  singular: 'Purchase Order',
  plural: 'Purchase Orders',
  display: 'number',
  document: { type: 'purchase-order', prefix: 'PO', lines: 'priced', contact: 'Supplier', updatable: ['notes', 'expected_date', 'lines'] },
  fields: {
    ...documentHeader('Supplier', ['open', 'partially_received', 'received', 'cancelled']),
    expected_date: date('Expected date'),
    ...documentTotals(),
  },
  search: [...DOCUMENT_SEARCH],
  sort: ['number', 'date', 'total', 'status'],
  columns: ['number', 'date', 'contact_id', 'status', 'total'],
});
