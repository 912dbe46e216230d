import { text } from '../fields';
import { defineResource } from '../resource';

/** The global, seeded list of permission names: index and view only. */
export const permissions = defineResource({
  name: 'permissions',
  singular: 'Permission',
  plural: 'Permissions',
  display: 'name',
  menu: { group: 'Management', icon: 'key-round' },
  tenancy: 'global',
  readOnly: true,
  fields: {
    name: text('Name', { required: true, unique: true }),
    group: text('Group', { required: true }),
  },
  search: ['id', 'name', 'group'],
  sort: ['name', 'group'],
  columns: ['name', 'group'],
});
