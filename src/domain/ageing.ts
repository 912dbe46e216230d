/**
 * What customers owe and what is owed suppliers, aged: each unpaid invoice or bill falls in one
 * bucket by the days it is past due on a day — from its due date, or its own date when it has
 * none. Not yet due, or due that day, is current. The server sums balances by these buckets
 * (server/overview/ageing.ts) and the client labels them (features/ageing).
 */

export interface AgeingBucket {
  key: 'current' | '1-30' | '31-60' | '61-90' | 'over-90';
  label: string;
  /** The fewest and most days past due it holds; null: no bound. */
  fromDays: number | null;
  toDays: number | null;
}

export const AGEING_BUCKETS = [
  { key: 'current', label: 'Current', fromDays: null, toDays: 0 },
  { key: '1-30', label: '1–30 days', fromDays: 1, toDays: 30 },
  { key: '31-60', label: '31–60 days', fromDays: 31, toDays: 60 },
  { key: '61-90', label: '61–90 days', fromDays: 61, toDays: 90 },
  { key: 'over-90', label: 'Over 90 days', fromDays: 91, toDays: null },
] as const satisfies readonly AgeingBucket[];

export type AgeingBucketKey = (typeof AGEING_BUCKETS)[number]['key'];

/** The bucket of a document `daysPastDue` days past due (0 or fewer: current). */
export function ageingBucketOf(daysPastDue: number): AgeingBucketKey {
  return AGEING_BUCKETS.find((bucket) => bucket.toDays === null || daysPastDue <= bucket.toDays)!.key;
}

/** The two sides aged: what customers owe on invoices, what is owed suppliers on bills. */
export const AGEING_SIDES = {
  receivables: { resource: 'invoices', party: 'Customer', title: 'Receivables', owed: 'What customers owe on unpaid invoices' },
  payables: { resource: 'bills', party: 'Supplier', title: 'Payables', owed: 'What is owed suppliers on unpaid bills' },
} as const;

export type AgeingSide = keyof typeof AGEING_SIDES;
