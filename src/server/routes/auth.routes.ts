import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { CONTROL_CHARACTERS } from '../../domain/fields';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { DECOY_HASH, hashToken, newSessionToken, verifySecret } from '../auth/secrets';
import type { AppConfig } from '../config';
import { nowIso } from '../db/dialect';
import type { Database } from '../db/schema';
import { forbidden, HttpError, unauthenticated } from '../errors';
import { memberBusinessId, SESSION_COOKIE, SESSION_DAYS, setSessionCookie } from '../plugins/auth';
import { findRecordOrFail } from '../resources/record-service';
import { permissionNamesOf } from '../services/access.service';
import { businesses } from '../../domain/resources/businesses';
import { users } from '../../domain/resources/users';
import { businessesOf } from './business.routes';
import { noContent, recordSchema, refusals } from './responses';

const credentials = z.object({
  email: z
    .string({ error: 'The email field is required.' })
    .trim()
    .min(1, 'The email field is required.')
    .max(255)
    .refine((email) => !CONTROL_CHARACTERS.test(email), 'The email field must be a valid email address.')
    .toLowerCase(),
  password: z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.').max(200),
});

/** Typed loosely: `userProfile` reads where the user works and their roles from a users record. */
const profile: z.ZodType<Record<string, unknown>> = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    business_id: z.number().int().nullable().describe('The business this profile is for; null when the user belongs to none'),
    userable_from: z.string().nullable().describe('Where they work there, as "Branch: Makati"'),
    userable_type: z.enum(['branch', 'warehouse', 'none']).nullable().describe('The kind of place they work at there'),
    userable_id: z.number().int().nullable().describe('The branch or warehouse they work at there'),
    role_names: z.array(z.string()),
    permission_names: z.array(z.string()).describe('What they may do there'),
    places: z
      .looseObject({ all: z.enum(['view', 'operate']).nullable(), grants: z.array(z.looseObject({})) })
      .nullable()
      .describe('The places they work at there, as a user record says them (a master: every place to operate); null without a business'),
    businesses: z.array(recordSchema(businesses)).describe('Every business they belong to'),
  })
  .describe('The signed-in user');

/** The signed-in user in their first business, as `GET /api/auth/user` answers without a Business-ID. */
export async function firstBusinessProfile(db: Kysely<Database>, userId: number): Promise<Record<string, unknown>> {
  return profile.parse(await userProfile(db, userId, undefined));
}

/** The signed-in user as the web app keeps it, for one of their businesses. */
export async function userProfile(db: Kysely<Database>, userId: number, requestedBusiness: unknown) {
  const user = await db.selectFrom('users').select(['id', 'name', 'email', 'username']).where('id', '=', userId).executeTakeFirstOrThrow();
  const businesses = await businessesOf(db, userId);
  let businessId: number | null = businesses[0]?.id ?? null;
  if (requestedBusiness !== undefined) {
    businessId = await memberBusinessId(db, userId, requestedBusiness);
    if (businessId === null) throw forbidden('You are not a member of this business.');
  }
  if (businessId === null)
    return {
      ...user,
      business_id: null,
      userable_from: null,
      userable_type: null,
      userable_id: null,
      role_names: [],
      permission_names: [],
      places: null,
      businesses,
    };
  // Read through the users resource, which names where the user works and their roles there.
  const scope = { businessId, userId, permissions: new Set<string>() };
  const member = await findRecordOrFail(db, scope, users, userId, 'active');
  const permissionNames = await permissionNamesOf(db, userId, businessId);
  return {
    ...user,
    business_id: businessId,
    userable_from: member.userable_from,
    userable_type: member.userable_type,
    userable_id: member.userable_id,
    role_names: member.role_names,
    permission_names: permissionNames,
    // A master works at every place, whatever their own grants say.
    places: permissionNames.includes(MASTER_PERMISSION) ? { all: 'operate', grants: [] } : member.places,
    businesses,
  };
}

export async function authRoutes(app: FastifyInstance, config: AppConfig): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: { max: config.loginAttemptsPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in; sets the HttpOnly session cookie',
        body: credentials,
        response: { 200: z.looseObject({ user: profile }).describe('Signed in'), ...refusals(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const user = await app.db
        .selectFrom('users')
        .select(['id', 'password_hash'])
        .where('email', '=', email)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      // Hash even for an unknown email, so the answer's timing does not tell which part was wrong.
      const valid = await verifySecret(password, user?.password_hash ?? DECOY_HASH);
      if (!user || !valid) throw new HttpError(401, 'These credentials do not match our records.');
      const token = newSessionToken();
      const now = new Date();
      await app.db
        .insertInto('sessions')
        .values({
          token_hash: hashToken(token),
          user_id: user.id,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
        })
        .execute();
      await app.db.deleteFrom('sessions').where('user_id', '=', user.id).where('expires_at', '<', nowIso()).execute();
      setSessionCookie(reply, token, config.secureCookies || request.protocol === 'https');
      return { user: await userProfile(app.db, user.id, undefined) };
    },
  );

  routes.get(
    '/api/auth/user',
    {
      config: { access: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user for the business in Business-ID (or their first)',
        readsHeaders: ['Business-ID'],
        response: { 200: profile, ...refusals(401, 403) },
      },
    },
    async (request) => {
      if (!request.actor) throw unauthenticated();
      return userProfile(app.db, request.actor.userId, request.headers['business-id']);
    },
  );

  routes.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Sign out: ends the session', response: { 204: noContent('Signed out'), ...refusals(403) } },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await app.db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    },
  );
}
