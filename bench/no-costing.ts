import { register } from 'node:module';

/**
 * `node --import tsx --import ./bench/no-costing.ts …`: the server without moving-average cost,
 * for bench/costing.ts to measure what costing adds to posting a document. A module hook
 * (no-costing-hooks.ts) sends every import of src/server/documents/cost-follow-up.ts but the
 * stub's own to the stub (no-costing-stub.ts), which keeps the real module's exports but the
 * ledger's: the ledger then moves goods that never wait to be costed, and owes no follow-up. Registered after tsx, the hook
 * runs first and asks tsx (then Node) where a specifier leads before it redirects.
 */
register('./no-costing-hooks.ts', import.meta.url, {
  data: {
    costing: new URL('../src/server/documents/cost-follow-up.ts', import.meta.url).href,
    stub: new URL('./no-costing-stub.ts', import.meta.url).href,
  },
});
