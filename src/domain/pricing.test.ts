import { describe, expect, it } from 'vitest';
import { documentTotals } from './documents';
import {
  baseFactor,
  documentTotalRefusal,
  isRefusal,
  listedPrice,
  priceLine,
  pricingOf,
  unitsOfItem,
  type ListedPriceRow,
} from './pricing';
import { invoices } from './resources/invoices';
import { purchaseOrders } from './resources/purchase-orders';
import { stockTransfers } from './resources/stock-transfers';

const row = (id: number, effectiveDate: string, price: number, party: number | null = null, unitId = 1): ListedPriceRow => ({
  id,
  unitId,
  party,
  effectiveDate,
  price,
});

describe('listedPrice', () => {
  const rows = [row(1, '2026-01-01', 1000), row(2, '2026-06-01', 1200), row(3, '2026-03-01', 1100, 7), row(4, '2026-06-01', 1250)];

  it('takes the latest price on or before the date, the newer row of one date', () => {
    expect(listedPrice(rows, 1, '2026-05-31', null)).toBe(1000);
    expect(listedPrice(rows, 1, '2026-06-01', null)).toBe(1250);
    expect(listedPrice(rows, 1, '2025-12-31', null)).toBeUndefined();
  });

  it("counts the party's own prices with the general ones, never another party's", () => {
    expect(listedPrice(rows, 1, '2026-04-01', 7)).toBe(1100);
    expect(listedPrice(rows, 1, '2026-04-01', 8)).toBe(1000);
    expect(listedPrice(rows, 1, '2026-07-01', 7)).toBe(1250);
  });

  it('prices only the unit asked for', () => {
    expect(listedPrice([row(1, '2026-01-01', 24000, null, 2)], 1, '2026-02-01', null)).toBeUndefined();
  });
});

describe('units and factors', () => {
  const conversions = [
    { itemId: 5, fromUnitId: 2, toUnitId: 1, factor: 12_000_000 },
    { itemId: null, fromUnitId: 2, toUnitId: 1, factor: 24_000_000 },
    { itemId: null, fromUnitId: 3, toUnitId: 1, factor: 100_000_000 },
    { itemId: 6, fromUnitId: 4, toUnitId: 1, factor: 6_000_000 },
  ];
  const item = { id: 5, baseUnitId: 1 };

  it("takes the item's own conversion before the general one", () => {
    expect(baseFactor(conversions, item, 1)).toBe(1);
    expect(baseFactor(conversions, item, 2)).toBe(12);
    expect(baseFactor(conversions, { id: 9, baseUnitId: 1 }, 2)).toBe(24);
    expect(baseFactor(conversions, item, 4)).toBeUndefined();
  });

  it('offers the base unit and the units that convert to it', () => {
    expect(unitsOfItem(conversions, item)).toEqual([1, 2, 3]);
    expect(unitsOfItem(conversions, { id: 6, baseUnitId: 1 })).toEqual([1, 2, 3, 4]);
  });
});

describe('priceLine', () => {
  const milo = {
    name: 'Milo 300g',
    vatCategory: 'vatable' as const,
    scPwdDiscount: false,
    breaks: [{ quantity: 24, discount_percent: 5 }],
  };
  const biogesic = {
    name: 'Biogesic 500mg',
    vatCategory: 'vatable' as const,
    scPwdDiscount: true,
    breaks: [{ quantity: 10, discount_percent: 5 }],
  };
  const sale = { list: 'sale' as const, date: '2026-11-24' };

  it('takes the listed price, the quantity break on the base quantity, and VAT', () => {
    const line = priceLine(milo, { quantity: 2000, factor: 12, unitPrice: null, listed: 150_00, discountPercent: null }, sale);
    expect(line).toEqual({
      quantity: 2000,
      baseQuantity: 24000,
      unitPrice: 15000,
      discountHundredths: 500,
      gross: 30000,
      lessVat: 0,
      discount: 1500,
      amount: 28500,
      vat: 3420,
      category: 'vatable',
      scPwd: false,
    });
  });

  it("prices with VAT in when the business's prices include it", () => {
    const line = priceLine(
      milo,
      { quantity: 1000, factor: 1, unitPrice: 11_200, listed: undefined, discountPercent: 0 },
      {
        ...sale,
        pricesIncludeVat: true,
      },
    );
    expect(isRefusal(line) ? line : [line.amount, line.vat]).toEqual([10_000, 1200]);
  });

  it("gives a senior citizen's or PWD's 20 % only on what qualifies, only on a sale, instead of the quantity break", () => {
    const request = { quantity: 10_000, factor: 1, unitPrice: null, listed: 560, discountPercent: null };
    const senior = { ...sale, pricesIncludeVat: true, buyerDiscount: true };
    const line = priceLine(biogesic, request, senior);
    // 10 × ₱5.60 = ₱56 with VAT: ₱50 without, 20 % off → ₱40, VAT-exempt.
    expect(isRefusal(line) ? line : [line.discountHundredths, line.lessVat, line.amount, line.vat, line.category]).toEqual([
      2000,
      600,
      4000,
      0,
      'exempt',
    ]);
    const milk = priceLine(milo, request, senior);
    expect(isRefusal(milk) ? milk : [milk.scPwd, milk.vat]).toEqual([false, 600]);
    const bought = priceLine(biogesic, request, { list: 'purchase', date: sale.date, pricesIncludeVat: true, buyerDiscount: true });
    expect(isRefusal(bought) ? bought : [bought.scPwd, bought.discountHundredths]).toEqual([false, 500]);
  });

  it('keeps a typed price and discount over the list', () => {
    const line = priceLine(milo, { quantity: 1000, factor: 1, unitPrice: 9999, listed: 150_00, discountPercent: 0 }, sale);
    expect(isRefusal(line) ? line : line.amount).toBe(9999);
  });

  it('says in words why the server would refuse a line', () => {
    expect(priceLine(milo, { quantity: 1000, factor: undefined, unitPrice: null, listed: 100, discountPercent: null }, sale)).toEqual({
      field: 'unit_of_measurement_id',
      message: 'Milo 300g has no conversion from this unit to its base unit.',
    });
    expect(priceLine(milo, { quantity: 1000, factor: 1, unitPrice: null, listed: undefined, discountPercent: null }, sale)).toEqual({
      field: 'unit_price',
      message: 'No sale price is listed for Milo 300g in this unit on 2026-11-24; enter the unit price.',
    });
  });

  it('counts goods moved between places without pricing them', () => {
    const line = priceLine(
      milo,
      { quantity: 5000, factor: 1, unitPrice: null, listed: undefined, discountPercent: null },
      { list: null, date: '2026-11-24' },
    );
    expect(isRefusal(line) ? line : [line.amount, line.vat, line.baseQuantity]).toEqual([0, 0, 5000]);
  });

  it('refuses a document whose lines come to more than a document may', () => {
    const big = {
      gross: 600_000_000_000,
      lessVat: 0,
      discount: 0,
      amount: 600_000_000_000,
      vat: 0,
      category: 'exempt' as const,
      scPwd: false,
    };
    expect(documentTotalRefusal([big])).toBeUndefined();
    expect(documentTotalRefusal([big, big])).toMatch(/the most a document may total/);
    expect(documentTotals([big]).total).toBe(600_000_000_000);
  });
});

describe('pricingOf', () => {
  it('prices purchases from the supplier, sales from the branch, and transfers not at all', () => {
    expect(pricingOf(purchaseOrders.document)).toEqual({ list: 'purchase', party: 'contact_id' });
    expect(pricingOf(invoices.document)).toEqual({ list: 'sale', party: 'branch_id' });
    expect(pricingOf(stockTransfers.document)).toBeNull();
  });
});
