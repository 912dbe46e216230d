import { memorandumResource } from './document-fields';

/** Takes an amount off what a customer owes on an invoice (returned goods, a price agreed down). */
export const creditMemoranda = memorandumResource({
  name: 'credit-memoranda',
  singular: 'Credit Memorandum',
  plural: 'Credit Memoranda',
  type: 'credit-memorandum',
  prefix: 'CM',
  contact: 'Customer',
  settles: { field: 'invoice_id', resource: 'invoices', label: 'Invoice' },
});
