import { date, money, reference, select, type SelectOption } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { documentHeader, documentTotals, DOCUMENT_SEARCH, postedLifecycle } from './document-fields';

/** Why goods go back to their supplier: each line says one of these ("other" with a note). */
export const PURCHASE_RETURN_REASONS: readonly SelectOption[] = [
  { value: 'damaged', label: 'Damaged' },
  { value: 'wrong_item', label: 'Wrong item' },
  { value: 'expired', label: 'Expired' },
  { value: 'over_delivered', label: 'Over-delivered' },
  { value: 'other', label: 'Other' },
];

/**
 * Where the goods sent back come from at the bill's place: its sellable stock, or its quarantine
 * (goods held back to be looked at — a customer's damaged return — sent on to the supplier).
 */
export const PURCHASE_RETURN_DISPOSITIONS: readonly SelectOption[] = [
  { value: 'from_stock', label: 'From stock' },
  { value: 'from_quarantine', label: 'From quarantine' },
];

/** The disposition of goods sent back out of sellable stock. */
export const FROM_STOCK = 'from_stock';
/** The disposition of goods sent back out of quarantine. */
export const FROM_QUARANTINE = 'from_quarantine';

/** How the supplier gives back what the goods came to: taken off what is still owed on the bill, refunded in tenders, or kept as credit on account for later bills. */
export const PURCHASE_RETURN_SETTLEMENTS: readonly SelectOption[] = [
  { value: 'credit', label: 'Off the bill' },
  { value: 'refund', label: 'Refunded by the supplier' },
  { value: 'account', label: 'Credit from the supplier, on account' },
];

const lifecycle = postedLifecycle(
  'Its goods are on hand again where they left from (quarantined ones in quarantine), what it took off its bill is owed again, and its lines may be returned again; a refund is not taken back.',
);

/**
 * Goods sent back to their supplier from a bill, at the bill's place: each line one of the bill's,
 * at most what was billed less what earlier returns took, with its reason and whether it leaves
 * sellable stock or quarantine. It comes to its lines' share of the bill, VAT split in proportion,
 * which is taken off what is owed on the bill or refunded by the supplier. Printed, it is the debit
 * memorandum naming the bill.
 */
export const purchaseReturns = defineResource({
  name: 'purchase-returns',
  singular: 'Purchase Return',
  plural: 'Purchase Returns',
  display: 'number',
  menu: { group: 'Purchasing', icon: 'undo-2' },
  editable: false,
  document: {
    type: 'purchase-return',
    followOnIcon: 'undo-2',
    prefix: 'PRN',
    lines: 'returns',
    returns: {
      reasons: PURCHASE_RETURN_REASONS,
      dispositions: PURCHASE_RETURN_DISPOSITIONS,
      usualDisposition: FROM_STOCK,
      settlements: PURCHASE_RETURN_SETTLEMENTS,
      memorandum: 'DEBIT MEMORANDUM',
      totalLabel: 'Total amount debited',
    },
    contact: 'Supplier',
    stock: 'out',
    source: { field: 'bill_id', resource: 'bills' },
    effects: {
      stock: [
        { at: 'own', onHand: -1, inTransit: 0, dispositions: [FROM_STOCK] },
        { at: 'own', onHand: -1, inTransit: 0, quarantined: -1, dispositions: [FROM_QUARANTINE] },
      ],
      fulfils: true,
      settles: { resource: 'bills', field: 'bill_id', into: 'amount_adjusted' },
      cost: { from: 'source' },
    },
    lifecycle,
  },
  fields: {
    bill_id: reference('Bill', 'bills', { required: true }),
    // As the printed debit memorandum names the bill: its number and date.
    bill_date: date('Bill date', { computed: true }),
    ...documentHeader('Supplier', statusValues(lifecycle)),
    contact_id: reference('Supplier', 'contacts', { computed: true }),
    branch_id: reference('Branch', 'branches', { computed: true }),
    warehouse_id: reference('Warehouse', 'warehouses', { computed: true }),
    // Chosen with the refund's tenders in the return's form; the server keeps it.
    settlement: select('Settlement', PURCHASE_RETURN_SETTLEMENTS, { computed: true }),
    ...documentTotals(),
    // What it took off the bill's balance (its total, when so settled) and what the supplier paid back.
    amount: money('Taken off the bill', { computed: true }),
    refunded: money('Refunded', { computed: true }),
  },
  search: [...DOCUMENT_SEARCH, 'bill_id', 'settlement'],
  sort: ['number', 'date', 'total'],
  columns: ['number', 'date', 'bill_id', 'contact_id', 'settlement', 'total', 'status'],
});
