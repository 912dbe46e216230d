import { lineFigures, type LineFigures, type VatCategory } from './documents';
import { pesosToCentavos } from './money';
import { toThousandths } from './quantity';
import { referenceKey } from './resource';

/**
 * What goods coming back from a sale come to: each returned line its share of the line it was sold
 * on, as that line was priced — its VAT, its discount, a senior citizen's or PWD's discount — so
 * that however a line comes back, in one return or several, its returns add up to it to the
 * centavo. The server figures a return so; the return's form shows the same before it is sent.
 */

/** A line as it was sold, as it is stored: quantity in thousandths, money in centavos, discount in hundredths of a percent. */
export interface SoldLine {
  quantity: number;
  unit_price: number;
  discount_percent: number;
  amount: number;
  vat: number;
  vat_category: VatCategory;
  sc_pwd: boolean | number;
}

/** A sold line as the API answers it: quantities in its unit, money in pesos, discounts in percent. */
export interface SoldLineAnswer extends Omit<SoldLine, 'sc_pwd'> {
  sc_pwd: boolean;
}

/** A sold line as the API answers it, as the server keeps it. */
export const soldLineOf = (line: SoldLineAnswer): SoldLine => ({
  quantity: toThousandths(line.quantity),
  unit_price: pesosToCentavos(line.unit_price),
  discount_percent: Math.round(line.discount_percent * 100),
  amount: pesosToCentavos(line.amount),
  vat: pesosToCentavos(line.vat),
  vat_category: line.vat_category,
  sc_pwd: line.sc_pwd,
});

/** `whole × part / of`, rounded half up, exact for any figures a document may hold. */
export function share(whole: number, part: number, of: number): number {
  if (of === 0) return 0;
  const scaled = BigInt(whole) * BigInt(part) * 2n + BigInt(of);
  return Number(scaled / (2n * BigInt(of)));
}

/**
 * The figures an invoice line was priced to, recovered from what it keeps: its amount and VAT are
 * those of one of the categories and VAT terms it could have been priced on (a senior citizen's or
 * PWD's line keeps "exempt" whether its item was VATable or exempt). A line no terms reproduce
 * keeps its own amount and VAT, its discount the rest of its gross.
 */
export function soldFigures(line: SoldLine, pricesIncludeVat: boolean): LineFigures {
  const scPwd = Boolean(line.sc_pwd);
  const category = line.vat_category;
  const categories: VatCategory[] = scPwd && category === 'exempt' ? ['vatable', 'exempt'] : [category];
  for (const candidate of categories) {
    for (const inclusive of [pricesIncludeVat, !pricesIncludeVat]) {
      const figures = lineFigures(line.quantity, line.unit_price, line.discount_percent, candidate, { pricesIncludeVat: inclusive, scPwd });
      if (figures.amount === line.amount && figures.vat === line.vat) return figures;
    }
  }
  const gross = Math.round((line.quantity * line.unit_price) / 1000);
  const paid = pricesIncludeVat ? line.amount + line.vat : line.amount;
  return { gross, lessVat: 0, discount: Math.max(0, gross - paid), amount: line.amount, vat: line.vat, category, scPwd };
}

/**
 * What `quantity` more of a sold line comes to once `before` of it was returned: the share of
 * every figure up to `before + quantity` less the share up to `before`, so that however a line is
 * returned, its returns add up to it exactly. What the customer paid (amount and VAT together) is
 * shared, and the VAT, the amount being the rest: 2 of 4 at ₱50 come back at ₱100.00, not a
 * centavo off by rounding the two apart.
 */
export function returnedFigures(sold: LineFigures, soldQuantity: number, before: number, quantity: number): LineFigures {
  const slice = (whole: number) => share(whole, before + quantity, soldQuantity) - share(whole, before, soldQuantity);
  const vat = slice(sold.vat);
  return {
    gross: slice(sold.gross),
    lessVat: slice(sold.lessVat),
    discount: slice(sold.discount),
    amount: slice(sold.amount + sold.vat) - vat,
    vat,
    category: sold.category,
    scPwd: sold.scPwd,
  };
}

/**
 * Where a return keeps the date of the document it comes back from (`invoice_id` → `invoice_date`),
 * as its printed memorandum names that document by number and date.
 */
export const sourceDateField = (sourceField: string): string => `${referenceKey(sourceField)}_date`;
