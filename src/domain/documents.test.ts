import { describe, expect, it } from 'vitest';
import { documentNumber, documentTotals, lineFigures, quantityDiscount, referenceNumber, todayInManila } from './documents';

describe('document numbers', () => {
  it('writes {prefix}-{yyyyMMdd}-{B|W}{location padded to 5}-{total+1 padded to 8}', () => {
    expect(documentNumber('PO', '2026-11-03', { type: 'warehouse', id: 1 }, 12)).toBe('PO-20261103-W00001-00000012');
    expect(documentNumber('IP', '2026-01-31', { type: 'branch', id: 42 }, 1)).toBe('IP-20260131-B00042-00000001');
  });

  it('writes RN-{contact}{contact+1 padded to 8}-{yyyyMMdd}-{total+1 padded to 4}', () => {
    expect(referenceNumber(5, '2026-11-03', 1)).toBe('RN-500000006-20261103-0001');
    expect(referenceNumber(123, '2026-11-03', 25)).toBe('RN-12300000124-20261103-0025');
  });
});

const exclusive = { pricesIncludeVat: false };
const inclusive = { pricesIncludeVat: true };

describe('line figures', () => {
  it('on VAT-exclusive prices: discounts, then adds 12 % VAT on VATable lines, in whole centavos', () => {
    // 2.5 × ₱19.99 = ₱49.975 → 4,998 centavos; 7.5 % off → 375 (374.85 rounded); VAT 12 % of 4,623 → 555 (554.76).
    expect(lineFigures(2500, 1999, 750, 'vatable', exclusive)).toEqual({
      gross: 4998,
      lessVat: 0,
      discount: 375,
      amount: 4623,
      vat: 555,
      category: 'vatable',
      scPwd: false,
    });
    expect(lineFigures(2500, 1999, 750, 'exempt', exclusive)).toMatchObject({ amount: 4623, vat: 0, category: 'exempt' });
    expect(lineFigures(2500, 1999, 750, 'zero_rated', exclusive)).toMatchObject({ amount: 4623, vat: 0, category: 'zero_rated' });
  });

  it('on VAT-inclusive prices: takes the VAT out of what the buyer pays, the amount rounded and the VAT the rest', () => {
    // 3 × ₱55 = ₱165 with VAT in it: 16,500 × 100/112 = 14,732.14 → 14,732 net; VAT 1,768.
    expect(lineFigures(3000, 5500, 0, 'vatable', inclusive)).toMatchObject({ gross: 16_500, amount: 14_732, vat: 1768 });
    // ₱100 less 5 %: ₱95 paid; 9,500 × 100/112 = 8,482.14 → 8,482, VAT 1,018.
    expect(lineFigures(1000, 10_000, 500, 'vatable', inclusive)).toMatchObject({ discount: 500, amount: 8482, vat: 1018 });
    // An exempt or zero-rated item's price has no VAT in it.
    expect(lineFigures(1000, 10_000, 0, 'exempt', inclusive)).toMatchObject({ amount: 10_000, vat: 0 });
  });

  it('gives a senior citizen or PWD 20 % off the price without VAT, and charges no VAT', () => {
    // ₱112 with VAT in it: less VAT 1,200 → 10,000; 20 % off → 8,000, VAT-exempt.
    expect(lineFigures(1000, 11_200, 0, 'vatable', { ...inclusive, scPwd: true })).toEqual({
      gross: 11_200,
      lessVat: 1200,
      discount: 2000,
      amount: 8000,
      vat: 0,
      category: 'exempt',
      scPwd: true,
    });
    // On VAT-exclusive prices there is no VAT in the price to take out; the typed 5 % gives way to the 20 %.
    expect(lineFigures(1000, 10_000, 500, 'vatable', { ...exclusive, scPwd: true })).toMatchObject({
      lessVat: 0,
      discount: 2000,
      amount: 8000,
      vat: 0,
      category: 'exempt',
    });
    // A zero-rated item stays zero-rated.
    expect(lineFigures(1000, 10_000, 0, 'zero_rated', { ...inclusive, scPwd: true })).toMatchObject({
      amount: 8000,
      category: 'zero_rated',
    });
  });

  it('charges no VAT when the seller is not VAT-registered: every line a VAT-exempt sale of its price', () => {
    const notRegistered = { pricesIncludeVat: true, sellerNotVatRegistered: true };
    expect(lineFigures(3000, 5500, 0, 'vatable', notRegistered)).toMatchObject({ amount: 16_500, vat: 0, category: 'exempt' });
    expect(lineFigures(1000, 10_000, 0, 'vatable', { ...notRegistered, scPwd: true })).toMatchObject({ lessVat: 0, amount: 8000, vat: 0 });
  });

  it('totals mixed lines: sales by how they are taxed, the VAT, and what is owed', () => {
    const lines = [
      lineFigures(10_000, 10_000, 0, 'vatable', exclusive),
      lineFigures(5000, 2000, 1000, 'exempt', exclusive),
      lineFigures(1000, 3000, 0, 'zero_rated', exclusive),
    ];
    expect(documentTotals(lines)).toEqual({
      subtotal: 113_000,
      discount_total: 1000,
      sc_pwd_discount: 0,
      less_vat: 0,
      vatable_sales: 100_000,
      exempt_sales: 9000,
      zero_rated_sales: 3000,
      vat_total: 12_000,
      total: 124_000,
    });
  });

  it('adds up on VAT-inclusive prices: what the buyer pays is the total, a senior citizen line beside a plain one', () => {
    const lines = [
      lineFigures(3000, 5500, 0, 'vatable', inclusive),
      lineFigures(1000, 11_200, 0, 'vatable', { ...inclusive, scPwd: true }),
    ];
    const totals = documentTotals(lines);
    expect(totals).toMatchObject({ subtotal: 27_700, less_vat: 1200, sc_pwd_discount: 2000, vatable_sales: 14_732, exempt_sales: 8000 });
    expect(totals.total).toBe(16_500 + 8000);
    expect(totals.total).toBe(totals.subtotal - totals.less_vat - totals.discount_total);
    expect(totals.total).toBe(totals.vatable_sales + totals.exempt_sales + totals.zero_rated_sales + totals.vat_total);
  });

  it('rounds each line, so the document is its lines added up (a centavo a line at most from rounding the total)', () => {
    // 7 lines of 1 × ₱0.05 with VAT in it: each 5 × 100/112 = 4.46 → 4 net, 1 VAT.
    const lines = Array.from({ length: 7 }, () => lineFigures(1000, 5, 0, 'vatable', inclusive));
    expect(documentTotals(lines)).toMatchObject({ vatable_sales: 28, vat_total: 7, total: 35 });
  });

  it('takes the largest quantity break reached', () => {
    const breaks = [
      { quantity: 50, discount_percent: 8 },
      { quantity: 10, discount_percent: 5 },
    ];
    expect(quantityDiscount(breaks, 9)).toBe(0);
    expect(quantityDiscount(breaks, 10)).toBe(5);
    expect(quantityDiscount(breaks, 75)).toBe(8);
  });
});

describe('a business day', () => {
  it('is Manila’s: 23:30 UTC is already the next day there', () => {
    expect(todayInManila(new Date('2026-11-22T23:30:00Z'))).toBe('2026-11-23');
    expect(todayInManila(new Date('2026-11-22T10:00:00Z'))).toBe('2026-11-22');
  });

  it('turns at Manila’s midnight, 16:00 UTC, every day of the year, as the zone database says', () => {
    const zone = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila', year: 'numeric', month: '2-digit', day: '2-digit' });
    for (let day = 0; day < 366; day += 1) {
      for (const minutes of [15 * 60 + 59, 16 * 60, 16 * 60 + 1]) {
        const at = new Date(Date.UTC(2026, 0, 1 + day) + minutes * 60_000);
        expect(todayInManila(at)).toBe(zone.format(at));
      }
    }
  });
});
