import { email, text, textarea } from '../fields';
import { defineResource } from '../resource';

export const branches = defineResource({
  name: 'branches',
  singular: 'Branch',
  plural: 'Branches',
  display: 'name',
  attachments: true,
  // A branch is itself a place: a user sees the branches they hold.
  places: { ends: { place: { branch: 'id' } }, operates: 'place' },
  fields: {
    code: text('Code', { required: true, unique: true, max: 32 }),
    name: text('Name', { required: true }),
    branch_code: text('BIR branch code', { format: 'branch-code' }),
    address: textarea('Address'),
    phone: text('Phone', { max: 50 }),
    email: email('Email'),
  },
  search: ['id', 'code', 'name', 'address'],
  sort: ['code', 'name'],
  columns: ['code', 'name', 'address', 'phone'],
});
