import { text, textarea } from '../fields';
import { defineResource } from '../resource';

export const services = defineResource({
  name: 'services',
  singular: 'Service',
  plural: 'Services',
  display: 'name',
  fields: {
    code: text('Code', { required: true, unique: true, max: 64 }),
    name: text('Name', { required: true }),
    description: textarea('Description'),
  },
  search: ['id', 'code', 'name'],
  sort: ['code', 'name'],
  columns: ['code', 'name', 'description'],
});
