import {
  documentTotals,
  lineFigures,
  MAX_DOCUMENT_AMOUNT,
  quantityDiscount,
  SC_PWD_PERCENT,
  type DocumentSpec,
  type LineFigures,
  type VatCategory,
} from './documents';
import type { DiscountEntry } from './fields';
import { centavosToPesos, formatPesos } from './money';
import { fromThousandths, MAX_LINE_THOUSANDTHS } from './quantity';

/**
 * How a document line is priced, the same on both ends: the server when it saves a document, the
 * line editor while the document is built (online, or offline from the price lists kept on the
 * device). Each end fetches the rows in its own way and hands them here; what the rows mean is
 * decided only here. Money is integer centavos, quantities integer thousandths.
 */

export type PriceList = 'purchase' | 'sale';

/** Which price list a document's lines come from, and the field naming the party whose own prices apply. */
export interface DocumentPricing {
  list: PriceList;
  /** `contact_id` (the supplier's purchase prices) or `branch_id` (the branch's sale prices). */
  party: 'contact_id' | 'branch_id';
}

/** A priced document buys from a supplier or sells to a customer; goods moved between places are not priced. */
export function pricingOf(spec: DocumentSpec | undefined): DocumentPricing | null {
  if (!spec || spec.lines !== 'priced') return null;
  const list = spec.contact === 'Supplier' ? 'purchase' : 'sale';
  return { list, party: PRICE_LIST_PARTY[list] };
}

/** The field of a price list's rows naming whose own price a row is: a supplier's purchase price, a branch's sale price. */
export const PRICE_LIST_PARTY: Readonly<Record<PriceList, DocumentPricing['party']>> = { purchase: 'contact_id', sale: 'branch_id' };

/** A row of a price list: a price for an item in a unit, from a date, for one party or (null) every one. */
export interface ListedPriceRow {
  id: number;
  unitId: number;
  party: number | null;
  effectiveDate: string;
  /** In centavos. */
  price: number;
}

/**
 * A row of a price list as the rules take it, whichever end read it: the server its table's row,
 * the line editor the list's record. `price` is the row's price in centavos (the table keeps
 * centavos, the API speaks pesos).
 */
export function listedPriceRow(row: Readonly<Record<string, unknown>>, list: PriceList, price: number): ListedPriceRow {
  const party = row[PRICE_LIST_PARTY[list]];
  return {
    id: Number(row.id),
    unitId: Number(row.unit_of_measurement_id),
    party: party === null || party === undefined ? null : Number(party),
    effectiveDate: String(row.effective_date),
    price,
  };
}

/**
 * The price that holds on `date`: of the item's rows in the unit, for this party or for every
 * party, the one with the latest effective date on or before it (of two on one date, the newer).
 */
export function listedPrice(rows: readonly ListedPriceRow[], unitId: number, date: string, partyId: number | null): number | undefined {
  let best: ListedPriceRow | undefined;
  for (const row of rows) {
    if (row.unitId !== unitId || row.effectiveDate > date) continue;
    if (row.party !== null && row.party !== partyId) continue;
    if (!best || row.effectiveDate > best.effectiveDate || (row.effectiveDate === best.effectiveDate && row.id > best.id)) best = row;
  }
  return best?.price;
}

/** A conversion: `1 fromUnit = factor × toUnit`, for one item or (itemId null) every item. */
export interface ConversionRow {
  itemId: number | null;
  fromUnitId: number;
  toUnitId: number;
  /** The factor in millionths. */
  factor: number;
}

/** How many base units one `unitId` is for the item: 1 for its base unit; the item's own conversion before the general one. */
export function baseFactor(
  conversions: readonly ConversionRow[],
  item: { id: number; baseUnitId: number },
  unitId: number,
): number | undefined {
  if (unitId === item.baseUnitId) return 1;
  const matching = conversions.filter((row) => row.fromUnitId === unitId && row.toUnitId === item.baseUnitId);
  const chosen = matching.find((row) => row.itemId === item.id) ?? matching.find((row) => row.itemId === null);
  return chosen ? chosen.factor / 1_000_000 : undefined;
}

/** The units an item is counted in: its base unit, then every unit a conversion takes to it. */
export function unitsOfItem(conversions: readonly ConversionRow[], item: { id: number; baseUnitId: number }): number[] {
  const units = [item.baseUnitId];
  for (const row of conversions)
    if (row.toUnitId === item.baseUnitId && (row.itemId === item.id || row.itemId === null) && !units.includes(row.fromUnitId))
      units.push(row.fromUnitId);
  return units;
}

/** What pricing needs of an item. */
export interface PricingItem {
  name: string;
  vatCategory: VatCategory;
  /** It takes a senior citizen's or PWD's discount. */
  scPwdDiscount: boolean;
  /** The quantity breaks of the price list's side (purchase or sale discounts). */
  breaks: readonly DiscountEntry[];
}

export interface LineRequest {
  /** In thousandths of the line's unit. */
  quantity: number;
  /** Base units per unit of the line; undefined when no conversion says. */
  factor: number | undefined;
  /** The price typed, in centavos; null to take the listed one. */
  unitPrice: number | null;
  /** The listed price, in centavos, when one holds. */
  listed: number | undefined;
  /** The discount typed, in percent; null for the item's quantity break. */
  discountPercent: number | null;
}

export interface PricingContext {
  /** None for goods moved between places: counted, not priced. */
  list: PriceList | null;
  date: string;
  /** The business's unit prices include VAT. */
  pricesIncludeVat?: boolean;
  /** A sale by a business that is not VAT-registered: no VAT (`VatTerms`). */
  sellerNotVatRegistered?: boolean;
  /** The buyer is a senior citizen or a PWD with an ID (an invoice's): qualifying lines take 20 % off, VAT-exempt. */
  buyerDiscount?: boolean;
}

export interface PricedLine extends LineFigures {
  quantity: number;
  baseQuantity: number;
  unitPrice: number;
  discountHundredths: number;
}

/** A line refused, as the field it is about and what to do. */
export interface LineRefusal {
  field: 'unit_of_measurement_id' | 'quantity' | 'unit_price';
  message: string;
}

/** Prices one line, or says, in words, why the server would refuse it. */
export function priceLine(item: PricingItem, request: LineRequest, context: PricingContext): PricedLine | LineRefusal {
  const { factor, quantity } = request;
  if (factor === undefined)
    return { field: 'unit_of_measurement_id', message: `${item.name} has no conversion from this unit to its base unit.` };
  const baseQuantity = Math.round(quantity * factor);
  if (baseQuantity > MAX_LINE_THOUSANDTHS) {
    const most = fromThousandths(MAX_LINE_THOUSANDTHS).toLocaleString('en-US');
    return { field: 'quantity', message: `This line is more than ${most} of ${item.name}'s base unit, the most a line may move.` };
  }
  const { list } = context;
  const unitPrice = list === null ? 0 : (request.unitPrice ?? request.listed);
  if (unitPrice === undefined)
    return {
      field: 'unit_price',
      message: `No ${list} price is listed for ${item.name} in this unit on ${context.date}; enter the unit price.`,
    };
  const scPwd = list === 'sale' && Boolean(context.buyerDiscount) && item.scPwdDiscount;
  const percent = scPwd
    ? SC_PWD_PERCENT
    : list === null
      ? 0
      : (request.discountPercent ?? quantityDiscount(item.breaks, fromThousandths(baseQuantity)));
  const discountHundredths = Math.round(percent * 100);
  const figures = lineFigures(quantity, unitPrice, discountHundredths, item.vatCategory, {
    pricesIncludeVat: Boolean(context.pricesIncludeVat),
    scPwd,
    sellerNotVatRegistered: list === 'sale' && Boolean(context.sellerNotVatRegistered),
  });
  if (figures.gross + figures.vat > MAX_DOCUMENT_AMOUNT) {
    const most = formatPesos(centavosToPesos(MAX_DOCUMENT_AMOUNT));
    return { field: 'quantity', message: `This line comes to more than ${most}, the most a line may; split it over documents.` };
  }
  return { quantity, baseQuantity, unitPrice, discountHundredths, ...figures };
}

export const isRefusal = (priced: PricedLine | LineRefusal): priced is LineRefusal => 'message' in priced;

/** The document's refusal when its lines together come to more than a document may total; none when they do not. */
export function documentTotalRefusal(lines: readonly LineFigures[]): string | undefined {
  const totals = documentTotals(lines);
  if (totals.subtotal + totals.vat_total <= MAX_DOCUMENT_AMOUNT) return undefined;
  const most = formatPesos(centavosToPesos(MAX_DOCUMENT_AMOUNT));
  return `The lines come to more than ${most}, the most a document may total; split them over documents.`;
}
