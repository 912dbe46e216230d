import type { DiscountEntry, SelectOption } from './fields';
import type { DocumentEffects } from './effects';
import type { Lifecycle } from './lifecycle';
import type { IconKey } from './menu';

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
   * (signed quantities, each with its reason: stock corrected at one place); returns (lines of the
   * source document, each with its reason and disposition, priced as their share of it); or none
   * (payments).
   */
  lines: 'priced' | 'quantities' | 'adjustments' | 'returns' | 'none';
  /** Goods go from one location to another (`from_location_*` → `to_location_*`) instead of being at one. */
  twoLocations?: boolean;
  /**
   * The document it is made from (`/receive-orders/create/{purchase_order_id}`), by its field;
   * `reversed` when its two ends are the source's the other way round (a return goes back from
   * where its transfer went).
   */
  source?: { field: string; resource: string; reversed?: true };
  /** Goods it moves at its location when created: in, out, or both ways (signed lines: in when positive, out when negative). */
  stock?: 'in' | 'out' | 'both';
  /** Its counterparty: Supplier or Customer, the label of `contact_id` (none for goods moved between locations). */
  contact?: 'Supplier' | 'Customer';
  /** What its edit screen may change once it exists (documents with an edit route); `lines` while nothing moved. */
  updatable?: readonly string[];
  /** Numbered from blocks a device reserves while online, so what it makes offline has its final number (a sale at the counter). */
  numberBlocks?: true;
  /** The icon of the action making one from another document (receive, record payment …); a plain document's when none. */
  followOnIcon?: IconKey;
  /** Its statuses, transitions, what may be trashed and what follows from it. */
  lifecycle: Lifecycle;
  /** What it moves in stock, fulfils of other lines and settles of money (`domain/effects.ts`): what the audit checks it by. */
  effects?: DocumentEffects;
  /** A kind taking goods back (`lines: 'returns'`): its words for why, what becomes of them, and how the party is paid back. */
  returns?: ReturnTerms;
}

/**
 * The words of a kind taking goods back from the document it is made from (a sales return from an
 * invoice, a purchase return from a bill): each line's reason (`other` asks for a note) and
 * disposition, the settlements (`credit`: taken off what the source still owes; `refund`: paid back
 * in tenders; `account`: kept on the party's account, for later payments), and what its printout is called and what its total is.
 */
export interface ReturnTerms {
  reasons: readonly SelectOption[];
  dispositions: readonly SelectOption[];
  /** The disposition a line starts with. */
  usualDisposition: string;
  settlements: readonly SelectOption[];
  /** The printout's title: CREDIT MEMORANDUM. */
  memorandum: string;
  /** The printout's last figure: Total amount credited. */
  totalLabel: string;
}

export type LocationType = 'branch' | 'warehouse';

/** Manila's offset from UTC: the Philippines keeps UTC+8 all year (no daylight saving since 1978). */
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/**
 * The businesses are in the Philippines: a document's "today" is Manila's, whatever the server's
 * clock zone. Figured from the fixed offset, not an Intl formatter for Asia/Manila: making that
 * formatter loads the zone's data, ~12 ms on the first screen of a phone's counter.
 */
export function todayInManila(now = new Date()): string {
  return new Date(now.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);
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

/** What VAT a line's item carries: 12 %, none (exempt), or 0 % (zero-rated: exports and the like). */
export type VatCategory = 'vatable' | 'exempt' | 'zero_rated';

export const VAT_CATEGORIES: readonly { value: VatCategory; label: string }[] = [
  { value: 'vatable', label: 'VATable' },
  { value: 'exempt', label: 'VAT-exempt' },
  { value: 'zero_rated', label: 'Zero-rated' },
];

/** A senior citizen's or a person with a disability's discount on what qualifies (RA 9994, RA 10754). */
export const SC_PWD_PERCENT = 20;

/** Who takes it: an invoice's buyer, by the ID they show. */
export const BUYER_DISCOUNTS: readonly SelectOption[] = [
  { value: 'senior', label: 'Senior citizen' },
  { value: 'pwd', label: 'Person with disability (PWD)' },
];

/** How a document's lines are priced beyond the item: the business's choice of prices, and the buyer's discount. */
export interface VatTerms {
  /** Unit prices include the 12 % VAT (the price on the shelf), or VAT is added on top. */
  pricesIncludeVat: boolean;
  /** The line qualifies for the buyer's senior citizen or PWD discount. */
  scPwd?: boolean;
  /** The seller is not VAT-registered (a sale of a non-VAT business): no VAT in its prices nor on them. */
  sellerNotVatRegistered?: boolean;
}

export interface LineFigures {
  /** quantity × unit price, as priced (with VAT in it when prices include VAT) */
  gross: number;
  /** The VAT taken out of a VAT-inclusive price because the sale is VAT-exempt for the buyer (senior citizen, PWD). */
  lessVat: number;
  /** The line's discount: the one typed or earned, or the senior citizen's or PWD's 20 %. */
  discount: number;
  /** What the line sells for, net of VAT: its VATable, exempt or zero-rated sales. */
  amount: number;
  vat: number;
  /** How the line is taxed: the item's category, or exempt when a senior citizen or PWD buys a VATable item. */
  category: VatCategory;
  scPwd: boolean;
}

/** A line's amount as its prices read: with its VAT when prices include VAT, else net of it. */
export const amountAsPriced = (line: { amount: number; vat: number }, pricesIncludeVat: boolean): number =>
  pricesIncludeVat ? line.amount + line.vat : line.amount;

/** The VAT-exclusive part of a VAT-inclusive amount, to the centavo: amount × 100/112, rounded half up. */
const netOfVat = (inclusive: number) => Math.round((inclusive * 100) / (100 + VAT_PERCENT));

/**
 * One line: `quantity` in thousandths, `unitPrice` in centavos, `discountHundredths` in hundredths
 * of a percent. Every figure is rounded to the centavo, half up, on the line; a document's figures
 * are its lines' added up, so the lines always add up to the totals.
 *
 * - VAT-exclusive prices: the amount is gross − discount, and a VATable line adds 12 % of it.
 * - VAT-inclusive prices: gross − discount is what the buyer pays; a VATable line's amount is
 *   that × 100/112 and its VAT the rest.
 * - A senior citizen's or PWD's qualifying line: the VAT is first taken out of an inclusive price
 *   (`lessVat`), then 20 % off what is left, and no VAT is charged: the sale is VAT-exempt (a
 *   zero-rated item stays zero-rated). Any other discount gives way to it.
 * - A seller that is not VAT-registered charges no VAT at all: every line is a VAT-exempt sale of
 *   its price (there is no VAT in it to take out).
 */
export function lineFigures(
  quantity: number,
  unitPrice: number,
  discountHundredths: number,
  itemCategory: VatCategory,
  terms: VatTerms,
): LineFigures {
  const gross = Math.round((quantity * unitPrice) / 1000);
  if (terms.sellerNotVatRegistered)
    return lineFigures(quantity, unitPrice, discountHundredths, 'exempt', { pricesIncludeVat: false, scPwd: terms.scPwd });
  if (terms.scPwd) {
    const base = terms.pricesIncludeVat && itemCategory === 'vatable' ? netOfVat(gross) : gross;
    const discount = Math.round((base * SC_PWD_PERCENT) / 100);
    const category = itemCategory === 'vatable' ? 'exempt' : itemCategory;
    return { gross, lessVat: gross - base, discount, amount: base - discount, vat: 0, category, scPwd: true };
  }
  const discount = Math.round((gross * discountHundredths) / 10_000);
  const priced = gross - discount;
  const figures = { gross, lessVat: 0, discount, category: itemCategory, scPwd: false };
  if (itemCategory !== 'vatable') return { ...figures, amount: priced, vat: 0 };
  if (!terms.pricesIncludeVat) return { ...figures, amount: priced, vat: Math.round((priced * VAT_PERCENT) / 100) };
  const amount = netOfVat(priced);
  return { ...figures, amount, vat: priced - amount };
}

/**
 * The most a line, and a document's total, may come to: ₱10,000,000,000.00, in centavos. Sums of
 * many such documents (balances, the overview's figures) stay exact: a JavaScript number holds
 * 9,007 of them added up, and a 64-bit column millions.
 */
export const MAX_DOCUMENT_AMOUNT = 1_000_000_000_000;

export interface DocumentTotals {
  /** The lines' gross, as priced. */
  subtotal: number;
  /** Every discount, the senior citizen's or PWD's with the rest. */
  discount_total: number;
  /** Of it, the senior citizen's or PWD's 20 %. */
  sc_pwd_discount: number;
  /** The VAT taken out of inclusive prices on a senior citizen's or PWD's lines. */
  less_vat: number;
  /** Sales net of VAT, by how they are taxed. */
  vatable_sales: number;
  exempt_sales: number;
  zero_rated_sales: number;
  vat_total: number;
  /** What is owed: the sales and their VAT. */
  total: number;
}

export function documentTotals(lines: readonly LineFigures[]): DocumentTotals {
  const sum = (pick: (line: LineFigures) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const sales = (category: VatCategory) => sum((line) => (line.category === category ? line.amount : 0));
  return {
    subtotal: sum((line) => line.gross),
    discount_total: sum((line) => line.discount),
    sc_pwd_discount: sum((line) => (line.scPwd ? line.discount : 0)),
    less_vat: sum((line) => line.lessVat),
    vatable_sales: sales('vatable'),
    exempt_sales: sales('exempt'),
    zero_rated_sales: sales('zero_rated'),
    vat_total: sum((line) => line.vat),
    total: sum((line) => line.amount + line.vat),
  };
}

/** The discount percent of the largest quantity break the quantity reaches (0 below the first). */
export function quantityDiscount(breaks: readonly DiscountEntry[], quantity: number): number {
  let percent = 0;
  for (const entry of [...breaks].sort((a, b) => a.quantity - b.quantity)) if (quantity >= entry.quantity) percent = entry.discount_percent;
  return percent;
}
