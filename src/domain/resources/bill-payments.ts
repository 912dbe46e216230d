import { paymentResource } from './document-fields';

/** Money paid against a bill. */
export const billPayments = paymentResource({
  name: 'bill-payments',
  singular: 'Bill Payment',
  plural: 'Bill Payments',
  type: 'bill-payment',
  prefix: 'BP',
  contact: 'Supplier',
  settles: { field: 'bill_id', resource: 'bills', label: 'Bill' },
  menu: { group: 'Purchasing', icon: 'banknote' },
});
