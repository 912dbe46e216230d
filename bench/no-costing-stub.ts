import type * as real from '../src/server/documents/costing';

/**
 * src/server/documents/costing.ts without its costing (no-costing.ts sends the app here): every
 * export of the real module, but `lockCosts` locks nothing and `costMoved` costs nothing — a
 * module's own export shadows one it re-exports with `export *`.
 */
export * from '../src/server/documents/costing';

process.stderr.write('no-costing: the ledger moves goods without costing them\n');

export const lockCosts: typeof real.lockCosts = async () => new Map();

export const costMoved: typeof real.costMoved = async () => {};
