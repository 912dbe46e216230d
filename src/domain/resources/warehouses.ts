import { text, textarea } from '../fields';
import { defineResource } from '../resource';

export const warehouses = defineResource({
  name: 'warehouses',
  singular: 'Warehouse',
  plural: 'Warehouses',
  display: 'name',
  // A warehouse is itself a place: a user sees the warehouses they hold.
  places: { ends: { place: { warehouse: 'id' } }, operates: 'place' },
  attachments: true,
  fields: {
    code: text('Code', { required: true, unique: true, max: 32 }),
    name: text('Name', { required: true }),
    branch_code: text('BIR branch code', { format: 'branch-code' }),
    address: textarea('Address'),
    phone: text('Phone', { max: 50 }),
  },
  search: ['id', 'code', 'name', 'address'],
  sort: ['code', 'name'],
  columns: ['code', 'name', 'address', 'phone'],
});
