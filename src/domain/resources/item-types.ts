import { text, textarea } from '../fields';
import { defineResource } from '../resource';

export const itemTypes = defineResource({
  name: 'item-types',
  singular: 'Item Type',
  plural: 'Item Types',
  display: 'name',
  fields: {
    name: text('Name', { required: true, unique: true }),
    description: textarea('Description'),
  },
  search: ['id', 'name', 'description'],
  sort: ['name'],
  columns: ['name', 'description'],
});
