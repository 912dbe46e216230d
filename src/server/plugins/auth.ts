import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { holdsAny } from '../../domain/permissions';
import { hashToken } from '../auth/secrets';
import { nowIso } from '../db/dialect';
import type { Database } from '../db/schema';
import { forbidden, unauthenticated } from '../errors';
import type { Scope } from '../resources/store';
import { permissionNamesOf } from '../services/access.service';

/**
 * Who is calling and for which business, settled before a handler runs:
 * - `public` routes (health, sign-in, sign-out, the web app) need nothing;
 * - `user` routes need a session;
 * - `business` routes (every other /api route) also need a `Business-ID` the user is a member of,
 *   and get that business's permission names; a route's `permission` is checked right here, so
 *   a caller without it learns nothing from validation messages.
 * State-changing requests must also carry `X-Requested-With: XMLHttpRequest`: a cross-site form
 * cannot set it, which together with SameSite=Lax cookies closes the CSRF door.
 */

export type Access = 'public' | 'user' | 'business';

export interface Actor {
  userId: number;
  name: string;
  email: string;
  tokenHash: string;
}

export interface Tenant {
  businessId: number;
  permissions: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
  }
  interface FastifyRequest {
    actor: Actor | null;
    tenant: Tenant | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** Business routes: held (or the master permission) before the body is even read. */
    permission?: string;
  }
}

export const SESSION_COOKIE = 'bodega_session';
export const SESSION_DAYS = 30;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function findActor(db: Kysely<Database>, token: string | undefined): Promise<Actor | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.name', 'users.email'])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', nowIso())
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { userId: row.id, name: row.name, email: row.email, tokenHash } : null;
}

/** The business named by the header, when the user is a live member of a live business. */
export async function memberBusinessId(db: Kysely<Database>, userId: number, header: unknown): Promise<number | null> {
  if (typeof header !== 'string' || !/^\d{1,9}$/.test(header)) return null;
  const businessId = Number(header);
  const row = await db
    .selectFrom('memberships')
    .innerJoin('businesses', 'businesses.id', 'memberships.business_id')
    .select('memberships.business_id')
    .where('memberships.user_id', '=', userId)
    .where('memberships.business_id', '=', businessId)
    .where('memberships.deleted_at', 'is', null)
    .where('businesses.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? businessId : null;
}

/** Routes that say nothing: the API is for members of a business, the docs and the web app for all. */
function defaultAccess(url: string): Access {
  return url.startsWith('/api/') && !url.startsWith('/api/docs') ? 'business' : 'public';
}

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('tenant', null);

  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method) && request.headers['x-requested-with'] !== 'XMLHttpRequest') {
      throw forbidden('State-changing requests must carry the header X-Requested-With: XMLHttpRequest.');
    }
    const access = request.routeOptions.config?.access ?? defaultAccess(request.url);
    if (access === 'public') return;
    request.actor = await findActor(app.db, request.cookies[SESSION_COOKIE]);
    if (!request.actor) throw unauthenticated();
    if (access === 'user') return;
    const header = request.headers['business-id'];
    if (header === undefined) throw forbidden('Choose a business first: the Business-ID header is missing.');
    const businessId = await memberBusinessId(app.db, request.actor.userId, header);
    if (businessId === null) throw forbidden('You are not a member of this business.');
    request.tenant = { businessId, permissions: new Set(await permissionNamesOf(app.db, request.actor.userId, businessId)) };
    const required = request.routeOptions.config?.permission;
    if (required && !holdsAny(request.tenant.permissions, [required])) throw forbidden();
  });
}

export function scopeOf(request: FastifyRequest): Scope {
  if (!request.actor || !request.tenant) throw unauthenticated();
  return { userId: request.actor.userId, businessId: request.tenant.businessId, permissions: request.tenant.permissions };
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
}
