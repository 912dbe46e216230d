import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app';
import type { AppConfig } from '../../src/server/config';
import type { DatabaseKind } from '../../src/server/db/dialect';
import { adjustCount } from '../../src/server/resources/resource-counts';
import { seed } from '../../src/server/seed';
import { EVERY_PLACE, type PlaceAccess } from '../../src/domain/places';

/**
 * A fresh, migrated and seeded app per test file: SQLite in memory always, and PostgreSQL in a
 * schema of its own when TEST_DATABASE_URL is set (so parallel runs never collide).
 */

export const ADMIN_EMAIL = 'admin@example.com';
export const PASSWORD = 'test-password';

export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface Answer {
  status: number;
  body: any;
  headers: LightMyRequestResponse['headers'];
}

export interface Session {
  cookie: string;
  businessId: number | undefined;
  /** Sends with the session cookie, X-Requested-With and Business-ID (unless overridden). */
  send(method: InjectOptions['method'], url: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  inBusiness(businessId: number | undefined): Session;
}

export interface TestApp {
  app: FastifyInstance;
  kind: DatabaseKind;
  /** Signs in and binds the first business of the user (or the one given). */
  signIn(email: string, password?: string, businessId?: number): Promise<Session>;
  /**
   * Another server instance on the same PostgreSQL schema and settings, as behind a load
   * balancer: `on` sends a session's requests through it. SQLite in memory cannot be shared, so it refuses.
   */
  secondInstance(): Promise<{ app: FastifyInstance; on(session: Session): Session; close(): Promise<void> }>;
  /** Error-level lines the server logged (none, for anything a client can send). */
  errorLines: string[];
  close(): Promise<void>;
}

function answer(response: LightMyRequestResponse): Answer {
  const text = response.body;
  return { status: response.statusCode, body: text ? safeJson(text) : undefined, headers: response.headers };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function session(app: FastifyInstance, cookie: string, businessId: number | undefined): Session {
  return {
    cookie,
    businessId,
    async send(method, url, body, headers = {}) {
      const response = await app.inject({
        method,
        url,
        payload: body === undefined ? undefined : (body as InjectOptions['payload']),
        headers: {
          cookie,
          'x-requested-with': 'XMLHttpRequest',
          ...(businessId === undefined ? {} : { 'business-id': String(businessId) }),
          ...headers,
        },
      });
      return answer(response);
    },
    inBusiness: (other) => session(app, cookie, other),
  };
}

/** `config`: settings other than the database, for tests of how the server is reached (https, proxies). */
export async function startTestApp(
  kind: DatabaseKind,
  { demoData = true, ...config }: { demoData?: boolean } & Partial<Omit<AppConfig, 'database'>> = {},
): Promise<TestApp> {
  let schema: string | undefined;
  let url = 'file::memory:';
  if (kind === 'postgres') {
    url = process.env.TEST_DATABASE_URL as string;
    schema = `bodega_test_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const errorLines: string[] = [];
  const logger = { level: 'error', stream: { write: (line: string) => void errorLines.push(line) } };
  const app = await buildApp({ database: { url, schema }, loginAttemptsPerMinute: 1000, secureCookies: false, logger, ...config });
  await seed(app.db, { adminEmail: ADMIN_EMAIL, adminPassword: PASSWORD, demoData });

  return {
    app,
    kind,
    errorLines,
    async signIn(email, password = PASSWORD, businessId) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password },
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      if (response.statusCode !== 200) throw new Error(`Sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
      const cookie = String(response.headers['set-cookie']).split(';')[0];
      return session(app, cookie, businessId ?? response.json().user.business_id ?? undefined);
    },
    async secondInstance() {
      if (kind !== 'postgres') throw new Error('A second instance needs a shared database (PostgreSQL).');
      const twin = await buildApp({ database: { url, schema }, loginAttemptsPerMinute: 1000, secureCookies: false, logger, ...config });
      return { app: twin, on: (other: Session) => session(twin, other.cookie, other.businessId), close: () => twin.close() };
    },
    async close() {
      await app.close();
      if (schema) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      }
    },
  };
}

/** Ids of the demo businesses: the admin's first (full catalogue) and second (hardware). */
export async function demoBusinessIds(test: TestApp): Promise<[number, number]> {
  const rows = await test.app.db.selectFrom('businesses').select('id').orderBy('id').execute();
  return [rows[0].id, rows[1].id];
}

/** An app with the demo data, its two demo businesses, and the admin signed in to the first. */
export interface Demo {
  test: TestApp;
  admin: Session;
  businesses: [number, number];
}

/** The start most suites make: `startTestApp(kind, options)`, the demo businesses, the admin signed in to the first. */
export async function startDemo(kind: DatabaseKind, options?: Parameters<typeof startTestApp>[1]): Promise<Demo> {
  const test = await startTestApp(kind, options);
  const businesses = await demoBusinessIds(test);
  return { test, admin: await test.signIn(ADMIN_EMAIL, undefined, businesses[0]), businesses };
}

/** The first contact of a type ("Customer", "Supplier") in the session's business: documents take only their own kind. */
export async function contactOfType(session: Session, type: 'Customer' | 'Supplier'): Promise<number> {
  const types = (await session.send('GET', `/api/contact-types?name=${type}&is_strict=1&limit=1`)).body.data;
  return (await session.send('GET', `/api/contacts?contact_type_id=${types[0].id}&limit=1&order_by=asc`)).body.data[0].id;
}

/**
 * A user in `businessId` holding exactly `permissions` through a role of their own; returns a
 * signed-in session and a setter that swaps the role's permissions between requests. `places`:
 * where they work (every place to operate unless said).
 */
export async function userWithPermissions(test: TestApp, businessId: number, permissions: string[], places: PlaceAccess = EVERY_PLACE) {
  const { db } = test.app;
  const now = new Date().toISOString();
  const stamp = { created_at: now, updated_at: now, version: 1 };
  const tag = randomBytes(4).toString('hex');
  const admin = await db.selectFrom('users').select('password_hash').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      name: `Limited ${tag}`,
      email: `limited-${tag}@example.com`,
      username: null,
      password_hash: admin.password_hash,
      security_pin_hash: null,
      ...stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('memberships')
    .values({
      user_id: user.id,
      business_id: businessId,
      userable_type: 'none',
      userable_id: null,
      all_places: places.all ?? 'none',
      ...stamp,
    })
    .execute();
  if (places.grants.length > 0) {
    await db
      .insertInto('user_places')
      .values(
        places.grants.map((grant) => ({
          business_id: businessId,
          user_id: user.id,
          place_type: grant.type,
          place_id: grant.id,
          level: grant.level,
          created_at: now,
        })),
      )
      .execute();
  }
  const role = await db
    .insertInto('roles')
    .values({ business_id: businessId, name: `Limited ${tag}`, description: null, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
  await adjustCount(db as never, businessId, 'roles', 1, 0);
  const grant = async (names: string[]) => {
    await db.deleteFrom('role_permissions').where('role_id', '=', role.id).execute();
    if (names.length === 0) return;
    const ids = await db.selectFrom('permissions').select('id').where('name', 'in', names).execute();
    await db
      .insertInto('role_permissions')
      .values(ids.map((row) => ({ role_id: role.id, permission_id: row.id })))
      .execute();
  };
  await grant(permissions);
  const signedIn = await test.signIn(`limited-${tag}@example.com`, PASSWORD, businessId);
  return { session: signedIn, userId: user.id, grant };
}
