import { describe, expect, it } from 'vitest';
import { purchaseOrders } from '../domain/resources/purchase-orders';
import { registry } from '../domain/resources/registry';
import { users } from '../domain/resources/users';
import { composeEngine } from './composition';
import { registerReversals, registerSteps, workOf } from './documents/document-store';
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
    expect(workOf('receive-orders', 'void')).toBeTypeOf('function');
    // A count's post writes its stock adjustment; its finish and a quotation's cancel change the status only.
    expect(workOf('stock-counts', 'post')).toBeTypeOf('function');
    expect(workOf('stock-counts', 'finish')).toBeUndefined();
    expect(workOf('quotations', 'cancel')).toBeUndefined();
    expect(() => registerReversals({ 'purchase-orders': { void: async () => {} } })).toThrow(
      'purchase-orders has a void reversal, but its lifecycle declares no void transition.',
    );
    // A step forward is no reversal, nor an undoing a step.
    expect(() => registerReversals({ 'stock-counts': { post: async () => {} } })).toThrow(
      'stock-counts has a post reversal, but its post transition is not undo.',
    );
    expect(() => registerSteps({ 'stock-counts': { cancel: async () => ({}) } })).toThrow(
      'stock-counts has a cancel step, but its cancel transition is not forward.',
    );
  });
});
