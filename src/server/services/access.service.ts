import { MASTER_PERMISSION } from '../../domain/permissions';
import { nowIso } from '../db/dialect';
import { forbidden, notFound, validationError } from '../errors';
import type { Db, Scope, Trx } from '../resources/store';

/**
 * Who may do what: the permission names a user holds in a business, and the two assignments
 * (a role's permissions, a user's roles). Nobody hands out more than they hold themselves:
 * a grant beyond the granter's own permissions is refused unless they hold the master one.
 */

export async function permissionNamesOf(db: Db, userId: number, businessId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .distinct()
    .where('user_roles.user_id', '=', userId)
    .where('roles.business_id', '=', businessId)
    .where('roles.deleted_at', 'is', null)
    .orderBy('permissions.name')
    .execute();
  return rows.map((row) => row.name as string);
}

function assertCanGrant(scope: Scope, permissionNames: readonly string[]): void {
  if (scope.permissions.has(MASTER_PERMISSION)) return;
  const beyond = permissionNames.filter((name) => !scope.permissions.has(name));
  if (beyond.length > 0) {
    throw forbidden(
      `You cannot grant permissions you do not hold yourself: ${beyond.slice(0, 5).join(', ')}${beyond.length > 5 ? ' …' : ''}.`,
    );
  }
}

function distinctIds(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/** Checks that every role is a live role of this business and within what the granter holds. */
export async function assertAssignableRoles(db: Db, scope: Scope, roleIds: readonly number[]): Promise<void> {
  const ids = distinctIds(roleIds);
  if (ids.length === 0) return;
  const found = await db
    .selectFrom('roles')
    .select('id')
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  if (found.length !== ids.length) throw validationError({ role_ids: ['The selected roles are invalid.'] });
  const granted = await db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .distinct()
    .where('role_permissions.role_id', 'in', ids)
    .execute();
  assertCanGrant(
    scope,
    granted.map((row) => row.name as string),
  );
}

/** Replaces the user's roles in this business (their roles elsewhere stay). */
export async function replaceUserRoles(trx: Trx, scope: Scope, userId: number, roleIds: readonly number[]): Promise<void> {
  const member = await trx
    .selectFrom('memberships')
    .select('id')
    .where('user_id', '=', userId)
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!member) throw notFound('user');
  await assertAssignableRoles(trx, scope, roleIds);
  await trx
    .deleteFrom('user_roles')
    .where('user_id', '=', userId)
    .where('role_id', 'in', trx.selectFrom('roles').select('id').where('business_id', '=', scope.businessId))
    .execute();
  const ids = distinctIds(roleIds);
  if (ids.length > 0)
    await trx
      .insertInto('user_roles')
      .values(ids.map((roleId) => ({ user_id: userId, role_id: roleId })))
      .execute();
  await trx
    .updateTable('users')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', userId)
    .execute();
}

/** Replaces the role's permissions. */
export async function replaceRolePermissions(trx: Trx, scope: Scope, roleId: number, permissionIds: readonly number[]): Promise<void> {
  const role = await trx
    .selectFrom('roles')
    .select('id')
    .where('id', '=', roleId)
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!role) throw notFound('role');
  const ids = distinctIds(permissionIds);
  const permissions = ids.length === 0 ? [] : await trx.selectFrom('permissions').select(['id', 'name']).where('id', 'in', ids).execute();
  if (permissions.length !== ids.length) throw validationError({ permission_ids: ['The selected permissions are invalid.'] });
  assertCanGrant(
    scope,
    permissions.map((row) => row.name as string),
  );
  await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (ids.length > 0) {
    await trx
      .insertInto('role_permissions')
      .values(ids.map((permissionId) => ({ role_id: roleId, permission_id: permissionId })))
      .execute();
  }
  await trx
    .updateTable('roles')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', roleId)
    .execute();
}

/**
 * A user's sign-in details (email, username, password, pin) belong to every business they are
 * in; a business may change them only when it is the signed-in user's business too for each one.
 */
export async function assertManagesIdentity(db: Db, scope: Scope, userId: number): Promise<void> {
  const elsewhere = await db
    .selectFrom('memberships as theirs')
    .select('theirs.business_id')
    .where('theirs.user_id', '=', userId)
    .where('theirs.deleted_at', 'is', null)
    .where(
      'theirs.business_id',
      'not in',
      db
        .selectFrom('memberships as mine')
        .select('mine.business_id')
        .where('mine.user_id', '=', scope.userId)
        .where('mine.deleted_at', 'is', null),
    )
    .executeTakeFirst();
  if (elsewhere) {
    throw forbidden('This user also belongs to a business you are not a member of; their sign-in details can only be changed there.');
  }
}
