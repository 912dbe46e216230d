import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { AppConfig } from '../../src/server/config';
import type { DatabaseKind } from '../../src/server/db/dialect';
import type { Database } from '../../src/server/db/schema';
import type { Db } from '../../src/server/db/scope';
import { adjustCount } from '../../src/server/resources/resource-counts';
import { seed } from '../../src/server/seed';
import { EVERY_PLACE, PLACE_RESOURCES, type PlaceAccess, type PlaceType } from '../../src/domain/places';
import { permissionName, type PermissionAction } from '../../src/domain/permissions';
import { getResource } from '../../src/domain/resources/registry';

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

/** An app without the demo data (the admin's business holds only what seeding gives every business), the admin signed in to it. */
export async function startEmpty(kind: DatabaseKind): Promise<{ test: TestApp; admin: Session; businessId: number }> {
  const test = await startTestApp(kind, { demoData: false });
  const admin = await test.signIn(ADMIN_EMAIL);
  return { test, admin, businessId: admin.businessId! };
}

/** An app with the demo data, its two demo businesses, and the admin signed in to the first. */
export interface Demo {
  test: TestApp;
  admin: Session;
  businesses: [number, number];
  /** The admin's user id. */
  adminId: number;
}

/** The start most suites make: `startTestApp(kind, options)`, the demo businesses, the admin signed in to the first. */
export async function startDemo(kind: DatabaseKind, options?: Parameters<typeof startTestApp>[1]): Promise<Demo> {
  const test = await startTestApp(kind, options);
  const businesses = await demoBusinessIds(test);
  const { id: adminId } = await test.app.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
  return { test, admin: await test.signIn(ADMIN_EMAIL, undefined, businesses[0]), businesses, adminId };
}

/** How many rows `table` holds, of every business. */
export async function rowCount(db: Db, table: keyof Database): Promise<number> {
  return Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/** Posts `body` to `url` as `session`, expects the record made (201), and returns it. */
export async function created(session: Session, url: string, body: unknown): Promise<any> {
  const answer = await session.send('POST', url, body);
  expect(answer.status, `${url} ${JSON.stringify(answer.body)}`).toBe(201);
  return answer.body.data;
}

/** The first record of `resource` (the lowest id) that the session sees. */
export async function firstOf(session: Session, resource: string): Promise<any> {
  return (await session.send('GET', `/api/${resource}?limit=1&order_by=asc`)).body.data[0];
}

/** The id of the branch or warehouse named `name` (exactly). */
export async function placeNamed(session: Session, type: PlaceType, name: string): Promise<number> {
  return (await session.send('GET', `/api/${PLACE_RESOURCES[type]}?name=${encodeURIComponent(name)}&is_strict=1`)).body.data[0].id;
}

/** The two ends of a stock request or transfer, as its body names them. */
export function betweenPlaces(from: { type: string; id: number }, to: { type: string; id: number }) {
  return { from_location_type: from.type, from_location_id: from.id, to_location_type: to.type, to_location_id: to.id };
}

/** A branch or a warehouse, as documents and grants name it. */
export type Place = { type: PlaceType; id: number };

/** Every branch and warehouse the session sees, by name. */
export async function placesByName(session: Session): Promise<Record<string, Place>> {
  const rows: (Place & { name: string })[] = (await session.send('GET', '/api/places')).body.data;
  return Object.fromEntries(rows.map((row) => [row.name, { type: row.type, id: row.id }]));
}

/** The field a document made at `place` names it by: `{ branch_id }` or `{ warehouse_id }`. */
export function atPlace(place: Place): { branch_id: number } | { warehouse_id: number } {
  return place.type === 'branch' ? { branch_id: place.id } : { warehouse_id: place.id };
}

/** Puts `quantity` of `item` at `place` by a stock adjustment, expected made. */
export async function stockUp(
  session: Session,
  place: Place,
  item: { id: number; unit_of_measurement_id: number },
  quantity: number,
  { date = '2026-11-01', reason = 'opening_balance' }: { date?: string; reason?: string } = {},
): Promise<void> {
  const line = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity, reason };
  await created(session, '/api/stock-adjustments', { ...atPlace(place), date, lines: [line] });
}

/** What there is of the item `itemId` at `place`: on hand, and on its way there (0 where it has no stock row). */
export async function stockLevel(session: Session, itemId: number, place: Place): Promise<{ onHand: number; inTransit: number }> {
  const row = await stockRow(session, itemId, place);
  return { onHand: row?.quantity_on_hand ?? 0, inTransit: row?.quantity_in_transit ?? 0 };
}

/** What of the item `itemId` at `place` may be sold, moved or counted: on hand less quarantined (0 where it has no stock row). */
export async function sellableAt(session: Session, itemId: number, place: Place): Promise<number> {
  const row = await stockRow(session, itemId, place);
  return (row?.quantity_on_hand ?? 0) - (row?.quantity_quarantined ?? 0);
}

async function stockRow(session: Session, itemId: number, place: Place) {
  const query = `item_id=${itemId}&location_type=${place.type}&location_id=${place.id}&is_strict=1`;
  return (await session.send('GET', `/api/stocks?${query}`)).body.data[0];
}

/** What `startSellingDemo` adds to the demo: the first business's id, its first branch and the new item stocked there. */
export interface SellingDemo extends Demo {
  businessId: number;
  branchId: number;
  item: { id: number; unit_of_measurement_id: number };
}

/**
 * The start of the suites that sell: `startDemo(kind)`, and a new item (`sku`, `name`, in the first
 * unit, VAT as the item form's default) with `quantity` of it at the business's first branch.
 */
export async function startSellingDemo(kind: DatabaseKind, item: { sku: string; name: string }, quantity = 500): Promise<SellingDemo> {
  const demo = await startDemo(kind);
  const branchId = (await firstOf(demo.admin, 'branches')).id;
  const made = await created(demo.admin, '/api/items', { ...item, unit_of_measurement_id: 1 });
  const stocked = { id: made.id as number, unit_of_measurement_id: made.unit_of_measurement_id as number };
  await stockUp(demo.admin, { type: 'branch', id: branchId }, stocked, quantity);
  return { ...demo, businessId: demo.businesses[0], branchId, item: stocked };
}

/** The id of the contact type every business is seeded with, "Customer" or "Supplier", in the session's business. */
export async function contactTypeId(session: Session, type: 'Customer' | 'Supplier'): Promise<number> {
  return (await session.send('GET', `/api/contact-types?name=${type}&is_strict=1&limit=1`)).body.data[0].id;
}

/** Makes a contact named `name` of a type every business is seeded with ("Customer" or "Supplier"); returns its id. */
export async function newContact(session: Session, type: 'Customer' | 'Supplier', name: string): Promise<number> {
  return (await created(session, '/api/contacts', { contact_type_id: await contactTypeId(session, type), name })).id;
}

/** Makes an item in the first unit (`values`: its SKU, name and any other field) with `quantity` of it at `place`; returns its id. */
export async function stockedItem(
  session: Session,
  place: Place,
  values: { sku: string; name: string } & Record<string, unknown>,
  quantity: number,
): Promise<number> {
  const made = await created(session, '/api/items', { ...values, unit_of_measurement_id: 1 });
  await stockUp(session, place, { id: made.id, unit_of_measurement_id: 1 }, quantity);
  return made.id;
}

/**
 * `startDemo(kind)`, the first business's first place of `type`, and a new item of each of `items`
 * (its SKU, name and any other field) made by `stockedItem` with `quantity` of it there: their ids by key.
 */
export async function startWithStockAt<Key extends string>(
  kind: DatabaseKind,
  type: PlaceType,
  items: Record<Key, { sku: string; name: string } & Record<string, unknown>>,
  quantity: number,
) {
  const demo = await startDemo(kind);
  const place: Place = { type, id: (await firstOf(demo.admin, PLACE_RESOURCES[type])).id };
  const ids = {} as Record<Key, number>;
  for (const [key, values] of Object.entries(items) as [Key, (typeof items)[Key]][])
    ids[key] = await stockedItem(demo.admin, place, values, quantity);
  return { ...demo, businessId: demo.businesses[0], place, items: ids };
}

/** The start of the suites of where goods are: `startDemo(kind)`, the first business's id, its places by name, and its first item. */
export async function startWithPlaces(kind: DatabaseKind) {
  const demo = await startDemo(kind);
  const places = await placesByName(demo.admin);
  const item: { id: number; unit_of_measurement_id: number; name: string } = await firstOf(demo.admin, 'items');
  return { ...demo, businessId: demo.businesses[0], places, item };
}

/** The first contact of a type ("Customer", "Supplier") in the session's business: documents take only their own kind. */
export async function contactOfType(session: Session, type: 'Customer' | 'Supplier'): Promise<number> {
  const typeId = await contactTypeId(session, type);
  return (await session.send('GET', `/api/contacts?contact_type_id=${typeId}&limit=1&order_by=asc`)).body.data[0].id;
}

/** Every permission of `actions` (view, create, update and delete unless said) on each resource named. */
export function permissionsOn(resources: string[], actions: PermissionAction[] = ['view', 'create', 'update', 'delete']): string[] {
  return resources.flatMap((name) => actions.map((action) => permissionName(action, getResource(name).permission)));
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
    const ids = names.length === 0 ? [] : await db.selectFrom('permissions').select('id').where('name', 'in', names).execute();
    if (ids.length > 0)
      await db
        .insertInto('role_permissions')
        .values(ids.map((row) => ({ role_id: role.id, permission_id: row.id })))
        .execute();
    // Written past the server, which would otherwise believe the permissions it read for up to two seconds.
    test.app.forgetCallers();
  };
  await grant(permissions);
  const signedIn = await test.signIn(`limited-${tag}@example.com`, PASSWORD, businessId);
  return { session: signedIn, userId: user.id, grant };
}
