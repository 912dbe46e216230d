import type { InitializeHook, ResolveHook } from 'node:module';

/** Module hooks (no-costing.ts registers them): src/server/documents/cost-follow-up.ts resolves to the stub, but for the stub itself. */

let costing = '';
let stub = '';

/** A file URL without its query and hash, as a loader may add them. */
const bare = (url: string | undefined) => (url === undefined ? undefined : url.replace(/[?#].*$/, ''));

export const initialize: InitializeHook<{ costing: string; stub: string }> = (data) => {
  ({ costing, stub } = data);
};

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  if (bare(resolved.url) !== costing || bare(context.parentURL) === stub) return resolved;
  return { ...resolved, url: stub, shortCircuit: true };
};
