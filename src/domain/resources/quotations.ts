import { date } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { DOCUMENT_SEARCH, documentHeader, documentTotals } from './document-fields';

const lifecycle: Lifecycle = {
  statuses: { open: 'open', invoiced: 'complete', expired: 'neutral', cancelled: 'undone' },
  start: 'open',
  transitions: [
    { name: 'cancel', direction: 'undo', from: ['open'], to: 'cancelled', permission: 'update', reverses: 'It can no longer be invoiced.' },
  ],
  followOns: [{ resource: 'invoices', label: 'Invoice', from: ['open'], field: 'quotation_id', prefill: 'all-lines' }],
};

/** Prices offered to a customer; an invoice made from it marks it invoiced. */
export const quotations = defineResource({
  name: 'quotations',
  singular: 'Quotation',
  plural: 'Quotations',
  display: 'number',
  editable: false,
  document: { type: 'quotation', prefix: 'Q', lines: 'priced', contact: 'Customer', lifecycle },
  fields: {
    ...documentHeader('Customer', statusValues(lifecycle)),
    valid_until: date('Valid until'),
    ...documentTotals(),
  },
  search: [...DOCUMENT_SEARCH, 'valid_until'],
  sort: ['number', 'date', 'valid_until', 'total', 'status'],
  columns: ['number', 'date', 'contact_id', 'valid_until', 'status', 'total'],
});
