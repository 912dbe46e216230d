import { BUYER_DISCOUNTS } from '../documents';
import { date, reference, select, text } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { balanceFields, balanceLifecycle, DOCUMENT_SEARCH, documentHeader, documentTotals, SETTLED } from './document-fields';

/**
 * Makes an invoice that takes its customer past their credit limit, with the reason recorded on it
 * (held with the invoices' own permissions; `domain/permissions.ts` seeds it).
 */
export const OVERRIDE_CREDIT_LIMITS_PERMISSION = 'override-credit-limits';

const owed = balanceLifecycle({
  settledBy: [
    { resource: 'invoice-payments', label: 'Record payment' },
    { resource: 'credit-memoranda', label: 'Credit memo' },
  ],
  field: 'invoice_id',
  voidReverses: 'Its goods return to stock, nothing is owed on it any more, and its quotation is open again.',
});

const lifecycle = {
  ...owed,
  // Goods come back from it, paid or not, at most what it sold less what earlier returns took.
  followOns: [
    ...(owed.followOns ?? []),
    { resource: 'sales-returns', label: 'Return goods', from: Object.values(SETTLED), field: 'invoice_id', prefill: 'open-lines' as const },
  ],
  linesDone: 'Returned',
};

/** A sale: goods leave the stock of its branch or warehouse, and the customer owes its total. */
export const invoices = defineResource({
  name: 'invoices',
  singular: 'Invoice',
  plural: 'Invoices',
  display: 'number',
  menu: { group: 'Sales & Services', icon: 'receipt-text' },
  // Invoices have an edit screen; what moved stock or money stays as it is.
  document: {
    type: 'invoice',
    prefix: 'I',
    lines: 'priced',
    contact: 'Customer',
    stock: 'out',
    // Sold at the counter: its phone numbers what it sells offline from its blocks.
    numberBlocks: true,
    effects: { stock: [{ at: 'own', onHand: -1, inTransit: 0 }], owed: true },
    source: { field: 'quotation_id', resource: 'quotations' },
    updatable: ['notes', 'due_date'],
    lifecycle,
  },
  fields: {
    ...documentHeader('Customer', statusValues(lifecycle)),
    quotation_id: reference('Quotation', 'quotations'),
    due_date: date('Due date'),
    // A senior citizen or a person with a disability buying for their own use: the ID is recorded.
    buyer_discount: select('Senior citizen / PWD', BUYER_DISCOUNTS),
    buyer_discount_id_number: text('SC/PWD ID number', { max: 40, shownWhen: { field: 'buyer_discount', is: ['senior', 'pwd'] } }),
    buyer_discount_name: text('Name on the ID', { max: 200, shownWhen: { field: 'buyer_discount', is: ['senior', 'pwd'] } }),
    // Going past the customer's credit limit: allowed to whoever may override it, and why is kept.
    credit_override_reason: text('Credit limit override reason', { max: 500, heldBy: OVERRIDE_CREDIT_LIMITS_PERMISSION }),
    ...documentTotals(),
    ...balanceFields(),
  },
  search: [...DOCUMENT_SEARCH, 'quotation_id', 'due_date'],
  sort: ['number', 'date', 'due_date', 'total', 'balance'],
  columns: ['number', 'date', 'contact_id', 'due_date', 'status', 'total', 'balance'],
});
