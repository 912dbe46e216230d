import { memorandumResource } from './document-fields';

/** Takes an amount off what is owed a supplier on a bill (goods sent back, a short delivery). */
export const debitMemoranda = memorandumResource({
  name: 'debit-memoranda',
  singular: 'Debit Memorandum',
  plural: 'Debit Memoranda',
  type: 'debit-memorandum',
  prefix: 'DM',
  contact: 'Supplier',
  settles: { field: 'bill_id', resource: 'bills', label: 'Bill' },
});
