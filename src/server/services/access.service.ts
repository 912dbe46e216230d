import { sql } from 'kysely';
import { holdsAny, MASTER_PERMISSION } from '../../domain/permissions';
import { isPostgres, nowIso } from '../db/dialect';
import { conflict, forbidden, notFound, validationError } from '../errors';
import type { Db, Scope, Trx } from '../db/scope';

/**
 * Who may do what: the permission names a user holds in a business, and the two assignments
 * (a role's permissions, a user's roles). Nobody hands out or takes away more than they hold
 * themselves, nor changes a user or a role holding more than they do, unless they hold the
 * master permission; and no change leaves a business that had a master without one.
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

/** The permissions among `permissionNames` the actor does not hold (none for a master). */
function beyondActor(scope: Scope, permissionNames: readonly string[]): string[] {
  if (scope.permissions.has(MASTER_PERMISSION)) return [];
  return permissionNames.filter((name) => !scope.permissions.has(name));
}

function listed(names: readonly string[]): string {
  return `${names.slice(0, 5).join(', ')}${names.length > 5 ? ' …' : ''}`;
}

function assertCanGrant(scope: Scope, permissionNames: readonly string[]): void {
  const beyond = beyondActor(scope, permissionNames);
  if (beyond.length > 0) throw forbidden(`You cannot grant permissions you do not hold yourself: ${listed(beyond)}.`);
}

function assertCanRemove(scope: Scope, permissionNames: readonly string[]): void {
  const beyond = beyondActor(scope, permissionNames);
  if (beyond.length > 0) throw forbidden(`You cannot remove permissions you do not hold yourself: ${listed(beyond)}.`);
}

async function permissionNamesOfRole(db: Db, roleId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .where('role_permissions.role_id', '=', roleId)
    .orderBy('permissions.name')
    .execute();
  return rows.map((row) => row.name as string);
}

/**
 * A user is managed — their secrets reset, their details edited, their roles changed, trashed,
 * restored or deleted — only by someone who holds every permission they hold in this business,
 * or the master permission; anyone manages themselves.
 */
export async function assertManagesUser(db: Db, scope: Scope, userId: number): Promise<void> {
  if (userId === scope.userId) return;
  const beyond = beyondActor(scope, await permissionNamesOf(db, userId, scope.businessId));
  if (beyond.length > 0) {
    throw forbidden(
      `This user holds permissions you do not hold yourself (${listed(beyond)}); only someone who holds them can change this user.`,
    );
  }
}

/** A role is changed, trashed, restored or deleted only by someone holding every permission it holds. */
export async function assertManagesRole(db: Db, scope: Scope, roleId: number): Promise<void> {
  const beyond = beyondActor(scope, await permissionNamesOfRole(db, roleId));
  if (beyond.length > 0) {
    throw forbidden(`This role holds permissions you do not hold yourself (${listed(beyond)}); only someone who holds them can change it.`);
  }
}

/**
 * `permission` (or the master one) held by the user in `businessId` itself, as a live member —
 * whatever business the request is working in.
 */
export async function assertHoldsIn(db: Db, userId: number, businessId: number, permission: string): Promise<void> {
  const member = await db
    .selectFrom('memberships')
    .select('id')
    .where('user_id', '=', userId)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!member || !holdsAny(await permissionNamesOf(db, userId, businessId), [permission])) {
    throw forbidden(`You need the ${permission} permission in that business itself.`);
  }
}

/** Live members of the business holding the master permission through a live role. */
async function masterCount(db: Db, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .innerJoin('user_roles', 'user_roles.user_id', 'memberships.user_id')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select(sql<number>`count(distinct memberships.user_id)`.as('count'))
    .where('memberships.business_id', '=', businessId)
    .where('memberships.deleted_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .where('roles.business_id', '=', businessId)
    .where('roles.deleted_at', 'is', null)
    .where('permissions.name', '=', MASTER_PERMISSION)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Locks `id` of `table` until the transaction ends (PostgreSQL; SQLite runs one writer at a
 * time). The record is locked before its business, the order the generic writes lock in.
 */
async function lockRow(trx: Trx, table: 'users' | 'roles' | 'businesses', id: number): Promise<void> {
  if (isPostgres(trx as Db)) await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * Runs `change`, which may take the master permission from someone, with the business row locked
 * (so such changes run one at a time and each counts what the one before left), and refuses it
 * (409) when it leaves a business that had a master without one.
 */
export async function keepingAMaster<T>(trx: Trx, scope: Scope, change: () => Promise<T>): Promise<T> {
  await lockRow(trx, 'businesses', scope.businessId);
  const before = await masterCount(trx, scope.businessId);
  const result = await change();
  if (before > 0 && (await masterCount(trx, scope.businessId)) === 0) {
    throw conflict('This would leave the business without anyone holding the master permission; give it to someone else first.');
  }
  return result;
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

/**
 * Changes what a user or role is assigned: the record locked first, the change made so the business
 * keeps a master, then the record's version bumped, so a copy a device holds is known to be old.
 */
async function reassigned(trx: Trx, scope: Scope, table: 'users' | 'roles', id: number, change: () => Promise<void>): Promise<void> {
  await lockRow(trx, table, id);
  await keepingAMaster(trx, scope, change);
  await trx
    .updateTable(table)
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', id)
    .execute();
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
  await assertManagesUser(trx, scope, userId);
  await assertAssignableRoles(trx, scope, roleIds);
  await reassigned(trx, scope, 'users', userId, async () => {
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
  });
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
  const granted = permissions.map((row) => row.name as string);
  assertCanGrant(scope, granted);
  assertCanRemove(
    scope,
    (await permissionNamesOfRole(trx, roleId)).filter((name) => !granted.includes(name)),
  );
  await reassigned(trx, scope, 'roles', roleId, async () => {
    await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
    if (ids.length > 0) {
      await trx
        .insertInto('role_permissions')
        .values(ids.map((permissionId) => ({ role_id: roleId, permission_id: permissionId })))
        .execute();
    }
  });
}

/** The businesses `userId` is a live member of, as a subquery of ids. */
export function memberBusinessIds(db: Db, userId: number) {
  return db
    .selectFrom('memberships')
    .select('memberships.business_id')
    .where('memberships.user_id', '=', userId)
    .where('memberships.deleted_at', 'is', null);
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
    .where('theirs.business_id', 'not in', memberBusinessIds(db, scope.userId))
    .executeTakeFirst();
  if (elsewhere) {
    throw forbidden('This user also belongs to a business you are not a member of; their sign-in details can only be changed there.');
  }
}
