import { text, textarea } from '../fields';
import { defineResource } from '../resource';

export const itemClassifications = defineResource({
  name: 'item-classifications',
  singular: 'Item Classification',
  plural: 'Item Classifications',
  display: 'name',
  fields: {
    name: text('Name', { required: true, unique: true }),
    description: textarea('Description'),
  },
  search: ['id', 'name', 'description'],
  sort: ['name'],
  columns: ['name', 'description'],
});
