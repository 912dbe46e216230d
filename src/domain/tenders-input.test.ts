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
