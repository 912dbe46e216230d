import { date, reference } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { balanceFields, balanceLifecycle, DOCUMENT_SEARCH, documentHeader, documentTotals, SETTLED } from './document-fields';

const owed = balanceLifecycle({
  settledBy: [
    { resource: 'bill-payments', label: 'Record payment' },
    { resource: 'debit-memoranda', label: 'Debit memo' },
  ],
  field: 'bill_id',
  voidReverses: 'Nothing is owed on it any more.',
});

const lifecycle = {
  ...owed,
  // Goods go back to the supplier from it, paid or not, at most what it billed less what earlier returns took.
  followOns: [
    ...(owed.followOns ?? []),
    { resource: 'purchase-returns', label: 'Return goods', from: Object.values(SETTLED), field: 'bill_id', prefill: 'open-lines' as const },
  ],
  linesDone: 'Returned',
};

/** What a supplier asks to be paid, from a purchase order or on its own. */
export const bills = defineResource({
  name: 'bills',
  singular: 'Bill',
  plural: 'Bills',
  display: 'number',
  menu: { group: 'Purchasing', icon: 'receipt' },
  editable: false,
  document: {
    type: 'bill',
    prefix: 'B',
    lines: 'priced',
    contact: 'Supplier',
    effects: { owed: true },
    source: { field: 'purchase_order_id', resource: 'purchase-orders' },
    lifecycle,
  },
  fields: {
    ...documentHeader('Supplier', statusValues(lifecycle)),
    purchase_order_id: reference('Purchase order', 'purchase-orders'),
    due_date: date('Due date'),
    ...documentTotals(),
    ...balanceFields(),
  },
  search: [...DOCUMENT_SEARCH, 'purchase_order_id', 'due_date'],
  sort: ['number', 'date', 'due_date', 'total', 'balance'],
  columns: ['number', 'date', 'contact_id', 'due_date', 'status', 'total', 'balance'],
});
