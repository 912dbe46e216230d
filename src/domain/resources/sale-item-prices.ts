import { date, money, reference } from '../fields';
import { AT_A_BRANCH_OR_ALL } from '../places';
import { defineResource } from '../resource';

/** branch_id empty: the price holds for every branch. */
export const saleItemPrices = defineResource({
  name: 'sale-item-prices',
  singular: 'Sale Item Price',
  plural: 'Sale Item Prices',
  display: 'id',
  menu: { group: 'Sales & Services', icon: 'tags' },
  places: AT_A_BRANCH_OR_ALL,
  fields: {
    item_id: reference('Item', 'items', { required: true }),
    branch_id: reference('Branch', 'branches'),
    unit_of_measurement_id: reference('Unit of measurement', 'unit-of-measurements', { required: true }),
    price: money('Price', { required: true }),
    effective_date: date('Effective date', { required: true }),
  },
  search: ['id', 'item_id', 'branch_id', 'unit_of_measurement_id', 'effective_date'],
  sort: ['price', 'effective_date'],
  columns: ['item_id', 'branch_id', 'unit_of_measurement_id', 'price', 'effective_date'],
});
