import { amountAsPriced, SC_PWD_PERCENT, VAT_PERCENT, type DocumentTotals, type VatCategory } from '../../../domain/documents';
import { centavosToPesos, pesosToCentavos } from '../../../domain/money';
import type { ResourceDefinition } from '../../../domain/resource';

/**
 * What a priced document's figures say, as its screen and its printed copy show them: the totals
 * as a Philippine invoice lays them out, each line's amount as the buyer reads it, and its VAT
 * category as a tag. A figure the server does not send (yet) is left out, never shown as zero.
 */

/** A figure as the server sends it: a finite number of pesos, or undefined when it is missing. */
export const figure = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export interface TotalsRow {
  /** The field it shows (`vat_total`), or the figure it is worked out as (`other_discounts`). */
  key: string;
  label: string;
  value: number;
  /** It starts a group (the sales by how they are taxed; the amount due): a rule above it. */
  opensGroup?: boolean;
  /** The amount due. */
  total?: boolean;
}

/**
 * The totals block, in the order an invoice in the Philippines reads: what the lines come to as
 * priced ("Total sales (VAT inclusive)" when prices include VAT), the discounts and VAT taken off
 * (a senior citizen's or PWD's only when there is one), the sales by how they are taxed, the VAT,
 * and the total amount due. Only what the record has is shown.
 */
export function totalsRows(record: Record<string, unknown>, totalLabel = AMOUNT_DUE): TotalsRow[] {
  const rows: TotalsRow[] = [];
  const add = (key: string, label: string, value: number | undefined, extra: Partial<TotalsRow> = {}) => {
    if (value !== undefined) rows.push({ key, label, value, ...extra });
  };
  const scPwd = figure(record.sc_pwd_discount);
  const lessVat = figure(record.less_vat);
  const discounts = figure(record.discount_total);
  add('subtotal', record.prices_include_vat === true ? 'Total sales (VAT inclusive)' : 'Subtotal', figure(record.subtotal));
  // The senior citizen's or PWD's discount is among the discounts; it is shown on its own line.
  add('discount_total', 'Less: discount', discounts === undefined ? undefined : minus(discounts, scPwd ?? 0));
  if (lessVat) add('less_vat', 'Less: VAT', lessVat);
  if (scPwd) add('sc_pwd_discount', `Less: SC/PWD discount (${SC_PWD_PERCENT}%)`, scPwd);
  const sales = [
    ['vatable_sales', 'VATable sales'],
    ['exempt_sales', 'VAT-exempt sales'],
    ['zero_rated_sales', 'Zero-rated sales'],
  ] as const;
  for (const [key, label] of sales) add(key, label, figure(record[key]));
  add('vat_total', `VAT (${VAT_PERCENT}%)`, figure(record.vat_total));
  // The sales and the VAT are one group, under a rule: the first of them that is there opens it.
  const firstOfGroup = rows.find((row) => sales.some(([key]) => key === row.key) || row.key === 'vat_total');
  if (firstOfGroup && rows.indexOf(firstOfGroup) > 0) firstOfGroup.opensGroup = true;
  add('total', totalLabel, figure(record.total), { opensGroup: rows.length > 0, total: true });
  return rows;
}

/** Totals worked out here (the line editor's, a queued document's), in centavos, as the server answers them: in pesos. */
export function totalsInPesos(totals: DocumentTotals, pricesIncludeVat: boolean): Record<string, unknown> {
  return {
    ...Object.fromEntries(Object.entries(totals).map(([name, centavos]) => [name, centavosToPesos(centavos)])),
    prices_include_vat: pricesIncludeVat,
  };
}

/** `a − b` in pesos, to the centavo (no float drift: 0.3 − 0.1 is 0.2). */
const minus = (a: number, b: number) => centavosToPesos(pesosToCentavos(a) - pesosToCentavos(b));

/** What a document line needs here, as the API answers it; the VAT fields are missing from an older server. */
export interface FiguredLine {
  amount: number;
  vat?: number | null;
  vat_category?: VatCategory | null;
  sc_pwd?: boolean | null;
}

/**
 * A line's amount as the buyer reads it beside its unit price: the server keeps it net of VAT,
 * so when the prices include VAT its VAT is added back (₱112 for one at ₱112, not ₱100). NaN stays
 * NaN: a line still to be priced.
 */
export function lineAmount(line: FiguredLine, pricesIncludeVat: unknown): number {
  if (pricesIncludeVat !== true) return line.amount;
  return centavosToPesos(amountAsPriced({ amount: pesosToCentavos(line.amount), vat: pesosToCentavos(line.vat ?? 0) }, true));
}

export const VAT_TAGS: Record<VatCategory, { tag: string; label: string }> = {
  vatable: { tag: 'V', label: 'VATable' },
  exempt: { tag: 'E', label: 'VAT-exempt' },
  zero_rated: { tag: 'Z', label: 'Zero-rated' },
};

/** The tag of a line's VAT category (V, E, Z), or null when the server does not say it. */
export const vatTag = (line: FiguredLine) => (line.vat_category ? (VAT_TAGS[line.vat_category] ?? null) : null);

/** The line under the lines that explains their tags; null when no line has one. */
export function vatLegend(lines: readonly FiguredLine[]): string | null {
  if (!lines.some((line) => line.vat_category)) return null;
  const tags = Object.values(VAT_TAGS).map(({ tag, label }) => `${tag}: ${label}`);
  if (lines.some((line) => line.sc_pwd)) tags.push(`SC/PWD: senior citizen / PWD ${SC_PWD_PERCENT}% discount`);
  return tags.join(' · ');
}

const AMOUNT_DUE = 'Total amount due';

/** What a document's total is, in its totals block: a credit memorandum's is credited to the buyer, not due from them. */
export function totalLabelOf(definition: ResourceDefinition): string {
  return definition.document?.returns?.totalLabel ?? AMOUNT_DUE;
}

/**
 * The title a document prints under: an invoice is a "SALES INVOICE", as the BIR names it; a
 * return the memorandum its kind names (a sales return's CREDIT MEMORANDUM naming the invoice, a
 * purchase return's DEBIT MEMORANDUM naming the bill); any other kind its own name
 * ("PURCHASE ORDER", "INVOICE PAYMENT"), claiming nothing more.
 */
export function printedTitle(definition: ResourceDefinition): string {
  const memorandum = definition.document?.returns?.memorandum;
  if (memorandum) return memorandum;
  return definition.document?.type === 'invoice' ? 'SALES INVOICE' : definition.singular.toUpperCase();
}

/** The senior citizen or PWD an invoice was discounted for, as its copy names them for their signature. */
export function buyerDiscountOf(record: Record<string, unknown>): { kind: string; name: string; idNumber: string } | null {
  const kind = record.buyer_discount === 'senior' ? 'Senior citizen' : record.buyer_discount === 'pwd' ? 'PWD' : null;
  if (!kind) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return { kind, name: text(record.buyer_discount_name), idNumber: text(record.buyer_discount_id_number) };
}
