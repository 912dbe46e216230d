import { text, textarea } from '../fields';
import { defineResource } from '../resource';

/** Roles belong to a business; their permissions are set at /roles/{id}/assign-permissions. */
export const roles = defineResource({
  name: 'roles',
  singular: 'Role',
  plural: 'Roles',
  display: 'name',
  menu: { group: 'Management', icon: 'shield-check' },
  fields: {
    name: text('Name', { required: true, unique: true }),
    description: textarea('Description'),
  },
  search: ['id', 'name'],
  sort: ['name'],
  columns: ['name', 'description'],
});
