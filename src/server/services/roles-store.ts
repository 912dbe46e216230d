import { z } from 'zod';
import { sql } from 'kysely';
import { roles as roleDefinition } from '../../domain/resources/roles';
import { businessTableStore, type ResourceStore } from '../resources/store';
import { assertManagesRole, keepingAMaster } from './access.service';

/**
 * Roles: changed, trashed, restored or deleted only by someone holding every permission the role
 * holds; trashing one may not take the business's last master away.
 */
const roles = businessTableStore(roleDefinition);
export const rolesStore: ResourceStore = {
  ...roles,
  async validate(db, scope, _input, exceptId) {
    if (exceptId !== undefined) await assertManagesRole(db, scope, exceptId);
    return {};
  },
  async beforeTrash(trx, scope, id) {
    await assertManagesRole(trx, scope, id);
  },
  async setTrashed(trx, scope, id, deletedAt) {
    if (deletedAt === null) await assertManagesRole(trx, scope, id);
    await keepingAMaster(trx, scope, () => roles.setTrashed(trx, scope, id, deletedAt));
  },
  async extraUsage(db, _scope, id) {
    const row = await db
      .selectFrom('user_roles')
      .select(sql<number>`count(*)`.as('count'))
      .where('role_id', '=', id)
      .executeTakeFirstOrThrow();
    return [{ label: 'users', count: Number(row.count) }];
  },
  async beforeForceDelete(trx, scope, id) {
    await assertManagesRole(trx, scope, id);
  },
  async remove(trx, scope, id) {
    await trx.deleteFrom('role_permissions').where('role_id', '=', id).execute();
    await roles.remove(trx, scope, id);
  },
  async decorate(db, _scope, records) {
    const rows = await db
      .selectFrom('role_permissions')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select(['role_permissions.role_id', 'permissions.id', 'permissions.name'])
      .where(
        'role_permissions.role_id',
        'in',
        records.map((record) => record.id),
      )
      .orderBy('permissions.name')
      .execute();
    for (const record of records) {
      const own = rows.filter((row) => Number(row.role_id) === record.id);
      record.permission_ids = own.map((row) => Number(row.id));
      record.permission_names = own.map((row) => row.name as string);
    }
  },
  decorated: { permission_ids: z.array(z.number().int()), permission_names: z.array(z.string()) },
};
