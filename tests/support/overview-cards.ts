import { expect } from 'vitest';
import { todayInManila } from '../../src/domain/documents';
import type { DatabaseKind } from '../../src/server/db/dialect';
import { addDays } from '../../src/server/overview/calendar';
import { startedOnce } from './started';
import { created, startEmpty } from './test-app';

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

/**
 * The start of the suites that check the overview against figures worked out by hand: an empty
 * business (`startEmpty`, in `world` once started, closed after); `T`, today in Manila, and
 * `day(offset)`, the date `offset` days from it; `post`, which makes a record as the admin and
 * returns it; and `ids`, where the suite keeps the ids of what it made, by name.
 */
export function startBooks(kind: DatabaseKind) {
  const T = todayInManila();
  const world = startedOnce(() => startEmpty(kind), false);
  return {
    T,
    day: (offset: number) => addDays(T, offset),
    world,
    post: (path: string, body: Record<string, unknown>) => created(world.admin, path, body),
    ids: {} as Record<string, number>,
  };
}
