import type { ResourceStore } from './store';

function readOnly(): never {
  throw new Error('Permissions are a seeded, read-only list');
}

/** The global permission list. */
export const permissionsStore: ResourceStore = {
  countsMaintained: false,
  query: (db) => db.selectFrom('permissions'),
  select: (query) => query.selectAll('permissions'),
  column: (name) => `permissions.${name}`,
  lock: readOnly,
  findDuplicate: async () => undefined,
  insert: readOnly,
  update: readOnly,
  setTrashed: readOnly,
  remove: readOnly,
};
