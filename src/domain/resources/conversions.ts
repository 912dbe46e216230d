import { factor, reference } from '../fields';
import { defineResource } from '../resource';

/** `1 from_unit = factor × to_unit`, for one item or (item_id empty) for every item. */
export const conversions = defineResource({
  name: 'conversions',
  singular: 'Conversion',
  plural: 'Conversions',
  display: 'id',
  fields: {
    item_id: reference('Item', 'items'),
    from_unit_id: reference('From unit', 'unit-of-measurements', { required: true }),
    to_unit_id: reference('To unit', 'unit-of-measurements', { required: true }),
    factor: factor('Factor', { required: true }),
  },
  search: ['id', 'item_id', 'from_unit_id', 'to_unit_id'],
  sort: ['factor'],
  columns: ['item_id', 'from_unit_id', 'factor', 'to_unit_id'],
});
