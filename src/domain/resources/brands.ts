import { text, textarea } from '../fields';
import { defineResource } from '../resource';

export const brands = defineResource({
  name: 'brands',
  singular: 'Brand',
  plural: 'Brands',
  display: 'name',
  fields: {
    name: text('Name', { required: true, unique: true }),
    description: textarea('Description'),
  },
  search: ['id', 'name', 'description'],
  sort: ['name'],
  columns: ['name', 'description'],
});
