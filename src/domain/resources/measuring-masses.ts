import { text } from '../fields';
import { defineResource } from '../resource';

export const measuringMasses = defineResource({
  name: 'measuring-masses',
  singular: 'Measuring Mass',
  plural: 'Measuring Masses',
  display: 'name',
  fields: {
    name: text('Name', { required: true, unique: true }),
    abbreviation: text('Abbreviation', { required: true, max: 20 }),
  },
  search: ['id', 'name', 'abbreviation'],
  sort: ['name', 'abbreviation'],
  columns: ['name', 'abbreviation'],
});
