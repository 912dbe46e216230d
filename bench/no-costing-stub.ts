import type * as real from '../src/server/documents/cost-follow-up';

/**
 * src/server/documents/cost-follow-up.ts without costing (no-costing.ts sends the app here): every
 * export of the real module, but the ledger writes its movements as costed already (`WAITING`)
 * and owes no follow-up (`oweCosts`), so nothing is ever costed — a module's own export shadows
 * one it re-exports with `export *`.
 */
export * from '../src/server/documents/cost-follow-up';

process.stderr.write('no-costing: the ledger moves goods without costing them\n');

export const WAITING: typeof real.WAITING = 1 as 0;

export const oweCosts: typeof real.oweCosts = () => {};
