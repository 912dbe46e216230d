import { paymentResource } from './document-fields';

/** Money received against an invoice. */
export const invoicePayments = paymentResource({
  name: 'invoice-payments',
  singular: 'Invoice Payment',
  plural: 'Invoice Payments',
  type: 'invoice-payment',
  prefix: 'IP',
  contact: 'Customer',
  settles: { field: 'invoice_id', resource: 'invoices', label: 'Invoice' },
  menu: { group: 'Sales & Services', icon: 'banknote' },
  editable: true,
});
