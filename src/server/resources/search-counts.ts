import type { Db } from '../db/scope';

/**
 * How many records a searched list matched, kept while the database has not changed
 * (`changeMark`, db/dialect.ts): counting the matches of a common term up to 10,000 is most of
 * its search (on PostgreSQL ~35 ms of its CPU, where the page took 1), and a user turning the
 * pages of a search, or a screen asking again, asks the same count. Any write anywhere to the
 * database changes the mark, so a kept count is never one the database would not give now.
 */
export interface KeptCount {
  /** The database's mark when counted. */
  mark: string;
  /** How far it was counted: `matched` beyond it says "more than". */
  countTo: number;
  matched: number;
}

const KEPT_MOST = 5_000;
const kept = new WeakMap<Db, Map<string, KeptCount>>();

/** The count kept for `key` under this mark, when it was counted at least as far as `countTo` (or to its end). */
export function keptCount(db: Db, key: string, mark: string, countTo: number): KeptCount | undefined {
  const known = kept.get(db)?.get(key);
  if (!known || known.mark !== mark) return undefined;
  return known.matched <= known.countTo || known.countTo >= countTo ? known : undefined;
}

export function keepCount(db: Db, key: string, count: KeptCount): void {
  let counts = kept.get(db);
  if (!counts) kept.set(db, (counts = new Map()));
  if (counts.size >= KEPT_MOST) counts.clear();
  counts.set(key, count);
}
