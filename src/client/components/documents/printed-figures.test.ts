import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { buyerDiscountOf, lineAmount, printedTitle, totalLabelOf, totalsRows, vatLegend, vatTag } from './printed-figures';

const shown = (record: Record<string, unknown>) => totalsRows(record).map((row) => [row.label, row.value]);

describe('totalsRows', () => {
  it('lays out a VAT-inclusive sale to a senior citizen as a Philippine invoice does', () => {
    // One VATable line at ₱112 to a senior (₱100 net of VAT, 20 % off: ₱80, exempt), and ₱56 of
    // VATable goods with a ₱5.60 discount.
    const rows = totalsRows({
      prices_include_vat: true,
      subtotal: 168,
      discount_total: 25.6,
      sc_pwd_discount: 20,
      less_vat: 12,
      vatable_sales: 45,
      exempt_sales: 80,
      zero_rated_sales: 0,
      vat_total: 5.4,
      total: 130.4,
    });
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['Total sales (VAT inclusive)', 168],
      ['Less: discount', 5.6],
      ['Less: VAT', 12],
      ['Less: SC/PWD discount (20%)', 20],
      ['VATable sales', 45],
      ['VAT-exempt sales', 80],
      ['Zero-rated sales', 0],
      ['VAT (12%)', 5.4],
      ['Total amount due', 130.4],
    ]);
    expect(rows.filter((row) => row.opensGroup).map((row) => row.key)).toEqual(['vatable_sales', 'total']);
    expect(rows.filter((row) => row.total).map((row) => row.key)).toEqual(['total']);
  });

  it('leaves out the VAT and the SC/PWD discount taken off when there are none, and says Subtotal for VAT-exclusive prices', () => {
    expect(
      shown({
        prices_include_vat: false,
        subtotal: 504,
        discount_total: 25.2,
        sc_pwd_discount: 0,
        less_vat: 0,
        vatable_sales: 478.8,
        exempt_sales: 0,
        zero_rated_sales: 0,
        vat_total: 57.46,
        total: 536.26,
      }),
    ).toEqual([
      ['Subtotal', 504],
      ['Less: discount', 25.2],
      ['VATable sales', 478.8],
      ['VAT-exempt sales', 0],
      ['Zero-rated sales', 0],
      ['VAT (12%)', 57.46],
      ['Total amount due', 536.26],
    ]);
  });

  it('shows only what an older answer has, and nothing for a document without totals', () => {
    expect(shown({ subtotal: 960, discount_total: 0, vat_total: 115.2, total: 1075.2 })).toEqual([
      ['Subtotal', 960],
      ['Less: discount', 0],
      ['VAT (12%)', 115.2],
      ['Total amount due', 1075.2],
    ]);
    expect(totalsRows({ subtotal: 960, discount_total: 0, vat_total: 115.2, total: 1075.2 }).find((row) => row.opensGroup)?.key).toBe(
      'vat_total',
    );
    expect(totalsRows({})).toEqual([]);
    expect(shown({ total: Number.NaN, subtotal: null, vat_total: '12' })).toEqual([]);
  });
});

describe('lines', () => {
  it('adds the VAT back to a line when prices include it, to the centavo', () => {
    expect(lineAmount({ amount: 100, vat: 12 }, true)).toBe(112);
    expect(lineAmount({ amount: 0.1, vat: 0.2 }, true)).toBe(0.3);
    expect(lineAmount({ amount: 100, vat: 12 }, false)).toBe(100);
    expect(lineAmount({ amount: 100, vat: 12 }, undefined)).toBe(100);
    expect(lineAmount({ amount: 80, vat: 0, sc_pwd: true }, true)).toBe(80);
    expect(lineAmount({ amount: Number.NaN, vat: 0 }, true)).toBeNaN();
  });

  it('tags each line by how it is taxed, and explains the tags once', () => {
    expect(vatTag({ amount: 1, vat_category: 'vatable' })?.tag).toBe('V');
    expect(vatTag({ amount: 1, vat_category: 'exempt' })?.tag).toBe('E');
    expect(vatTag({ amount: 1, vat_category: 'zero_rated' })?.tag).toBe('Z');
    expect(vatTag({ amount: 1 })).toBeNull();
    expect(vatLegend([{ amount: 1 }])).toBeNull();
    expect(vatLegend([{ amount: 1, vat_category: 'vatable' }])).toBe('V: VATable · E: VAT-exempt · Z: Zero-rated');
    expect(vatLegend([{ amount: 1, vat_category: 'exempt', sc_pwd: true }])).toBe(
      'V: VATable · E: VAT-exempt · Z: Zero-rated · SC/PWD: senior citizen / PWD 20% discount',
    );
  });
});

describe('the printed copy', () => {
  it('titles an invoice SALES INVOICE, a return by its memorandum, and any other document by its own name', () => {
    expect(printedTitle(getResource('invoices'))).toBe('SALES INVOICE');
    expect(printedTitle(getResource('purchase-orders'))).toBe('PURCHASE ORDER');
    expect(printedTitle(getResource('bills'))).toBe('BILL');
    expect(printedTitle(getResource('quotations'))).toBe('QUOTATION');
    expect(printedTitle(getResource('invoice-payments'))).toBe('INVOICE PAYMENT');
    expect(printedTitle(getResource('sales-returns'))).toBe('CREDIT MEMORANDUM');
    expect(printedTitle(getResource('purchase-returns'))).toBe('DEBIT MEMORANDUM');
  });

  it('calls a credit memorandum’s total what is credited, a debit memorandum’s what is debited, and an invoice’s what is due', () => {
    const credited = totalsRows({ subtotal: 44.8, total: 44.8 }, totalLabelOf(getResource('sales-returns')));
    expect(credited.at(-1)).toMatchObject({ label: 'Total amount credited', value: 44.8, total: true });
    expect(totalsRows({ total: 44.8 }, totalLabelOf(getResource('invoices'))).at(-1)?.label).toBe('Total amount due');
    expect(totalLabelOf(getResource('purchase-returns'))).toBe('Total amount debited');
  });

  it('names the senior citizen or PWD an invoice was discounted for', () => {
    expect(
      buyerDiscountOf({ buyer_discount: 'senior', buyer_discount_name: ' Lola Basyang ', buyer_discount_id_number: 'OSCA-123' }),
    ).toEqual({ kind: 'Senior citizen', name: 'Lola Basyang', idNumber: 'OSCA-123' });
    expect(buyerDiscountOf({ buyer_discount: 'pwd', buyer_discount_name: null })).toEqual({ kind: 'PWD', name: '', idNumber: '' });
    expect(buyerDiscountOf({ buyer_discount: null })).toBeNull();
    expect(buyerDiscountOf({})).toBeNull();
  });
});
