import { paymentResource } from './document-fields';

/** Money received against an invoice. */
export const invoicePayments = paymentResource({
  name: 'invoice-payments',
  singular: 'Invoice Payment',
  plural: 'Invoice Payments',
  type: 'invoice-payment',
  prefix: 'IP',
  contact: 'Customer',
  paid: { field: 'invoice_id', resource: 'invoices', label: 'Invoice' },
  editable: true,
});
