import { text, textarea } from '../fields';
import { defineResource } from '../resource';

export const contactTypes = defineResource({
  name: 'contact-types',
  singular: 'Contact Type',
  plural: 'Contact Types',
  display: 'name',
  fields: {
    name: text('Name', { required: true, unique: true }),
    description: textarea('Description'),
  },
  search: ['id', 'name', 'description'],
  sort: ['name'],
  columns: ['name', 'description'],
});
