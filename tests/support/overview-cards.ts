import { expect } from 'vitest';

type Bucket = '0-30' | '31-60' | '61-90' | '90+';

/** The aging buckets of the receivables or payables card, in the card's order, from each bucket's `[amount, count]`. */
export function aging(buckets: Record<Bucket, [amount: number, count: number]>) {
  return (['0-30', '31-60', '61-90', '90+'] as const).map((bucket) => ({ bucket, amount: buckets[bucket][0], count: buckets[bucket][1] }));
}

/** A row of the card's oldest open balances, owed by (or to) `contact`: its number is whatever the document was given. */
export function openBalance(
  contact: string,
  row: { id: number; date: string; due_date: string | null; balance: number; days_overdue: number },
) {
  return { ...row, number: expect.any(String), contact };
}
