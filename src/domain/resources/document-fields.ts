import { boolean, date, integer, money, reference, select, text, textarea, type Field } from '../fields';
import { statusLabel, statusValues, type Lifecycle } from '../lifecycle';
import type { IconKey, MenuEntry } from '../menu';
import { defineResource } from '../resource';
import { PAYMENT_METHODS } from '../tenders';

/** A document's status, the server's to set: a select of its lifecycle's statuses, labelled "Partially received" etc. */
export const statusField = (statuses: readonly string[]): Field =>
  select(
    'Status',
    statuses.map((value) => ({ value, label: statusLabel(value) })),
    { computed: true },
  );

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
    status: statusField(statuses),
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

/**
 * A document done when made — goods `received`, or `posted` (a payment, a memorandum, a stock
 * adjustment) — which a void undoes once: `reverses` says what, and `undo` who else may take it.
 */
const doneWhenMade = (status: 'received' | 'posted', reverses: string, undo: { byMakerSameDay?: boolean } = {}): Lifecycle => ({
  statuses: { [status]: 'complete', void: 'undone' },
  start: status,
  transitions: [{ name: 'void', direction: 'undo', from: [status], to: 'void', permission: 'delete', reverses, ...undo }],
  trashable: ['void'],
});

/** Goods that arrived (a receive order, a stock receive): received when made; voided, `reverses`. */
export const receivedLifecycle = (reverses: string): Lifecycle => doneWhenMade('received', reverses);

/** A stock adjustment, a payment or a memorandum: posted when made; voided, `reverses`. */
export const postedLifecycle = (reverses: string, undo: { byMakerSameDay?: boolean } = {}): Lifecycle =>
  doneWhenMade('posted', reverses, undo);

/** A payment or a memorandum: voided, what it settled is owed again. */
const settlementLifecycle = (settled: string): Lifecycle => postedLifecycle(`What it settled is owed again on its ${settled}.`);

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

/** A payment or a memorandum of one kind: its names, its number's type and prefix, its party, and the bill or invoice it settles. */
interface SettlementOf {
  name: string;
  singular: string;
  plural: string;
  type: string;
  prefix: string;
  contact: 'Supplier' | 'Customer';
  /** What it settles: `bill_id` of `bills`, labelled "Bill". */
  settles: { field: string; resource: string; label: string };
  menu?: MenuEntry;
}

/**
 * What payments and memoranda share: made from a bill or an invoice, whose party and location
 * they take, they settle an amount of it (`into` its paid or adjusted amount) until voided, and
 * are listed by their number, date, that document and one field of their own (`shown`).
 */
function settlementResource(
  { name, singular, plural, type, prefix, contact, settles, menu }: SettlementOf,
  own: {
    into: 'amount_paid' | 'amount_adjusted';
    followOnIcon: IconKey;
    editable: boolean;
    updatable?: readonly string[];
    fields: Record<string, Field>;
    shown: string;
  },
) {
  return defineResource({
    name,
    singular,
    plural,
    display: 'number',
    menu,
    editable: own.editable,
    document: {
      type,
      prefix,
      lines: 'none',
      contact,
      source: { field: settles.field, resource: settles.resource },
      effects: { settles: { resource: settles.resource, field: settles.field, into: own.into } },
      lifecycle: settlementLifecycle(settles.label.toLowerCase()),
      updatable: own.updatable,
      followOnIcon: own.followOnIcon,
    },
    fields: { ...settlementHeader(contact, settles), ...own.fields },
    search: [...DOCUMENT_SEARCH, settles.field, own.shown],
    sort: ['number', 'date', 'amount'],
    columns: ['number', 'date', settles.field, 'contact_id', own.shown, 'amount'],
  });
}

/**
 * A payment of a bill or an invoice: its party and location are the paid document's, filled in by
 * the server; it is made of tenders (cash, GCash, a check …, `domain/tenders.ts`), kept beside it,
 * which its amount and method are the server's sum and summary of. Invoice payments have an edit
 * screen (for their reference and notes); bill payments not.
 */
export const paymentResource = ({ editable = false, ...of }: SettlementOf & { editable?: boolean }) =>
  settlementResource(of, {
    into: 'amount_paid',
    followOnIcon: 'credit-card',
    editable,
    updatable: ['notes', 'payment_reference'],
    fields: {
      // What its tenders come to (domain/tenders.ts), and their method, or split: the server's.
      amount: money('Amount', { computed: true }),
      payment_method: select('Payment method', PAYMENT_METHODS, { computed: true }),
      // The payment's own reference (a receipt's number); each tender keeps what traces it.
      payment_reference: text('Payment reference', { max: 100 }),
    },
    shown: 'payment_method',
  });

/** A credit or debit memorandum: takes an amount off an invoice's or a bill's balance, for a reason. */
export const memorandumResource = (of: SettlementOf) =>
  settlementResource(of, {
    into: 'amount_adjusted',
    followOnIcon: 'file-minus',
    editable: false,
    fields: { reason: text('Reason', { required: true, max: 500 }) },
    shown: 'reason',
  });

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
    status: statusField(statuses),
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
