import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { dataOf, recordSchema, refusals } from './responses';
import { assertManagesIdentity, assertManagesUser, replaceRolePermissions, replaceUserRoles } from '../services/access.service';

const idParams = z.object({ id: z.string().regex(/^\d{1,9}$/, 'The id must be a whole number.') });
const idList = (name: string) =>
  z
    .array(
      z
        .number({ error: `Each ${name} must be a whole number.` })
        .int()
        .positive(),
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

export async function accessRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.put(
    '/api/roles/:id/permissions',
    {
      config: { permission: 'update-roles' },
      schema: {
        tags: ['roles'],
        summary: "Replace a role's permissions",
        params: idParams,
        body: z.object({ permission_ids: idList('permission id') }),
        response: { 200: dataOf(recordSchema(roles)).describe('The role with its permissions'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const id = Number(request.params.id);
      return runWrite(request, reply, async (trx) => {
        const before = await findRecordOrFail(trx, scope, roles, id);
        await replaceRolePermissions(trx, scope, id, request.body.permission_ids);
        const after = await findRecordOrFail(trx, scope, roles, id);
        const summary = assignmentSummary(before.permission_names, after.permission_names);
        await recordActivity(trx, scope, { resource: roles.name, recordId: id, action: 'assigned-permissions', summary });
        return { status: 200, body: { data: after } };
      });
    },
  );

  routes.put(
    '/api/users/:id/roles',
    {
      config: { permission: 'update-users' },
      schema: {
        tags: ['users'],
        summary: "Replace a user's roles in this business",
        params: idParams,
        body: z.object({ role_ids: idList('role id') }),
        response: { 200: dataOf(recordSchema(users)).describe('The user with their roles'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const id = Number(request.params.id);
      return runWrite(request, reply, async (trx) => {
        const before = await findRecordOrFail(trx, scope, users, id);
        await replaceUserRoles(trx, scope, id, request.body.role_ids);
        const after = await findRecordOrFail(trx, scope, users, id);
        const summary = assignmentSummary(before.role_names, after.role_names);
        await recordActivity(trx, scope, { resource: users.name, recordId: id, action: 'assigned-roles', summary });
        return { status: 200, body: { data: after } };
      });
    },
  );

  routes.post(
    '/api/users/reset-password',
    {
      config: { permission: 'update-users' },
      schema: {
        tags: ['users'],
        summary: 'Give a user a new temporary password (answered once)',
        body: userIdBody,
        response: {
          200: z.looseObject({ id: z.number().int(), temporary_password: z.string() }).describe('The new password, shown this once'),
          ...refusals(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => {
        const temporary = temporaryPassword();
        await resetSecret(trx, scope, request.body.id, 'password_hash', temporary);
        return { status: 200, body: { id: request.body.id, temporary_password: temporary } };
      });
    },
  );

  routes.post(
    '/api/users/reset-security-pin',
    {
      config: { permission: 'update-users' },
      schema: {
        tags: ['users'],
        summary: 'Give a user a new temporary security pin (answered once)',
        body: userIdBody,
        response: {
          200: z.looseObject({ id: z.number().int(), temporary_security_pin: z.string() }).describe('The new pin, shown this once'),
          ...refusals(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => {
        const temporary = temporaryPin();
        await resetSecret(trx, scope, request.body.id, 'security_pin_hash', temporary);
        return { status: 200, body: { id: request.body.id, temporary_security_pin: temporary } };
      });
    },
  );
}
