import { date, money, reference } from '../fields';
import { defineResource } from '../resource';

/** contact_id empty: the price holds for every supplier. A customer is never one (its picker lists suppliers). */
export const purchaseItemPrices = defineResource({
  name: 'purchase-item-prices',
  singular: 'Purchase Item Price',
  plural: 'Purchase Item Prices',
  display: 'id',
  menu: { group: 'Purchasing', icon: 'hand-coins' },
  fields: {
    item_id: reference('Item', 'items', { required: true }),
    contact_id: reference('Supplier', 'contacts', { contactType: 'Supplier' }),
    unit_of_measurement_id: reference('Unit of measurement', 'unit-of-measurements', { required: true }),
    price: money('Price', { required: true }),
    effective_date: date('Effective date', { required: true }),
  },
  search: ['id', 'item_id', 'contact_id', 'unit_of_measurement_id', 'effective_date'],
  sort: ['price', 'effective_date'],
  columns: ['item_id', 'contact_id', 'unit_of_measurement_id', 'price', 'effective_date'],
});
