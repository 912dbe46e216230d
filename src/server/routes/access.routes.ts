import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '../../domain/fields';
import { recordId } from '../../domain/field-values';
import { roles } from '../../domain/resources/roles';
import { users } from '../../domain/resources/users';
import { hashSecret, temporaryPassword, temporaryPin } from '../auth/secrets';
import { recordActivity } from '../activity/activity-log';
import { assignmentSummary } from '../activity/assignment-summary';
import { nowIso } from '../db/dialect';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { findRecordOrFail } from '../resources/record-service';
import type { Scope, Trx } from '../db/scope';
import { dataOf, recordSchema, refusals, PATH_ID } from './responses';
import { assertManagesIdentity, assertManagesUser, replaceRolePermissions, replaceUserRoles } from '../services/access.service';

const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'The id must be a whole number.')
    .meta(PATH_ID),
});
const idList = (name: string) =>
  z
    .array(
      z
        .number({ error: `Each ${name} must be a whole number.` })
        .int()
        .positive()
        // No record has a larger id (a 32-bit column): PostgreSQL would fail on one, not find none.
        .max(MAX_ID, `Each ${name} must not be greater than ${MAX_ID}.`),
      { error: `The ${name}s field must be a list.` },
    )
    .max(1000);
const userIdBody = z.object({ id: recordId('Id') });

/** Resets a secret and answers the new temporary one, once; the user's sessions end. */
async function resetSecret(trx: Trx, scope: Scope, userId: number, column: 'password_hash' | 'security_pin_hash', secret: string) {
  await findRecordOrFail(trx, scope, users, userId, 'active');
  await assertManagesUser(trx, scope, userId);
  await assertManagesIdentity(trx, scope, userId);
  const hash = await hashSecret(secret);
  await trx
    .updateTable('users')
    .set((eb) => ({ [column]: hash, version: eb('version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', userId)
    .execute();
  if (column === 'password_hash' && userId !== scope.userId) await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  const action = column === 'password_hash' ? 'reset-password' : 'reset-security-pin';
  await recordActivity(trx, scope, { resource: users.name, recordId: userId, action });
}

/** What one of the routes that replace a record's assignments (a role's permissions, a user's roles) works on. */
interface Assignment {
  definition: typeof roles | typeof users;
  /** What is assigned, as the path and the history name it: `permissions`, `roles`. */
  assigned: 'permissions' | 'roles';
  /** The body's list of ids, `permission_ids` or `role_ids`. */
  field: string;
  summary: string;
  /** How the answer is described. */
  answer: string;
  replace: (trx: Trx, scope: Scope, id: number, ids: number[]) => Promise<void>;
  /** The record's field that names what it holds, for the history's before and after. */
  names: 'permission_names' | 'role_names';
}

/**
 * Registers `PUT /api/{resource}/:id/{assigned}`: replaces what the record is assigned in one
 * write, answers the record as it is then, and writes the names before and after to its history.
 */
function assignmentRoute(app: FastifyInstance, assignment: Assignment): void {
  const { definition, assigned, field } = assignment;
  app.withTypeProvider<ZodTypeProvider>().put(
    `/api/${definition.name}/:id/${assigned}`,
    {
      config: { permission: `update-${definition.name}` },
      schema: {
        tags: [definition.name],
        summary: assignment.summary,
        params: idParams,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        body: z.object({ [field]: idList(field.replace('_ids', ' id')) }),
        response: { 200: dataOf(recordSchema(definition)).describe(assignment.answer), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const id = Number(request.params.id);
      return runWrite(request, reply, async (trx) => {
        const before = await findRecordOrFail(trx, scope, definition, id);
        await assignment.replace(trx, scope, id, request.body[field]);
        const after = await findRecordOrFail(trx, scope, definition, id);
        const summary = assignmentSummary(before[assignment.names], after[assignment.names]);
        await recordActivity(trx, scope, { resource: definition.name, recordId: id, action: `assigned-${assigned}`, summary });
        return { status: 200, body: { data: after } };
      });
    },
  );
}

/** What one of the routes that give a user a new temporary secret (a password, a security pin) resets. */
interface SecretReset {
  path: 'reset-password' | 'reset-security-pin';
  column: 'password_hash' | 'security_pin_hash';
  /** What it is called in the route's description: `password`, `pin`. */
  secret: 'password' | 'pin';
  /** The answer's property holding the new secret. */
  key: 'temporary_password' | 'temporary_security_pin';
  make: () => string;
}

/** Registers `POST /api/users/{path}`: gives the user a new temporary secret and answers it, this once. */
function secretResetRoute(app: FastifyInstance, reset: SecretReset): void {
  const noun = reset.secret === 'pin' ? 'security pin' : 'password';
  app.withTypeProvider<ZodTypeProvider>().post(
    `/api/users/${reset.path}`,
    {
      config: { permission: 'update-users' },
      schema: {
        tags: ['users'],
        summary: `Give a user a new temporary ${noun} (answered once)`,
        body: userIdBody,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: {
          200: z.looseObject({ id: z.number().int(), [reset.key]: z.string() }).describe(`The new ${reset.secret}, shown this once`),
          ...refusals(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => {
        const temporary = reset.make();
        await resetSecret(trx, scope, request.body.id, reset.column, temporary);
        return { status: 200, body: { id: request.body.id, [reset.key]: temporary } };
      });
    },
  );
}

export async function accessRoutes(app: FastifyInstance): Promise<void> {
  assignmentRoute(app, {
    definition: roles,
    assigned: 'permissions',
    field: 'permission_ids',
    summary: "Replace a role's permissions",
    answer: 'The role with its permissions',
    replace: replaceRolePermissions,
    names: 'permission_names',
  });
  assignmentRoute(app, {
    definition: users,
    assigned: 'roles',
    field: 'role_ids',
    summary: "Replace a user's roles in this business",
    answer: 'The user with their roles',
    replace: replaceUserRoles,
    names: 'role_names',
  });

  secretResetRoute(app, {
    path: 'reset-password',
    column: 'password_hash',
    secret: 'password',
    key: 'temporary_password',
    make: temporaryPassword,
  });
  secretResetRoute(app, {
    path: 'reset-security-pin',
    column: 'security_pin_hash',
    secret: 'pin',
    key: 'temporary_security_pin',
    make: temporaryPin,
  });
}
