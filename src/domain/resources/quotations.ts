import { date } from '../fields';
import { defineResource } from '../resource';
import { DOCUMENT_SEARCH, documentHeader, documentTotals } from './document-fields';

/** Prices offered to a customer; an invoice made from it marks it invoiced. */
export const quotations = defineResource({
  name: 'quotations',
  singular: 'Quotation',
  plural: 'Quotations',
  display: 'number',
  editable: false,
  document: { type: 'quotation', prefix: 'Q', lines: 'priced', contact: 'Customer' },
  fields: {
    ...documentHeader('Customer', ['open', 'invoiced', 'expired', 'cancelled']),
    valid_until: date('Valid until'),
    ...documentTotals(),
  },
  search: [...DOCUMENT_SEARCH, 'valid_until'],
  sort: ['number', 'date', 'valid_until', 'total', 'status'],
  columns: ['number', 'date', 'contact_id', 'valid_until', 'status', 'total'],
});
