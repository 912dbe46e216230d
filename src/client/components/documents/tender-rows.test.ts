import { describe, expect, it } from 'vitest';
import { emptyTender, paymentFieldsOf, tenderRowsOf, tendersBody, typedAmount } from './tender-rows';

describe("a payment's tenders in its form", () => {
  it('reads amounts as people type them', () => {
    expect([typedAmount('₱1,250.50'), typedAmount(' 300 '), typedAmount(''), typedAmount('abc')]).toEqual([1250.5, 300, null, null]);
  });

  it('sends each tender with what its method needs, and nothing typed for another method', () => {
    const rows = [
      { ...emptyTender('1,000'), reference: 'typed before cash was picked' },
      { ...emptyTender('250.5'), method: 'gcash', reference: ' 9012345678901 ' },
      { ...emptyTender('x'), method: 'check', bank: 'BPI', check_number: '0001', check_date: '2026-11-30' },
    ];
    expect(tendersBody(rows)).toEqual([
      { method: 'cash', amount: 1000 },
      { method: 'gcash', amount: 250.5, reference: '9012345678901' },
      { method: 'check', amount: 'x', bank: 'BPI', check_number: '0001', check_date: '2026-11-30' },
    ]);
  });

  it('sends the amount and method they make: the sum to the centavo, and split for more than one', () => {
    expect(paymentFieldsOf([emptyTender('0.1'), { ...emptyTender('0.2'), method: 'maya' }])).toEqual({
      amount: 0.3,
      payment_method: 'split',
    });
    expect(paymentFieldsOf([{ ...emptyTender('99.99'), method: 'card' }])).toEqual({ amount: 99.99, payment_method: 'card' });
  });

  it('reads tenders back as rows, to edit a refused payment before it is sent again', () => {
    expect(
      tenderRowsOf([{ method: 'check', amount: 5, bank: 'BDO', check_number: '7', check_date: '2026-11-01', reference: null }]),
    ).toEqual([{ method: 'check', amount: '5', reference: '', bank: 'BDO', check_number: '7', check_date: '2026-11-01' }]);
  });
});
