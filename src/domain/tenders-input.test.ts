import { describe, expect, it } from 'vitest';
import { paymentTenders } from './tenders-input';

/** A tender's amount is money like any other: a third decimal rounds half away from zero, as written. */
describe('tender amounts', () => {
  const cash = (amount: unknown) => ({ method: 'cash', amount });

  it('round a third decimal the same way whatever the amount', () => {
    const parsed = paymentTenders({ tenders: [cash(0.005), cash(1.005), cash('2.675'), cash(10.004)] });
    expect(parsed.tenders?.map((tender) => tender.amount)).toEqual([1, 101, 268, 1000]);
  });

  it('take the payment’s amount as the tenders come to, rounded the same way', () => {
    expect(paymentTenders({ tenders: [cash(1.005)], amount: 1.01 }).tenders?.[0].amount).toBe(101);
    expect(paymentTenders({ tenders: [cash(1.005)], amount: '1.005' }).errors).toBeUndefined();
    expect(paymentTenders({ amount: 1.005, payment_method: 'cash' }).tenders?.[0].amount).toBe(101);
    expect(paymentTenders({ tenders: [cash(0.004)] }).errors).toEqual({ 'tenders.0.amount': ['The amount must be greater than 0.'] });
  });
});

/** Cash may say what the customer handed over: at least its amount; no other method takes it. */
describe('cash received', () => {
  it('is kept in centavos with a cash tender, and is none when not told', () => {
    const parsed = paymentTenders({
      tenders: [
        { method: 'cash', amount: 87.5, received: '100' },
        { method: 'cash', amount: 1, received: '' },
      ],
    });
    expect(parsed.tenders?.map((tender) => tender.received)).toEqual([10_000, null]);
    expect(paymentTenders({ tenders: [{ method: 'cash', amount: 87.5, received: 87.5 }] }).tenders?.[0].received).toBe(8_750);
    expect(paymentTenders({ amount: 5, payment_method: 'cash' }).tenders?.[0].received).toBeNull();
  });

  it('is refused below the amount, on another method, or when not a number', () => {
    const parsed = paymentTenders({
      tenders: [
        { method: 'cash', amount: 1250, received: 1000 },
        { method: 'gcash', amount: 1, reference: '9012345678901', received: 1 },
        { method: 'check', amount: 1, bank: 'BDO', check_number: '1', check_date: '2026-11-30', received: 1 },
        { method: 'cash', amount: 1, received: 'a lot' },
      ],
    });
    expect(parsed.errors).toEqual({
      'tenders.0.received': ['The cash received must be at least the amount, ₱1,250.00.'],
      'tenders.1.received': ['GCash takes no cash received.'],
      'tenders.2.received': ['A check takes no cash received.'],
      'tenders.3.received': ['The cash received field must be a number.'],
    });
  });
});
