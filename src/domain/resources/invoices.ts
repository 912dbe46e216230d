import { date, reference } from '../fields';
import { defineResource } from '../resource';
import { balanceFields, DOCUMENT_SEARCH, documentHeader, documentTotals } from './document-fields';

/** A sale: goods leave the stock of its branch or warehouse, and the customer owes its total. */
export const invoices = defineResource({
  name: 'invoices',
  singular: 'Invoice',
  plural: 'Invoices',
  display: 'number',
  // Invoices have an edit screen; what moved stock or money stays as it is.
  document: {
    type: 'invoice',
    prefix: 'I',
    lines: 'priced',
    contact: 'Customer',
    stock: 'out',
    source: { field: 'quotation_id', resource: 'quotations' },
    updatable: ['notes', 'due_date'],
  },
  fields: {
    ...documentHeader('Customer', ['unpaid', 'partially_paid', 'paid', 'void']),
    quotation_id: reference('Quotation', 'quotations'),
    due_date: date('Due date'),
    ...documentTotals(),
    ...balanceFields(),
  },
  search: [...DOCUMENT_SEARCH, 'quotation_id', 'due_date'],
  sort: ['number', 'date', 'due_date', 'total', 'balance'],
  columns: ['number', 'date', 'contact_id', 'due_date', 'status', 'total', 'balance'],
});
