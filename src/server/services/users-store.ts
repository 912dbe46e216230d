import { sql, type Insertable } from 'kysely';
import { z } from 'zod';
import { MAX_ID } from '../../domain/fields';
import { hashSecret } from '../auth/secrets';
import { forUpdate } from '../db/dialect';
import { conflict } from '../errors';
import { assertAssignableRoles, assertManagesIdentity, assertManagesUser, keepingAMaster, replaceUserRoles } from './access.service';
import type { UsersTable } from '../db/schema';
import { assertWorksAtHeld, EVERY_PLACE_INPUT, placesInput, placesOfUsers, replaceUserPlaces, type PlacesInput } from './user-places';
import type { ApiRecord } from '../resources/codec';
import type { ResourceStore } from '../resources/store';
import type { Db, Scope, Trx } from '../db/scope';
import { placeAnswer } from '../resources/answer-shapes';

const IDENTITY_COLUMNS = ['name', 'email', 'username'] as const;
const MEMBERSHIP_COLUMNS = ['deleted_at', 'userable_type', 'userable_id'] as const;
const SECRET_INPUTS = ['email', 'username', 'password', 'security_pin'] as const;

async function secretColumns(input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const columns: Record<string, unknown> = {};
  if (typeof input.password === 'string') columns.password_hash = await hashSecret(input.password);
  if (input.security_pin === null) columns.security_pin_hash = null;
  if (typeof input.security_pin === 'string') columns.security_pin_hash = await hashSecret(input.security_pin);
  return columns;
}

function pick(columns: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(columns).filter(([name]) => names.includes(name)));
}

/** The names of the branches and warehouses the users work at, by `type:id`. */
async function userableNames(db: Db, scope: Scope, records: ApiRecord[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const type of ['branch', 'warehouse'] as const) {
    const ids = records
      .filter((record) => record.userable_type === type && record.userable_id)
      .map((record) => record.userable_id as number);
    if (ids.length === 0) continue;
    const table = type === 'branch' ? 'branches' : 'warehouses';
    const rows = await db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('business_id', '=', scope.businessId)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) names.set(`${type}:${row.id}`, row.name);
  }
  return names;
}

async function setMembershipTrashed(trx: Trx, scope: Scope, id: number, deletedAt: string | null): Promise<void> {
  const now = new Date().toISOString();
  await trx
    .updateTable('memberships')
    .set({ deleted_at: deletedAt, updated_at: now })
    .where('user_id', '=', id)
    .where('business_id', '=', scope.businessId)
    .execute();
  await trx
    .updateTable('users')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .execute();
}

/**
 * Users are global identities; the active business sees its members. The membership holds
 * where the user works and whether the user is trashed in this business.
 */
export const usersStore: ResourceStore = {
  countsMaintained: false,
  createFields: { role_ids: z.array(z.number().int().positive().max(MAX_ID)).max(100).optional(), places: placesInput.optional() },
  updateFields: { places: placesInput.optional() },
  query: (db, scope) =>
    db
      .selectFrom('users')
      .innerJoin('memberships', (join) =>
        join.onRef('memberships.user_id', '=', 'users.id').on('memberships.business_id', '=', scope.businessId),
      ),
  select: (query) =>
    query.select([
      'users.id',
      'users.name',
      'users.email',
      'users.username',
      'users.created_at',
      'users.updated_at',
      'users.version',
      'memberships.deleted_at',
      'memberships.userable_type',
      'memberships.userable_id',
    ]),
  column: (name) => ((MEMBERSHIP_COLUMNS as readonly string[]).includes(name) ? `memberships.${name}` : `users.${name}`),

  /** The identity row: every change of a user (its membership here included) takes it first. */
  async lock(trx, _scope, id) {
    await forUpdate(trx, trx.selectFrom('users').select('id').where('id', '=', id)).execute();
  },

  async findDuplicate(db, _scope, field, value, exceptId) {
    let query = db
      .selectFrom('users')
      .select('id')
      .where(field as 'email' | 'username', '=', value as string);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst())?.id as number | undefined;
  },

  async validate(db, scope, input, exceptId) {
    if (exceptId !== undefined) await assertManagesUser(db, scope, exceptId);
    const errors: Record<string, string[]> = {};
    const type = input.userable_type;
    if (type === 'branch' || type === 'warehouse') {
      const table = type === 'branch' ? 'branches' : 'warehouses';
      const id = input.userable_id;
      const found =
        typeof id === 'number' &&
        (await db
          .selectFrom(table)
          .select('id')
          .where('id', '=', id)
          .where('business_id', '=', scope.businessId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst());
      if (!found) errors.userable_id = [`The selected ${type} is invalid.`];
    }
    if (Array.isArray(input.role_ids)) await assertAssignableRoles(db, scope, input.role_ids as number[]);
    return errors;
  },

  async insert(trx, scope, columns, input) {
    const stamps = { created_at: columns.created_at as string, updated_at: columns.updated_at as string, version: 1 };
    const user = await trx
      .insertInto('users')
      .values({ ...pick(columns, IDENTITY_COLUMNS), ...(await secretColumns(input)), ...stamps } as Insertable<UsersTable>)
      .returning('id')
      .executeTakeFirstOrThrow();
    const userId = Number(user.id);
    const userable = columns.userable_type === 'branch' || columns.userable_type === 'warehouse';
    await trx
      .insertInto('memberships')
      .values({
        user_id: userId,
        business_id: scope.businessId,
        userable_type: userable ? (columns.userable_type as string) : 'none',
        userable_id: userable ? (columns.userable_id as number | null) : null,
        ...stamps,
      })
      .execute();
    if (Array.isArray(input.role_ids)) await replaceUserRoles(trx, scope, userId, input.role_ids as number[]);
    // Said nothing of places: every place to operate, which only someone holding that may give.
    const places = await replaceUserPlaces(trx, scope, userId, (input.places as PlacesInput | undefined) ?? EVERY_PLACE_INPUT);
    assertWorksAtHeld(places, columns.userable_type, columns.userable_id);
    return userId;
  },

  async update(trx, scope, id, columns, input) {
    if (SECRET_INPUTS.some((name) => input[name] !== undefined)) await assertManagesIdentity(trx, scope, id);
    await trx
      .updateTable('users')
      .set((eb) => ({
        ...pick(columns, IDENTITY_COLUMNS),
        updated_at: columns.updated_at as string,
        version: eb('version', '+', 1),
      }))
      .set(await secretColumns(input))
      .where('id', '=', id)
      .execute();
    // A new password signs the user out everywhere but in the session that set it.
    if (typeof input.password === 'string') {
      let sessions = trx.deleteFrom('sessions').where('user_id', '=', id);
      if (scope.sessionTokenHash !== undefined) sessions = sessions.where('token_hash', '!=', scope.sessionTokenHash);
      await sessions.execute();
    }
    const membership = pick(columns, MEMBERSHIP_COLUMNS);
    if (membership.userable_type !== undefined) {
      const userable = membership.userable_type === 'branch' || membership.userable_type === 'warehouse';
      if (!userable) membership.userable_id = null;
      if (membership.userable_type === null) membership.userable_type = 'none';
    }
    if (Object.keys(membership).length > 0) {
      await trx
        .updateTable('memberships')
        .set({ ...membership, updated_at: columns.updated_at as string })
        .where('user_id', '=', id)
        .where('business_id', '=', scope.businessId)
        .execute();
    }
    if (input.places !== undefined || membership.userable_type !== undefined || membership.userable_id !== undefined) {
      const places =
        input.places === undefined
          ? (await placesOfUsers(trx, scope, [id])).get(id)
          : await replaceUserPlaces(trx, scope, id, input.places as PlacesInput);
      const worksAt = await trx
        .selectFrom('memberships')
        .select(['userable_type', 'userable_id'])
        .where('user_id', '=', id)
        .where('business_id', '=', scope.businessId)
        .executeTakeFirst();
      if (places && worksAt) assertWorksAtHeld(places, worksAt.userable_type, worksAt.userable_id);
    }
  },

  async beforeTrash(trx, scope, id) {
    if (id === scope.userId) throw conflict('You cannot delete your own user.');
    await assertManagesUser(trx, scope, id);
  },

  /** Trashing may take the business's last master away, which is refused; restoring is managing. */
  async setTrashed(trx, scope, id, deletedAt) {
    if (deletedAt === null) await assertManagesUser(trx, scope, id);
    await keepingAMaster(trx, scope, () => setMembershipTrashed(trx, scope, id, deletedAt));
  },

  /** Removes the user from this business; the identity goes too when no business is left. */
  async beforeForceDelete(trx, scope, id) {
    await assertManagesUser(trx, scope, id);
  },

  async remove(trx, scope, id) {
    await trx
      .deleteFrom('user_roles')
      .where('user_id', '=', id)
      .where('role_id', 'in', trx.selectFrom('roles').select('id').where('business_id', '=', scope.businessId))
      .execute();
    await trx.deleteFrom('memberships').where('user_id', '=', id).where('business_id', '=', scope.businessId).execute();
    const remaining = await trx
      .selectFrom('memberships')
      .select(sql<number>`count(*)`.as('count'))
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(remaining.count) === 0) {
      await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
      await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
      await trx.deleteFrom('users').where('id', '=', id).execute();
    }
  },

  async decorate(db, scope, records) {
    const ids = records.map((record) => record.id);
    const roles = await db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.name'])
      .where('user_roles.user_id', 'in', ids)
      .where('roles.business_id', '=', scope.businessId)
      .where('roles.deleted_at', 'is', null)
      .orderBy('roles.name')
      .execute();
    const names = await userableNames(db, scope, records);
    const places = await placesOfUsers(db, scope, ids);
    for (const record of records) {
      const own = roles.filter((role) => Number(role.user_id) === record.id);
      record.role_ids = own.map((role) => Number(role.id));
      record.role_names = own.map((role) => role.name as string);
      const name = names.get(`${record.userable_type}:${record.userable_id}`);
      // `userable` like any reference's `{ id, display }`; `userable_from` as the navbar says it.
      record.userable = name ? { id: record.userable_id, display: name } : null;
      record.userable_from = name ? `${record.userable_type === 'branch' ? 'Branch' : 'Warehouse'}: ${name}` : null;
      record.places = places.get(record.id) ?? { all: null, grants: [] };
    }
  },
  decorated: {
    role_ids: z.array(z.number().int()),
    role_names: z.array(z.string()).describe('Their roles in the active business'),
    userable: placeAnswer.nullable().describe('The branch or warehouse they work at'),
    userable_from: z.string().nullable().describe('Where they work, as "Branch: Makati"'),
    places: z
      .looseObject({
        all: z.enum(['view', 'operate']).nullable().describe('Every place of the business, at this level (null: not every place)'),
        grants: z.array(
          z.looseObject({
            type: z.enum(['branch', 'warehouse']),
            id: z.number().int(),
            level: z.enum(['view', 'operate']),
            name: z.string(),
          }),
        ),
      })
      .describe('The branches and warehouses they work at here: view sees, operate also makes and changes documents'),
  },
};
