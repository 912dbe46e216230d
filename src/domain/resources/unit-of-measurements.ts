import { text } from '../fields';
import { defineResource } from '../resource';

export const unitOfMeasurements = defineResource({
  name: 'unit-of-measurements',
  singular: 'Unit of Measurement',
  plural: 'Unit of Measurements',
  display: 'name',
  fields: {
    name: text('Name', { required: true, unique: true }),
    abbreviation: text('Abbreviation', { required: true, max: 20 }),
  },
  search: ['id', 'name', 'abbreviation'],
  sort: ['name', 'abbreviation'],
  columns: ['name', 'abbreviation'],
});
