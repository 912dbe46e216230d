import { integer, quantity, reference, select } from '../fields';
import { defineResource } from '../resource';

export const LOCATION_TYPES = [
  { value: 'warehouse', label: 'Warehouse' },
  { value: 'branch', label: 'Branch' },
] as const;

/**
 * What is on hand (and on its way) of an item at a warehouse or branch, in the item's base unit,
 * and how much of what is on hand is quarantined: neither sold nor moved until a stock adjustment
 * releases it or writes it off. Read-only: documents move stock, and the stock's view lists the
 * movements that did.
 */
export const stocks = defineResource({
  name: 'stocks',
  singular: 'Stock',
  plural: 'Stocks',
  display: 'id',
  menu: { group: 'Inventory', icon: 'boxes' },
  readOnly: true,
  places: { ends: { place: { type: 'location_type', id: 'location_id' } }, operates: 'place' },
  fields: {
    item_id: reference('Item', 'items', { computed: true }),
    location_type: select('Location type', LOCATION_TYPES, { computed: true }),
    location_id: integer('Location', {
      computed: true,
      referencesBy: { field: 'location_type', resources: { branch: 'branches', warehouse: 'warehouses' } },
    }),
    quantity_on_hand: quantity('On hand', { computed: true }),
    quantity_in_transit: quantity('In transit', { computed: true }),
    quantity_quarantined: quantity('Quarantined', { computed: true }),
  },
  search: ['id', 'item_id', 'location_type', 'location_id'],
  sort: ['quantity_on_hand', 'quantity_in_transit', 'quantity_quarantined'],
  columns: ['item_id', 'location_type', 'location_id', 'quantity_on_hand', 'quantity_in_transit', 'quantity_quarantined'],
});
