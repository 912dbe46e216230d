import { PAYMENT_METHODS } from '../documents';
import { money, reference, select, text } from '../fields';
import { defineResource } from '../resource';
import { DOCUMENT_SEARCH, documentHeader } from './document-fields';

/** Money paid against a bill; its supplier and location are the bill's. */
export const billPayments = defineResource({
  name: 'bill-payments',
  singular: 'Bill Payment',
  plural: 'Bill Payments',
  display: 'number',
  editable: false,
  document: {
    type: 'bill-payment',
    prefix: 'BP',
    lines: 'none',
    contact: 'Supplier',
    source: { field: 'bill_id', resource: 'bills' },
  },
  fields: {
    bill_id: reference('Bill', 'bills', { required: true }),
    ...documentHeader('Supplier', ['posted', 'void']),
    // The bill's own: filled in by the server.
    contact_id: reference('Supplier', 'contacts', { computed: true }),
    branch_id: reference('Branch', 'branches', { computed: true }),
    warehouse_id: reference('Warehouse', 'warehouses', { computed: true }),
    amount: money('Amount', { required: true }),
    payment_method: select('Payment method', PAYMENT_METHODS, { required: true }),
    payment_reference: text('Payment reference', { max: 100 }),
  },
  search: [...DOCUMENT_SEARCH, 'bill_id', 'payment_method'],
  sort: ['number', 'date', 'amount'],
  columns: ['number', 'date', 'bill_id', 'contact_id', 'payment_method', 'amount'],
});
