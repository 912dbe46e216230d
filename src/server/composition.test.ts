import { describe, expect, it } from 'vitest';
import { purchaseOrders } from '../domain/resources/purchase-orders';
import { registry } from '../domain/resources/registry';
import { users } from '../domain/resources/users';
import { composeEngine } from './composition';
import { registerReversals, reversalOf } from './documents/document-store';
import { storeFor } from './resources/stores';

describe('composing the engine', () => {
  it('gives every resource of the registry a store, and composing again changes nothing', () => {
    composeEngine();
    const before = registry.map((definition) => storeFor(definition));
    composeEngine();
    expect(registry.map((definition) => storeFor(definition))).toEqual(before);
  });

  it('keeps the stores of their own for documents and users, not the generic one', () => {
    composeEngine();
    expect(storeFor(purchaseOrders).createFields).toHaveProperty('lines');
    expect(storeFor(users).createFields).toHaveProperty('role_ids');
  });

  it('refuses a document resource that has no store of its own', () => {
    const unregistered = { ...purchaseOrders, name: 'unregistered-orders', table: 'unregistered_orders' };
    expect(() => composeEngine([...registry, unregistered])).toThrow(
      'The document resource "unregistered-orders" has no store registered.',
    );
    expect(() => storeFor(unregistered)).toThrow('No store for resource "unregistered-orders"');
  });

  it('refuses a resource that is not a business table and has no store of its own', () => {
    const unregistered = { ...users, name: 'unregistered-people' };
    expect(() => composeEngine([unregistered])).toThrow('The membership resource "unregistered-people" has no store registered.');
  });

  it("registers what each document kind's transitions reverse, and only transitions its lifecycle declares", () => {
    composeEngine();
    expect(reversalOf('receive-orders', 'void')).toBeTypeOf('function');
    // A quotation's cancel changes its status only.
    expect(reversalOf('quotations', 'cancel')).toBeUndefined();
    expect(() => registerReversals({ 'purchase-orders': { void: async () => {} } })).toThrow(
      'purchase-orders has a void reversal, but its lifecycle declares no void transition.',
    );
  });
});
