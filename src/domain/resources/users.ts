import { email, integer, password, pin, select, text } from '../fields';
import { defineResource } from '../resource';

export const USERABLE_TYPES = [
  { value: 'none', label: 'None' },
  { value: 'branch', label: 'Branch' },
  { value: 'warehouse', label: 'Warehouse' },
] as const;

/**
 * A global identity (name, email, username, secrets) seen through its membership of the active
 * business, which holds where the user works (userable) and whether it is trashed there.
 */
export const users = defineResource({
  name: 'users',
  singular: 'User',
  plural: 'Users',
  display: 'name',
  menu: { group: 'Management', icon: 'users' },
  tenancy: 'membership',
  resettableSecrets: true,
  fields: {
    name: text('Name', { required: true }),
    email: email('Email', { required: true, unique: true }),
    username: text('Username', { unique: true, max: 64 }),
    password: password('Password', { required: true }),
    security_pin: pin('Security pin'),
    userable_type: select('Works at', USERABLE_TYPES),
    userable_id: integer('Branch or warehouse', {
      referencesBy: { field: 'userable_type', resources: { branch: 'branches', warehouse: 'warehouses' } },
    }),
  },
  search: ['id', 'name', 'email', 'username', 'userable_type'],
  sort: ['name', 'email', 'username'],
  columns: ['name', 'email', 'username', 'userable_type'],
});
