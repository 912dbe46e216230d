import type { DiscountEntry, SelectOption } from './fields';
import type { Lifecycle } from './lifecycle';

/**
 * What every document shares: its number and
 * reference number, how a line's amount and the totals are figured, and the quantity discount a
 * line earns. The server computes with these; the client shows running totals with the same.
 * All money here is integer centavos and all quantities integer thousandths.
 */

export const VAT_PERCENT = 12;

export interface DocumentSpec {
  /** The document type, stored with its files and counters: `purchase-order`, `bill-payment` … */
  type: string;
  /** The prefix of its numbers: PO, RO, B, BP … */
  prefix: string;
  /**
   * Priced item lines; lines of quantities only (goods moved between locations); adjustments
   * (signed quantities, each with its reason: stock corrected at one place); or none (payments).
   */
  lines: 'priced' | 'quantities' | 'adjustments' | 'none';
  /** Goods go from one location to another (`from_location_*` → `to_location_*`) instead of being at one. */
  twoLocations?: boolean;
  /** The document it is made from (`/receive-orders/create/{purchase_order_id}`), by its field. */
  source?: { field: string; resource: string };
  /** Goods it moves at its location when created: in, out, or both ways (signed lines: in when positive, out when negative). */
  stock?: 'in' | 'out' | 'both';
  /** Its counterparty: Supplier or Customer, the label of `contact_id` (none for goods moved between locations). */
  contact?: 'Supplier' | 'Customer';
  /** What its edit screen may change once it exists (documents with an edit route); `lines` while nothing moved. */
  updatable?: readonly string[];
  /** Its statuses, transitions, what may be trashed and what follows from it. */
  lifecycle: Lifecycle;
}

export type LocationType = 'branch' | 'warehouse';

/** The businesses are in the Philippines: a document's "today" is Manila's, whatever the server's clock zone. */
export function todayInManila(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export interface Location {
  type: LocationType;
  id: number;
}

/** A document number: `{prefix}-{yyyyMMdd}-{B|W}{location id padded to 5}-{total+1 padded to 8}`. */
export function documentNumber(prefix: string, date: string, location: Location, sequence: number): string {
  const letter = location.type === 'branch' ? 'B' : 'W';
  return `${prefix}-${date.replaceAll('-', '')}-${letter}${String(location.id).padStart(5, '0')}-${String(sequence).padStart(8, '0')}`;
}

/** A reference number: `RN-{contact_id}{contact_id+1 padded to 8}-{yyyyMMdd}-{total+1 padded to 4}`. */
export function referenceNumber(contactId: number, date: string, sequence: number): string {
  return `RN-${contactId}${String(contactId + 1).padStart(8, '0')}-${date.replaceAll('-', '')}-${String(sequence).padStart(4, '0')}`;
}

export interface LineFigures {
  /** quantity × unit price */
  gross: number;
  discount: number;
  /** gross − discount: the line's amount */
  amount: number;
  vat: number;
}

/**
 * One line: `quantity` in thousandths, `unitPrice` in centavos (before VAT), `discountHundredths`
 * in hundredths of a percent; VAT at 12 % on what is left when the item is vatable.
 */
export function lineFigures(quantity: number, unitPrice: number, discountHundredths: number, vatable: boolean): LineFigures {
  const gross = Math.round((quantity * unitPrice) / 1000);
  const discount = Math.round((gross * discountHundredths) / 10_000);
  const amount = gross - discount;
  return { gross, discount, amount, vat: vatable ? Math.round((amount * VAT_PERCENT) / 100) : 0 };
}

/**
 * The most a line, and a document's total, may come to: ₱10,000,000,000.00, in centavos. Sums of
 * many such documents (balances, the overview's figures) stay exact: a JavaScript number holds
 * 9,007 of them added up, and a 64-bit column millions.
 */
export const MAX_DOCUMENT_AMOUNT = 1_000_000_000_000;

export interface DocumentTotals {
  subtotal: number;
  discount_total: number;
  vat_total: number;
  total: number;
}

export function documentTotals(lines: readonly LineFigures[]): DocumentTotals {
  const sum = (pick: (line: LineFigures) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const subtotal = sum((line) => line.gross);
  const discountTotal = sum((line) => line.discount);
  const vatTotal = sum((line) => line.vat);
  return { subtotal, discount_total: discountTotal, vat_total: vatTotal, total: subtotal - discountTotal + vatTotal };
}

/** The discount percent of the largest quantity break the quantity reaches (0 below the first). */
export function quantityDiscount(breaks: readonly DiscountEntry[], quantity: number): number {
  let percent = 0;
  for (const entry of [...breaks].sort((a, b) => a.quantity - b.quantity)) if (quantity >= entry.quantity) percent = entry.discount_percent;
  return percent;
}

export const PAYMENT_METHODS: readonly SelectOption[] = [
  { value: 'cash', label: 'Cash' },
  { value: 'check', label: 'Check' },
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'gcash', label: 'GCash' },
  { value: 'maya', label: 'Maya' },
  { value: 'card', label: 'Card' },
];
