import { beforeEach, describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import type { ResourceDefinition } from '../../../domain/resource';
import { createSlotRegistry, type SlotRegistry } from './slots';

const purchaseOrders = getResource('purchase-orders');
const bills = getResource('bills');
const items = getResource('items');
const brands = getResource('brands');

/** What the `list.small-title` slot says for `definition`; undefined when no slot reaches it. */
const smallTitle = (slots: SlotRegistry, definition: ResourceDefinition) => slots.resolve(definition, 'list.small-title')?.(definition);

describe('slot resolution', () => {
  let slots: SlotRegistry;
  beforeEach(() => {
    slots = createSlotRegistry();
  });

  it("takes the resource's own slot over its kind's, and its kind's over the default", () => {
    slots.register('default', 'list.small-title', () => 'default');
    slots.register({ kind: 'document' }, 'list.small-title', () => 'document');
    slots.register({ resource: 'purchase-orders' }, 'list.small-title', () => 'purchase orders');

    expect(smallTitle(slots, purchaseOrders)).toBe('purchase orders');
    expect(smallTitle(slots, bills)).toBe('document');
    expect(smallTitle(slots, brands)).toBe('default');
  });

  it('leaves a slot nobody filled empty, so the screen keeps its own part', () => {
    slots.register({ resource: 'stocks' }, 'view.title', () => 'of a stock');
    expect(slots.resolve(brands, 'view.title')).toBeUndefined();
    expect(slots.resolve(purchaseOrders, 'view.deletable')).toBeUndefined();
  });

  it('asks kinds in their order: a document (which takes files) gets the document slot', () => {
    slots.register({ kind: 'attachments' }, 'list.small-title', () => 'attachments');
    slots.register({ kind: 'document' }, 'list.small-title', () => 'document');
    expect(purchaseOrders.attachments).toBe(true);
    expect(smallTitle(slots, purchaseOrders)).toBe('document');
    // Items take files but are no document.
    expect(items.attachments).toBe(true);
    expect(smallTitle(slots, items)).toBe('attachments');
  });

  it('keeps slots apart: filling one for a resource fills no other', () => {
    slots.register({ resource: 'purchase-orders' }, 'view.title', () => 'PO');
    expect(slots.resolve(purchaseOrders, 'list.small-title')).toBeUndefined();
    expect(slots.resolve(bills, 'view.title')).toBeUndefined();
  });

  it('refuses a second registration for the same target and slot', () => {
    slots.register({ kind: 'document' }, 'view.title', () => 'one');
    expect(() => slots.register({ kind: 'document' }, 'view.title', () => 'two')).toThrow(/registered twice/);
    // Another target for the same slot is no repeat.
    slots.register({ resource: 'bills' }, 'view.title', () => 'bill');
  });
});
