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

describe('line figures', () => {
  it('discounts, then adds 12 % VAT on vatable lines, in whole centavos', () => {
    // 2.5 × ₱19.99 = ₱49.975 → 4,998 centavos; 7.5 % off → 375; VAT 12 % of 4,623 → 555.
    expect(lineFigures(2500, 1999, 750, true)).toEqual({ gross: 4998, discount: 375, amount: 4623, vat: 555 });
    expect(lineFigures(2500, 1999, 750, false).vat).toBe(0);
  });

  it('totals the lines', () => {
    const lines = [lineFigures(10_000, 10_000, 0, true), lineFigures(5000, 2000, 1000, false)];
    expect(documentTotals(lines)).toEqual({ subtotal: 110_000, discount_total: 1000, vat_total: 12_000, total: 121_000 });
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
});
