import { unitList } from './named-list';

export const unitOfMeasurements = unitList({
  name: 'unit-of-measurements',
  singular: 'Unit of Measurement',
  plural: 'Unit of Measurements',
});
