import { date, money, reference, select, type SelectOption } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { documentHeader, documentTotals, DOCUMENT_SEARCH, postedLifecycle } from './document-fields';

/** Why goods came back: each line of a return says one of these ("other" with a note). */
export const RETURN_REASONS: readonly SelectOption[] = [
  { value: 'damaged', label: 'Damaged' },
  { value: 'wrong_item', label: 'Wrong item' },
  { value: 'expired', label: 'Expired' },
  { value: 'changed_mind', label: 'Changed mind' },
  { value: 'other', label: 'Other' },
];

/**
 * What becomes of a returned line's goods: back on hand at the return's place, to be sold again;
 * on hand there but quarantined — neither sold nor moved until a stock adjustment releases them or
 * writes them off (goods to be looked at); or written off there and then (they never come back
 * into stock).
 */
export const RETURN_DISPOSITIONS: readonly SelectOption[] = [
  { value: 'restock', label: 'Back in stock' },
  { value: 'quarantine', label: 'Quarantined' },
  { value: 'write_off', label: 'Written off' },
];

/** The disposition whose goods go back on hand, to be sold again. */
export const RESTOCK = 'restock';
/** The disposition whose goods go back on hand in quarantine. */
export const QUARANTINE = 'quarantine';

/**
 * How the customer is given back what the returned goods came to: taken off what they still owe
 * on the invoice (credit), paid back in tenders (refund: cash, GCash …, as payments are taken), or
 * kept on their account (account), to pay later invoices with (an "Account credit" tender).
 * A purchase return settles with the same two values, in its own words.
 */
export const RETURN_SETTLEMENTS: readonly SelectOption[] = [
  { value: 'credit', label: 'Credit to the invoice' },
  { value: 'refund', label: 'Refund' },
  { value: 'account', label: 'Credit to the customer’s account' },
];

const lifecycle = postedLifecycle(
  'Its restocked and quarantined goods leave stock again, what it credited is owed again on its invoice, and its lines may be returned again; a refund is not taken back.',
);

/**
 * Goods a customer brings back from an invoice, made at the invoice's place: each line one of the
 * invoice's, at most what was sold less what earlier returns took, with its reason and what becomes
 * of the goods. It comes to its lines' share of the invoice — VAT split and any senior citizen's or
 * PWD's discount in proportion — which is credited to the invoice or refunded. Printed, it is the
 * credit memorandum naming the invoice.
 */
export const salesReturns = defineResource({
  name: 'sales-returns',
  singular: 'Sales Return',
  plural: 'Sales Returns',
  display: 'number',
  menu: { group: 'Sales & Services', icon: 'undo-2' },
  editable: false,
  document: {
    type: 'sales-return',
    followOnIcon: 'undo-2',
    prefix: 'SRN',
    lines: 'returns',
    returns: {
      reasons: RETURN_REASONS,
      dispositions: RETURN_DISPOSITIONS,
      usualDisposition: RESTOCK,
      settlements: RETURN_SETTLEMENTS,
      memorandum: 'CREDIT MEMORANDUM',
      totalLabel: 'Total amount credited',
    },
    contact: 'Customer',
    source: { field: 'invoice_id', resource: 'invoices' },
    effects: {
      stock: [
        { at: 'own', onHand: 1, inTransit: 0, dispositions: [RESTOCK] },
        { at: 'own', onHand: 1, inTransit: 0, quarantined: 1, dispositions: [QUARANTINE] },
      ],
      fulfils: true,
      settles: { resource: 'invoices', field: 'invoice_id', into: 'amount_adjusted' },
      cost: { from: 'source' },
    },
    lifecycle,
  },
  fields: {
    invoice_id: reference('Invoice', 'invoices', { required: true }),
    // As the printed credit memorandum names the invoice: its number and date.
    invoice_date: date('Invoice date', { computed: true }),
    ...documentHeader('Customer', statusValues(lifecycle)),
    contact_id: reference('Customer', 'contacts', { computed: true }),
    branch_id: reference('Branch', 'branches', { computed: true }),
    warehouse_id: reference('Warehouse', 'warehouses', { computed: true }),
    // Chosen with the refund's tenders in the return's form; the server keeps it.
    settlement: select('Settlement', RETURN_SETTLEMENTS, { computed: true }),
    ...documentTotals(),
    // What it took off the invoice's balance (its total, when credited) and what was paid back.
    amount: money('Credited', { computed: true }),
    refunded: money('Refunded', { computed: true }),
  },
  search: [...DOCUMENT_SEARCH, 'invoice_id', 'settlement'],
  sort: ['number', 'date', 'total'],
  columns: ['number', 'date', 'invoice_id', 'contact_id', 'settlement', 'total', 'status'],
});
