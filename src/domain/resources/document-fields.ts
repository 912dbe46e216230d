import { boolean, date, integer, money, reference, select, text, textarea, type Field } from '../fields';
import { statusLabel, statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { PAYMENT_METHODS } from '../tenders';

/** Statuses as the options of a status select, labelled "Partially received" etc. */
const statusOptions = (statuses: readonly string[]) => statuses.map((value) => ({ value, label: statusLabel(value) }));

/**
 * The header every document shares: its server-assigned number and reference
 * number, its contact, exactly one of branch or warehouse, its date, notes and status, and the
 * totals of its lines.
 */
export function documentHeader(contact: 'Supplier' | 'Customer', statuses: readonly string[]): Record<string, Field> {
  return {
    number: text('Number', { computed: true }),
    reference_number: text('Reference number', { computed: true }),
    contact_id: reference(contact, 'contacts', { required: true, contactType: contact }),
    branch_id: reference('Branch', 'branches'),
    warehouse_id: reference('Warehouse', 'warehouses'),
    date: date('Date', { required: true }),
    notes: textarea('Notes'),
    status: select('Status', statusOptions(statuses), { computed: true }),
  };
}

/**
 * The totals of a priced document's lines (`DocumentTotals`): what they come to as priced, the
 * discounts, the sales net of VAT by how they are taxed, the VAT, and what is owed; and whether
 * its prices included VAT (the business's choice when it was made).
 */
export const documentTotals = (): Record<string, Field> => ({
  prices_include_vat: boolean('Prices include VAT', { computed: true }),
  subtotal: money('Subtotal', { computed: true }),
  discount_total: money('Discount', { computed: true }),
  less_vat: money('Less: VAT (SC/PWD)', { computed: true }),
  sc_pwd_discount: money('SC/PWD discount', { computed: true }),
  vatable_sales: money('VATable sales', { computed: true }),
  exempt_sales: money('VAT-exempt sales', { computed: true }),
  zero_rated_sales: money('Zero-rated sales', { computed: true }),
  vat_total: money('VAT', { computed: true }),
  total: money('Total', { computed: true }),
});

/** A bill's or an invoice's statuses by what was settled of its total. */
export const SETTLED = { nothing: 'unpaid', part: 'partially_paid', all: 'paid' } as const;

export type SettledStatus = (typeof SETTLED)[keyof typeof SETTLED];

/**
 * A bill's or an invoice's status from what was settled of its total (in centavos, as stored), by
 * payments and memoranda together: unpaid while nothing is, paid once all of it is, partially paid
 * between. The server decides it in SQL (`settledStatus` in server/documents/payments.ts), which
 * yields these statuses and is checked against this.
 */
export function settledStatusOf(document: Readonly<Record<string, unknown>>): SettledStatus {
  const settled = Number(document.amount_paid ?? 0) + Number(document.amount_adjusted ?? 0);
  if (settled === 0) return SETTLED.nothing;
  return settled >= Number(document.total ?? 0) ? SETTLED.all : SETTLED.part;
}

/**
 * The lifecycle of a bill or an invoice: owed until its payments and memoranda settle it; voided
 * (only while unpaid: once they are voided) it owes nothing. Payments and memoranda are made from it while
 * something is owed, each starting with the balance.
 */
export function balanceLifecycle({
  settledBy,
  field,
  voidReverses,
}: {
  settledBy: { resource: string; label: string }[];
  field: string;
  voidReverses: string;
}): Lifecycle {
  const owing = [SETTLED.nothing, SETTLED.part];
  return {
    statuses: { [SETTLED.nothing]: 'outstanding', [SETTLED.part]: 'outstanding', [SETTLED.all]: 'complete', void: 'undone' },
    start: SETTLED.nothing,
    derived: { statuses: Object.values(SETTLED), of: settledStatusOf },
    transitions: [
      {
        name: 'void',
        direction: 'undo',
        // Anything paid or adjusted is voided first, which leaves it unpaid again.
        from: [SETTLED.nothing],
        to: 'void',
        permission: 'delete',
        reverses: voidReverses,
      },
    ],
    trashable: ['void'],
    followOns: settledBy.map(({ resource, label }) => ({ resource, label, from: owing, field, prefill: 'balance' })),
  };
}

/**
 * The lifecycle of goods asked to go somewhere (a stock request, a stock return): pending until
 * transfers made from it carry them, cancelled only while none has.
 */
export function transferredLifecycle({
  cancelReverses,
  transfer,
}: {
  cancelReverses: string;
  /** The transfer made from it: its button's label, the transfer's field naming it, and its create route. */
  transfer: { label: string; field: string; route: string };
}): Lifecycle {
  return {
    statuses: { pending: 'open', partially_transferred: 'outstanding', transferred: 'complete', cancelled: 'undone' },
    start: 'pending',
    transitions: [
      { name: 'cancel', direction: 'undo', from: ['pending'], to: 'cancelled', permission: 'update', reverses: cancelReverses },
    ],
    followOns: [{ resource: 'stock-transfers', from: ['pending', 'partially_transferred'], prefill: 'open-lines', ...transfer }],
    linesDone: 'Transferred',
  };
}

/** Goods that arrived (a receive order, a stock receive): received when made; voided, `reverses`. */
export const receivedLifecycle = (reverses: string): Lifecycle => ({
  statuses: { received: 'complete', void: 'undone' },
  start: 'received',
  transitions: [{ name: 'void', direction: 'undo', from: ['received'], to: 'void', permission: 'delete', reverses }],
  trashable: ['void'],
});

/** A payment or a memorandum: posted when made; voided, what it settled is owed again. */
const settlementLifecycle = (settled: string): Lifecycle => ({
  statuses: { posted: 'complete', void: 'undone' },
  start: 'posted',
  transitions: [
    {
      name: 'void',
      direction: 'undo',
      from: ['posted'],
      to: 'void',
      permission: 'delete',
      reverses: `What it settled is owed again on its ${settled}.`,
    },
  ],
  trashable: ['void'],
});

/** What a bill or an invoice has been paid, what memoranda took off it, and what is left. */
export const balanceFields = (): Record<string, Field> => ({
  amount_paid: money('Amount paid', { computed: true }),
  amount_adjusted: money('Adjusted by memoranda', { computed: true }),
  balance: money('Balance', { computed: true }),
});

export const DOCUMENT_SEARCH = ['id', 'number', 'reference_number', 'contact_id', 'branch_id', 'warehouse_id', 'status', 'date'] as const;

/**
 * What a payment or a memorandum starts with: the bill or invoice it settles, the document
 * header — whose party and location are that document's, filled in by the server — and its amount.
 */
function settlementHeader(
  contact: 'Supplier' | 'Customer',
  settles: { field: string; resource: string; label: string },
): Record<string, Field> {
  return {
    [settles.field]: reference(settles.label, settles.resource, { required: true }),
    ...documentHeader(contact, statusValues(settlementLifecycle(settles.label.toLowerCase()))),
    contact_id: reference(contact, 'contacts', { computed: true }),
    branch_id: reference('Branch', 'branches', { computed: true }),
    warehouse_id: reference('Warehouse', 'warehouses', { computed: true }),
    amount: money('Amount', { required: true }),
  };
}

interface PaymentOf {
  name: string;
  singular: string;
  plural: string;
  type: string;
  prefix: string;
  contact: 'Supplier' | 'Customer';
  /** What it pays: `bill_id` of `bills`, labelled "Bill". */
  paid: { field: string; resource: string; label: string };
  /** Invoice payments have an edit screen (for their reference and notes); bill payments not. */
  editable?: boolean;
}

/**
 * A payment of a bill or an invoice: its party and location are the paid document's, filled in by
 * the server; it is made of tenders (cash, GCash, a check …, `domain/tenders.ts`), kept beside it,
 * which its amount and method are the server's sum and summary of.
 */
export function paymentResource({ name, singular, plural, type, prefix, contact, paid, editable = false }: PaymentOf) {
  return defineResource({
    name,
    singular,
    plural,
    display: 'number',
    editable,
    document: {
      type,
      prefix,
      lines: 'none',
      contact,
      source: { field: paid.field, resource: paid.resource },
      effects: { settles: { resource: paid.resource, field: paid.field, into: 'amount_paid' } },
      lifecycle: settlementLifecycle(paid.label.toLowerCase()),
      updatable: ['notes', 'payment_reference'],
    },
    fields: {
      ...settlementHeader(contact, paid),
      // What its tenders come to (domain/tenders.ts), and their method, or split: the server's.
      amount: money('Amount', { computed: true }),
      payment_method: select('Payment method', PAYMENT_METHODS, { computed: true }),
      // The payment's own reference (a receipt's number); each tender keeps what traces it.
      payment_reference: text('Payment reference', { max: 100 }),
    },
    search: [...DOCUMENT_SEARCH, paid.field, 'payment_method'],
    sort: ['number', 'date', 'amount'],
    columns: ['number', 'date', paid.field, 'contact_id', 'payment_method', 'amount'],
  });
}

interface MemorandumOf {
  name: string;
  singular: string;
  plural: string;
  type: string;
  prefix: string;
  contact: 'Supplier' | 'Customer';
  /** What it adjusts: `invoice_id` of `invoices`, labelled "Invoice". */
  adjusts: { field: string; resource: string; label: string };
}

/** A credit or debit memorandum: takes an amount off an invoice's or a bill's balance, for a reason. */
export function memorandumResource({ name, singular, plural, type, prefix, contact, adjusts }: MemorandumOf) {
  return defineResource({
    name,
    singular,
    plural,
    display: 'number',
    editable: false,
    document: {
      type,
      prefix,
      lines: 'none',
      contact,
      source: { field: adjusts.field, resource: adjusts.resource },
      effects: { settles: { resource: adjusts.resource, field: adjusts.field, into: 'amount_adjusted' } },
      lifecycle: settlementLifecycle(adjusts.label.toLowerCase()),
    },
    fields: {
      ...settlementHeader(contact, adjusts),
      reason: text('Reason', { required: true, max: 500 }),
    },
    search: [...DOCUMENT_SEARCH, adjusts.field, 'reason'],
    sort: ['number', 'date', 'amount'],
    columns: ['number', 'date', adjusts.field, 'contact_id', 'reason', 'amount'],
  });
}

const locationTypes = [
  { value: 'warehouse', label: 'Warehouse' },
  { value: 'branch', label: 'Branch' },
];

const location = (label: string, field: string, options: { required?: boolean; computed?: boolean }) =>
  integer(label, {
    ...options,
    referencesBy: { field, resources: { branch: 'branches', warehouse: 'warehouses' } },
  });

/**
 * The header of a document moving goods between two locations: where they leave
 * (`from_`) and where they go (`to_`), each a warehouse or a branch; the number's B/W part follows
 * `from_`. `computed`: taken from the source document (a stock receive's transfer).
 */
export function transferHeader(statuses: readonly string[], { computed = false } = {}): Record<string, Field> {
  const required = !computed;
  return {
    number: text('Number', { computed: true }),
    from_location_type: select('From', locationTypes, { required, computed }),
    from_location_id: location('From location', 'from_location_type', { required, computed }),
    to_location_type: select('To', locationTypes, { required, computed }),
    to_location_id: location('To location', 'to_location_type', { required, computed }),
    date: date('Date', { required: true }),
    notes: textarea('Notes'),
    status: select('Status', statusOptions(statuses), { computed: true }),
  };
}

export const TRANSFER_SEARCH = [
  'id',
  'number',
  'from_location_type',
  'from_location_id',
  'to_location_type',
  'to_location_id',
  'status',
  'date',
] as const;
