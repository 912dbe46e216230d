import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VIEW_COSTS_PERMISSION } from '../../domain/permissions';
import type { DatabaseKind } from '../db/dialect';
import { buildApp } from '../app';
import { seed } from '../seed';
import { ADMIN_EMAIL, PASSWORD, databaseKinds, permissionsOn, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { Demo } from '../../../tests/support/test-app';

/**
 * A list's answer is kept while the database does not change (kept-lists.ts): the same list asked
 * again reads nothing and gets the same bytes; a write through the API, or one made straight in
 * the database, shows at once; and no user is answered what was kept for another scope.
 */

/** The statements a request sent that name `table`: none, when its answer was a kept one. */
async function statementsOn(app: FastifyInstance, table: string, request: () => Promise<unknown>): Promise<number> {
  const executor = app.db.getExecutor();
  const executeQuery = executor.executeQuery.bind(executor);
  let sent = 0;
  executor.executeQuery = (async (query: { sql: string }) => {
    if (query.sql.includes(`"${table}"`)) sent++;
    return executeQuery(query as never);
  }) as typeof executor.executeQuery;
  try {
    await request();
  } finally {
    delete (executor as Partial<typeof executor>).executeQuery;
  }
  return sent;
}

/**
 * The answer of `request` asked again until one reads nothing of `table` (a kept one), or
 * undefined. On PostgreSQL the change mark is the whole server's: a test file writing in its own
 * schema meanwhile ends the answers kept here too, and the next one is read afresh.
 */
async function keptAnswer<T>(app: FastifyInstance, table: string, request: () => Promise<T>): Promise<T | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let answer: T | undefined;
    if ((await statementsOn(app, table, async () => (answer = await request()))) === 0) return answer;
  }
  return undefined;
}

/** Runs a statement past the server, as a script or another instance would: its own connection to the database. */
async function pastTheServer(kind: DatabaseKind, app: FastifyInstance, statement: string): Promise<void> {
  if (kind === 'sqlite') {
    // SQLite in memory has one connection only, the server's: the statement goes in as raw SQL, by no route.
    await sql.raw(statement).execute(app.db);
    return;
  }
  const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db)).rows[0];
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.each(databaseKinds)('a list kept while the database does not change (%s)', (kind) => {
  let demo: Demo;
  let businessId: number;

  beforeAll(async () => {
    demo = await startDemo(kind);
    [businessId] = demo.businesses;
  }, 60_000);
  afterAll(async () => {
    await demo?.test.close();
  });

  const list = (url: string, headers?: Record<string, string>) =>
    demo.test.app.inject({
      method: 'GET',
      url,
      headers: { cookie: demo.admin.cookie, 'business-id': String(businessId), ...headers },
    });

  it('answers the same list again from what it kept: nothing read, the same bytes, compressed as asked', async () => {
    const url = '/api/items?per_page=15&order_by=desc';
    let first: Awaited<ReturnType<typeof list>> | undefined;
    expect(await statementsOn(demo.test.app, 'items', async () => (first = await list(url)))).toBeGreaterThan(0);
    const again = await keptAnswer(demo.test.app, 'items', () => list(url));
    expect(again).toBeDefined();
    expect(first!.statusCode).toBe(200);
    expect(again!.statusCode).toBe(200);
    expect(again!.body).toBe(first!.body);
    expect(again!.headers['content-type']).toBe(first!.headers['content-type']);
    expect(again!.headers['content-length']).toBe(first!.headers['content-length']);
    expect(first!.json().data).toHaveLength(15);

    const compressed = await keptAnswer(demo.test.app, 'items', () => list(url, { 'accept-encoding': 'br' }));
    expect(compressed?.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed!.rawPayload).toString()).toBe(first!.body);

    // The same parameters spelt otherwise: the answer's links repeat the query as it was sent.
    const respelt = await list('/api/items?order_by=desc&per_page=15');
    expect(respelt.json().data).toEqual(first!.json().data);
    expect(respelt.json().links.next).toBe('/api/items?order_by=desc&per_page=15&page=2');
    expect(first!.json().links.next).toBe('/api/items?per_page=15&order_by=desc&page=2');
  });

  it('shows a record made through the API at once', async () => {
    const url = '/api/items?limit=5';
    const before = (await list(url)).json();
    expect(await keptAnswer(demo.test.app, 'items', () => list(url))).toBeDefined();
    const made = await demo.admin.send('POST', '/api/items', {
      ...before.data[0],
      sku: 'KEPT-1',
      barcode: null,
      name: 'Kept list item',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const after = (await list(url)).json();
    expect(after.data[0]).toMatchObject({ id: made.body.data.id, name: 'Kept list item' });
    expect(after.meta.total).toBe(before.meta.total + 1);
  });

  it('shows a change made straight in the database, past the server, at once', async () => {
    const url = '/api/items?limit=5';
    const [newest] = (await list(url)).json().data;
    expect(await keptAnswer(demo.test.app, 'items', () => list(url))).toBeDefined();
    await pastTheServer(kind, demo.test.app, `update items set name = 'Renamed past the server' where id = ${Number(newest.id)}`);
    expect((await list(url)).json().data[0]).toMatchObject({ id: newest.id, name: 'Renamed past the server' });
  });

  it('never answers one user what was kept for another kept to other places', async () => {
    const branches = await demo.test.app.db
      .selectFrom('stocks')
      .select('location_id')
      .where('business_id', '=', businessId)
      .where('location_type', '=', 'branch')
      .groupBy('location_id')
      .orderBy('location_id')
      .execute();
    expect(branches.length).toBeGreaterThanOrEqual(2);
    const at = (branch: number) => ({ all: null, grants: [{ type: 'branch' as const, id: branch, level: 'view' as const }] });
    const view = permissionsOn(['stocks'], ['view']);
    const [one, other] = [Number(branches[0].location_id), Number(branches[1].location_id)];
    const first = await userWithPermissions(demo.test, businessId, view, at(one));
    const second = await userWithPermissions(demo.test, businessId, view, at(other));
    const placesListed = async (session: typeof first.session) =>
      new Set(
        (await session.send('GET', '/api/stocks?per_page=100')).body.data.map(
          (row: { location_type: string; location_id: number }) => `${row.location_type} ${row.location_id}`,
        ),
      );
    expect(await placesListed(first.session)).toEqual(new Set([`branch ${one}`]));
    expect(await keptAnswer(demo.test.app, 'stocks', () => placesListed(first.session))).toEqual(new Set([`branch ${one}`]));
    expect(await placesListed(second.session)).toEqual(new Set([`branch ${other}`]));
    expect(await placesListed(first.session)).toEqual(new Set([`branch ${one}`]));
  });

  it('shows a permission given at the next request, even after answering a caller the server still believed', async () => {
    const { session, userId, grant } = await userWithPermissions(demo.test, businessId, permissionsOn(['invoices'], ['view']));
    const url = '/api/invoices?limit=5';
    const costs = async () => (await session.send('GET', url)).body.data.map((row: object) => 'cost_of_goods' in row);
    expect(await costs()).toEqual([false, false, false, false, false]);
    expect(await keptAnswer(demo.test.app, 'invoices', () => session.send('GET', url))).toBeDefined();

    // Given through the role, as the access screens do: shown from the next request on.
    await grant([...permissionsOn(['invoices'], ['view']), VIEW_COSTS_PERMISSION]);
    // The clock held, so the caller read next is believed until forgotten (it would be for two seconds).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await costs()).toEqual([true, true, true, true, true]);

      // Taken away past the server: the server still believes the caller it read, and the list it
      // answers meanwhile is the one that caller gets. Once it reads the caller again the database
      // has not changed since, but the answer kept for the caller as it was is not theirs.
      const role = await demo.test.app.db
        .selectFrom('user_roles')
        .select('role_id')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      await pastTheServer(
        kind,
        demo.test.app,
        `delete from role_permissions where role_id = ${Number(role.role_id)}
          and permission_id in (select id from permissions where name = '${VIEW_COSTS_PERMISSION}')`,
      );
      expect(await costs()).toEqual([true, true, true, true, true]);
      demo.test.app.forgetCallers();
      expect(await costs()).toEqual([false, false, false, false, false]);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** On a SQLite file another connection can write: the reading connection's `data_version` tells the server. */
describe('a list kept on a SQLite file', () => {
  let directory: string;
  let path: string;
  let app: FastifyInstance;
  let headers: Record<string, string>;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'bodega-kept-lists-'));
    path = join(directory, 'bodega.sqlite');
    app = await buildApp({ database: { url: `file:${path}` }, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false });
    await seed(app.db, { adminEmail: ADMIN_EMAIL, adminPassword: PASSWORD, demoData: true });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ADMIN_EMAIL, password: PASSWORD },
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    headers = { cookie: String(login.headers['set-cookie']).split(';')[0], 'business-id': String(login.json().user.business_id) };
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('shows at once a change another connection made to the file', async () => {
    const list = async () => (await app.inject({ method: 'GET', url: '/api/items?limit=5', headers })).json();
    const [newest] = (await list()).data;
    expect(await keptAnswer(app, 'items', list)).toBeDefined();
    const other = new SQLite(path);
    try {
      other.prepare('update items set name = ? where id = ?').run('Renamed by another connection', newest.id);
    } finally {
      other.close();
    }
    expect((await list()).data[0]).toMatchObject({ id: newest.id, name: 'Renamed by another connection' });
  });
});
