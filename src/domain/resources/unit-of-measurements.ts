import { unitList } from './named-list';

/**
 * Its route and API path keep the product's name (`/unit-of-measurements`); what people read is
 * the plural of a unit of measurement.
 */
export const unitOfMeasurements = unitList({
  name: 'unit-of-measurements',
  singular: 'Unit of Measurement',
  plural: 'Units of Measurement',
  menu: { group: 'Inventory', icon: 'ruler' },
});
