import type { ResourceDefinition } from '../../domain/resource';
import { businessTableStore, type ResourceStore } from './store';

/**
 * Which store serves each resource. The engine knows no resource by name: where the app is
 * composed, the stores of resources with rules of their own are registered, and then every other
 * business table is given the generic store. A store is looked up only once that is done.
 */
const stores = new Map<string, ResourceStore>();

/** Registers the store of one resource; registering the same store again changes nothing. */
export function registerStore(definition: ResourceDefinition, store: ResourceStore): void {
  const registered = stores.get(definition.name);
  if (registered !== undefined && registered !== store) throw new Error(`The resource "${definition.name}" already has a store.`);
  stores.set(definition.name, store);
}

/**
 * Gives each of `definitions` that has no store yet the generic business-table store. A document
 * or a resource that is not a business table keeps rules the generic store does not: one without
 * a store of its own is refused here, before any request could reach it.
 */
export function registerPlainStores(definitions: readonly ResourceDefinition[]): void {
  for (const definition of definitions) {
    if (stores.has(definition.name)) continue;
    if (definition.document) throw new Error(`The document resource "${definition.name}" has no store registered.`);
    if (definition.tenancy !== 'business') {
      throw new Error(`The ${definition.tenancy} resource "${definition.name}" has no store registered.`);
    }
    stores.set(definition.name, businessTableStore(definition));
  }
}

export function storeFor(definition: ResourceDefinition): ResourceStore {
  const store = stores.get(definition.name);
  if (!store) throw new Error(`No store for resource "${definition.name}": the engine has not been composed.`);
  return store;
}

/** The store of a resource, or none while the engine is not composed yet (an answer's schema made as its module loads). */
export const composedStore = (definition: ResourceDefinition): ResourceStore | undefined => stores.get(definition.name);
