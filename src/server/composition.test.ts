import { describe, expect, it } from 'vitest';
import { invoicePayments } from '../domain/resources/invoice-payments';
import { purchaseOrders } from '../domain/resources/purchase-orders';
import { registry } from '../domain/resources/registry';
import { stockAdjustments } from '../domain/resources/stock-adjustments';
import { stockCounts } from '../domain/resources/stock-counts';
import { stockTransfers } from '../domain/resources/stock-transfers';
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

  it('serves a document kind with no part of its own from its declaration: a payment by the payment store, any other by the document store', () => {
    const undeclared = { ...stockAdjustments, name: 'composed-gifts', table: 'composed_gifts' };
    composeEngine([...registry, undeclared]);
    expect(storeFor(undeclared).createFields).toHaveProperty('lines');
    // Its void moves back what its declaration says it moved, with no work written for it.
    expect(workOf('composed-gifts', 'void')).toBeTypeOf('function');
    expect(storeFor(invoicePayments).createFields).toHaveProperty('tenders');
    expect(workOf('invoice-payments', 'void')).toBeTypeOf('function');
  });

  it('refuses a kind that moves stock between places without saying how its void moves it back', () => {
    const unsaid = { ...stockTransfers, name: 'unsaid-transfers', table: 'unsaid_transfers' };
    expect(() => composeEngine([...registry, unsaid])).toThrow(
      'unsaid-transfers moves stock between places or on closing: its void must say how that is moved back.',
    );
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
    expect(() => registerReversals(purchaseOrders, { void: async () => {} })).toThrow(
      'purchase-orders has a void reversal, but its lifecycle declares no void transition.',
    );
    // A step forward is no reversal, nor an undoing a step.
    expect(() => registerReversals(stockCounts, { post: async () => {} })).toThrow(
      'stock-counts has a post reversal, but its post transition is not undo.',
    );
    expect(() => registerSteps(stockCounts, { cancel: async () => ({}) })).toThrow(
      'stock-counts has a cancel step, but its cancel transition is not forward.',
    );
  });
});
