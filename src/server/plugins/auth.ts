import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { holdsAny, MASTER_PERMISSION } from '../../domain/permissions';
import { EVERY_PLACE, isPlaceType, type PlaceAccess, type PlaceLevel } from '../../domain/places';
import { hashToken } from '../auth/secrets';
import { nowIso } from '../db/dialect';
import type { Database } from '../db/schema';
import { forbidden, unauthenticated } from '../errors';
import type { ChangeOrigin, Scope } from '../db/scope';

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
  places: PlaceAccess;
}

/** What a registered route asks of its caller, as it was declared. */
export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
  permission?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    /** Every route registered after the auth plugin, with the access it declares. */
    routeAccess: RouteAccess[];
    /**
     * Forgets the callers kept lately (`KnownCallers`), as every state-changing request does: for
     * a change to sessions, memberships, roles or places made on this instance outside a request.
     */
    forgetCallers(): void;
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
/** The methods that change nothing: every other one must carry `X-Requested-With: XMLHttpRequest`. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

const asLevel = (value: unknown): PlaceLevel | null => (value === 'view' || value === 'operate' ? value : null);

interface CallerRow {
  id: number;
  name: string;
  email: string;
  expires_at: unknown;
  member_of: number | null;
  all_places: string | null;
  permission: string | null;
}

interface Caller {
  actor: Actor;
  member: boolean;
  permissions: ReadonlySet<string>;
  allPlaces: PlaceLevel | null;
  /** When the session ends (ms). */
  endsAt: number;
}

/**
 * The session's user and, for a business, whether they are a live member of it (a live
 * business) and their permission names there — one statement, a row per permission (one row
 * with none when they hold none or are no member).
 */
async function findCaller(db: Kysely<Database>, tokenHash: string, businessId: number | null): Promise<Caller | null> {
  const { rows } = await sql<CallerRow>`
    select u.id, u.name, u.email, s.expires_at, m.business_id as member_of, m.all_places, p.name as permission
    from sessions s
    join users u on u.id = s.user_id and u.deleted_at is null
    left join memberships m on m.user_id = u.id and m.business_id = ${businessId} and m.deleted_at is null
      and exists (select 1 from businesses b where b.id = m.business_id and b.deleted_at is null)
    left join user_roles ur on ur.user_id = m.user_id
    left join roles r on r.id = ur.role_id and r.business_id = m.business_id and r.deleted_at is null
    left join role_permissions rp on rp.role_id = r.id
    left join permissions p on p.id = rp.permission_id
    where s.token_hash = ${tokenHash} and s.expires_at > ${nowIso()}`.execute(db);
  if (rows.length === 0) return null;
  const [first] = rows;
  return {
    actor: { userId: Number(first.id), name: first.name, email: first.email, tokenHash },
    member: first.member_of !== null,
    permissions: new Set(rows.flatMap((row) => (row.permission ? [row.permission] : []))),
    allPlaces: asLevel(first.all_places),
    endsAt: first.expires_at instanceof Date ? first.expires_at.getTime() : Date.parse(String(first.expires_at)),
  };
}

/** How long a caller, once read, answers for the same session and business on this instance. */
const CALLER_LIFE_MS = 2_000;
const CALLERS_KEPT = 10_000;

interface KnownCaller {
  caller: Caller;
  /** The caller's places in the business, once a business route has read them. */
  places?: PlaceAccess;
  until: number;
}

/**
 * Callers read lately, by session and business: the session's statement took one round trip of
 * every request, and more work than a list's page on PostgreSQL. An entry lives CALLER_LIFE_MS
 * (never past its session's end), and every state-changing request on this instance forgets them
 * all before its answer goes out, so a sign-out, a role changed or a member removed here counts
 * from the next request on. Another instance of the same database sees such a change within
 * CALLER_LIFE_MS. A read that began before a forgetting is not kept (the generation moved).
 */
class KnownCallers {
  readonly #entries = new Map<string, KnownCaller>();
  #generation = 0;

  get generation(): number {
    return this.#generation;
  }

  find(key: string): KnownCaller | undefined {
    const known = this.#entries.get(key);
    if (known && known.until > Date.now()) return known;
    if (known) this.#entries.delete(key);
    return undefined;
  }

  keep(key: string, generation: number, known: Omit<KnownCaller, 'until'>): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= CALLERS_KEPT) this.#entries.clear();
    this.#entries.set(key, { ...known, until: Math.min(Date.now() + CALLER_LIFE_MS, known.caller.endsAt) });
  }

  forgetAll(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/** The user a session token is signed in as, while the session lasts: null for none, an ended one or a removed user. */
export async function sessionUserId(db: Kysely<Database>, token: string | undefined): Promise<number | null> {
  if (!token) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('users.id')
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.expires_at', '>', nowIso())
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * The places the user holds in the business: a master, or a member holding every place to
 * operate, needs nothing more read; anyone else's single places are one indexed read.
 */
export async function placeAccessIn(
  db: Kysely<Database>,
  userId: number,
  businessId: number,
  permissions: ReadonlySet<string>,
  allPlaces: PlaceLevel | null,
): Promise<PlaceAccess> {
  if (allPlaces === 'operate' || permissions.has(MASTER_PERMISSION)) return EVERY_PLACE;
  const rows = await db
    .selectFrom('user_places')
    .select(['place_type', 'place_id', 'level'])
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .execute();
  const grants = rows.flatMap((row) => {
    const level = asLevel(row.level);
    return isPlaceType(row.place_type) && level ? [{ type: row.place_type, id: Number(row.place_id), level }] : [];
  });
  return { all: allPlaces, grants };
}

/** A header that can name a business: a whole number of up to nine digits. */
function businessIdFrom(header: unknown): number | null {
  return typeof header === 'string' && /^\d{1,9}$/.test(header) ? Number(header) : null;
}

/** The business named by the header, when the user is a live member of a live business. */
export async function memberBusinessId(db: Kysely<Database>, userId: number, header: unknown): Promise<number | null> {
  const businessId = businessIdFrom(header);
  if (businessId === null) return null;
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

/** What a route asks of its caller: what it declares, or what its path says when it declares nothing. */
export function accessOf(route: { url: string; config?: FastifyContextConfig }): Access {
  return route.config?.access ?? defaultAccess(route.url);
}

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('tenant', null);
  app.decorate('routeAccess', []);
  app.addHook('onRoute', (route) => {
    const access = accessOf(route);
    for (const method of [route.method].flat())
      app.routeAccess.push({ method, url: route.url, access, permission: route.config?.permission });
  });

  const known = new KnownCallers();
  app.decorate('forgetCallers', () => known.forgetAll());
  app.addHook('onSend', async (request) => {
    if (!SAFE_METHODS.has(request.method)) known.forgetAll();
  });
  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method) && request.headers['x-requested-with'] !== 'XMLHttpRequest') {
      throw forbidden('State-changing requests must carry the header X-Requested-With: XMLHttpRequest.');
    }
    const access = request.routeOptions.config?.access ?? defaultAccess(request.url);
    if (access === 'public') return;
    const header = request.headers['business-id'];
    const businessId = access === 'business' ? businessIdFrom(header) : null;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw unauthenticated();
    const tokenHash = hashToken(token);
    const key = `${tokenHash}:${businessId ?? ''}`;
    const generation = known.generation;
    const found = known.find(key);
    const caller = found?.caller ?? (await findCaller(app.db, tokenHash, businessId));
    if (!caller) throw unauthenticated();
    request.actor = caller.actor;
    if (access === 'user') {
      if (!found) known.keep(key, generation, { caller });
      return;
    }
    if (header === undefined) throw forbidden('Choose a business first: the Business-ID header is missing.');
    if (businessId === null || !caller.member) throw forbidden('You are not a member of this business.');
    const places = found?.places ?? (await placeAccessIn(app.db, caller.actor.userId, businessId, caller.permissions, caller.allPlaces));
    if (!found?.places) known.keep(key, generation, { caller, places });
    request.tenant = { businessId, permissions: caller.permissions, places };
    const required = request.routeOptions.config?.permission;
    if (required && !holdsAny(caller.permissions, [required])) throw forbidden();
  });
}

/** A device clock running ahead by more than this is not believed. */
const MADE_AT_TOLERANCE_MS = 5 * 60 * 1000;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * When an outbox replays a change, `X-Made-At` says when it was made on the device and
 * `X-Made-Offline: true` that the device was offline then. Only history reads them, so a junk or
 * future time is ignored rather than refused: a change is never lost over a wrong clock.
 */
function originOf(request: FastifyRequest): ChangeOrigin | undefined {
  const header = request.headers['x-made-at'];
  if (typeof header !== 'string' || !ISO_8601.test(header)) return undefined;
  const madeAt = Date.parse(header);
  if (Number.isNaN(madeAt) || madeAt > Date.now() + MADE_AT_TOLERANCE_MS) return undefined;
  return { madeAt: new Date(madeAt).toISOString(), offline: request.headers['x-made-offline'] === 'true' };
}

export function scopeOf(request: FastifyRequest): Scope {
  if (!request.actor || !request.tenant) throw unauthenticated();
  const scope: Scope = {
    userId: request.actor.userId,
    businessId: request.tenant.businessId,
    permissions: request.tenant.permissions,
    places: request.tenant.places,
    sessionTokenHash: request.actor.tokenHash,
  };
  const origin = originOf(request);
  if (origin) scope.origin = origin;
  return scope;
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
