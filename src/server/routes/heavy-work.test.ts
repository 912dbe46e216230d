import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { ADMIN_EMAIL, databaseKinds, PASSWORD, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { buildApp } from '../app';
import type { DatabaseKind } from '../db/dialect';
import { HEAVY_LINES, RETRY_AFTER_SECONDS } from '../plugins/heavy-work';
import { businessZip } from '../resources/business-export';
import { seed } from '../seed';
import { giveWay, TURN_MS } from '../yielding';

/**
 * Heavy work beside everyday requests: an import's rows and a whole-business zip give the other
 * requests their turns, lists read beside an import's open transaction, a zip reads one moment
 * without holding up writes, and imports wait in a line of their own.
 */

/** Holds the event loop, as heavy work does between the times it gives way. */
function busyFor(ms: number): void {
  const started = performance.now();
  while (performance.now() - started < ms);
}

describe('giving way', () => {
  it('lets what waits for the event loop go first once heavy work has held it a turn', async () => {
    let waited = false;
    setImmediate(() => (waited = true));
    busyFor(TURN_MS + 1);
    await giveWay();
    expect(waited).toBe(true);
  });

  it('runs one piece of heavy work a turn, in the order they gave way, with the event loop’s other work between', async () => {
    const order: string[] = [];
    let working = 2;
    // Another request, waiting for every turn of the event loop while the work runs.
    const everyTurn = () => {
      order.push('turn');
      if (working > 0) setImmediate(everyTurn);
    };
    const work = async (name: string) => {
      for (let piece = 1; piece <= 3; piece++) {
        busyFor(TURN_MS + 1);
        order.push(`${name}${piece}`);
        await giveWay();
      }
      working -= 1;
    };
    setImmediate(everyTurn);
    await Promise.all([work('a'), work('b')]);
    const pieces = order.filter((entry) => entry !== 'turn');
    expect(pieces).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
    // After the first piece of each, never two pieces in one turn.
    const afterFirst = order.slice(order.indexOf('b1'));
    for (const [at, entry] of afterFirst.entries()) if (entry !== 'turn' && at > 0) expect(afterFirst[at - 1]).toBe('turn');
  });
});

/** A signed-in app on a database a second connection can read: a SQLite file, or PostgreSQL. */
interface Server {
  app: FastifyInstance;
  admin: Session;
  /** Whether a transaction has written and not yet ended. */
  writing(): Promise<boolean>;
  close(): Promise<void>;
}

function sessionOn(app: FastifyInstance, cookie: string, businessId: number): Session {
  const session: Session = {
    cookie,
    businessId,
    async send(method, url, body, headers = {}) {
      const response = await app.inject({
        method,
        url,
        payload: body as never,
        headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'business-id': String(businessId), ...headers },
      });
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        body: type.startsWith('application/json') ? response.json() : response.body,
        headers: response.headers,
      };
    },
    inBusiness: (other) => sessionOn(app, cookie, other!),
  };
  return session;
}

/** SQLite in memory has one connection only, so the tests that read beside a transaction run on a file. */
async function startOnFile(): Promise<Server> {
  const directory = mkdtempSync(join(tmpdir(), 'bodega-heavy-'));
  const path = join(directory, 'bodega.sqlite');
  const app = await buildApp({ database: { url: `file:${path}` }, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false });
  await seed(app.db, { adminEmail: ADMIN_EMAIL, adminPassword: PASSWORD, demoData: true });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ADMIN_EMAIL, password: PASSWORD },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0];
  const probe = new SQLite(path, { timeout: 0 });
  return {
    app,
    admin: sessionOn(app, cookie, login.json().user.business_id),
    async writing() {
      try {
        probe.exec('begin immediate');
        probe.exec('rollback');
        return false;
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
        throw error;
      }
    },
    async close() {
      probe.close();
      await app.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function startOnPostgres(): Promise<Server> {
  const { test, admin } = await startDemo('postgres');
  const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(test.app.db)).rows[0];
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  return {
    app: test.app,
    admin,
    async writing() {
      const { rows } = await client.query<{ writing: boolean }>(
        'select count(*) > 0 as writing from pg_stat_activity where application_name = $1 and backend_xid is not null',
        [`bodega/${schema}`],
      );
      return rows[0].writing;
    },
    async close() {
      await client.end();
      await (test as TestApp).close();
    },
  };
}

const startReadable = (kind: DatabaseKind) => (kind === 'sqlite' ? startOnFile() : startOnPostgres());

/** Item rows as the import screen sends them. */
const itemRows = (prefix: string, count: number, unit: string) =>
  Array.from({ length: count }, (_, index) => ({ sku: `${prefix}-${index + 1}`, name: `${prefix} item ${index + 1}`, unit }));

describe.each(databaseKinds)('heavy work beside other requests on %s', (kind) => {
  let server: Server;
  let unit: string;

  beforeAll(async () => {
    server = await startReadable(kind);
    unit = (await server.admin.send('GET', '/api/unit-of-measurements?limit=1&order_by=asc')).body.data[0].abbreviation;
  });
  afterAll(() => server?.close());

  it('puts in the zip of all data the business as it was when the zip began, holding up no one’s writes', async () => {
    const unitId = (await server.admin.send('GET', '/api/unit-of-measurements?limit=1&order_by=asc')).body.data[0].id;
    const kept = (await server.admin.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0].sku;
    const scope = { businessId: server.admin.businessId!, userId: 1, permissions: new Set([MASTER_PERMISSION]) };
    const zip = businessZip(server.app.db, scope, 'One moment');
    const chunks: Uint8Array[] = [];
    const text = () => Buffer.concat(chunks).toString('latin1');
    // Until the first file read from the database (brands.csv) has come out whole: the reads have begun.
    while (!text().includes('measuring-masses.csv')) {
      const next = await zip.next();
      if (next.done) throw new Error('The zip ended early.');
      chunks.push(next.value);
    }

    const made = await server.admin.send('POST', '/api/items', {
      sku: 'MADE-MEANWHILE',
      name: 'Made meanwhile',
      unit_of_measurement_id: unitId,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    for await (const chunk of zip) chunks.push(chunk);
    const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(strFromU8(files['items.csv'])).not.toContain('MADE-MEANWHILE');
    expect(strFromU8(files['items.csv'])).toContain(kept);
  });
  it('answers a list while an import of many rows has its transaction open, from what was there before it', async () => {
    const rows = itemRows('HEAVY', 20_000, unit);
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = {
      cookie: server.admin.cookie,
      'business-id': String(server.admin.businessId),
      'x-requested-with': 'XMLHttpRequest',
      'content-type': 'application/json',
    };
    const before = (await server.admin.send('GET', '/api/items')).body.meta.total;

    const importing = fetch(`${base}/api/imports/items`, { method: 'POST', headers, body: JSON.stringify({ rows }) }).then(
      async (response) => ({ status: response.status, body: await response.json() }),
    );
    let imported = false;
    void importing.finally(() => (imported = true));
    // Until the import's transaction has written (its lock taken, before its first row is checked).
    while (!imported && !(await server.writing())) await new Promise((resolve) => setImmediate(resolve));
    expect(imported, 'the import ended before anyone else had a turn').toBe(false);

    const listing = fetch(`${base}/api/items`, { headers }).then(async (response) => ({
      status: response.status,
      body: await response.json(),
    }));
    const first = await Promise.race([listing.then(() => 'the list'), importing.then(() => 'the import')]);
    expect(first).toBe('the list');
    const [list, done] = await Promise.all([listing, importing]);
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(before);
    expect(done.status, JSON.stringify(done.body).slice(0, 300)).toBe(200);
    expect(done.body.data.created).toBe(rows.length);
    expect((await server.admin.send('GET', '/api/items')).body.meta.total).toBe(before + rows.length);
  });
});

describe.each(databaseKinds)('the line of heavy requests on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let unit: string;

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    unit = (await admin.send('GET', '/api/unit-of-measurements?limit=1&order_by=asc')).body.data[0].abbreviation;
  });
  afterAll(() => test?.close());

  it('runs one import at a time: the next wait their turn, unread, and one more than the line holds is refused in words', async () => {
    const { atOnce, waiting } = HEAVY_LINES.import;
    expect(atOnce).toBe(1);
    // The first import's body comes only when the test sends it; it is read once the import has its turn.
    let reading!: () => void;
    const hasTurn = new Promise<void>((resolve) => (reading = resolve));
    const held = new Readable({ read: () => reading() });
    const first = admin.send('POST', '/api/imports/items', held, { 'content-type': 'application/json' });
    await hasTurn;

    const later = Array.from({ length: waiting + 1 }, (_, index) =>
      admin.send('POST', '/api/imports/items', { rows: itemRows(`LINE${index}`, 2, unit) }),
    );
    const refused = await Promise.race(later);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      `The server is busy with other imports (1 at a time, ${waiting} more waiting their turn); try again in a minute.`,
    );
    expect(refused.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));

    held.push(JSON.stringify({ rows: itemRows('LINE-FIRST', 2, unit) }));
    held.push(null);
    expect((await first).status).toBe(200);
    const answers = await Promise.all(later);
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array.from({ length: waiting }, () => 200), 429]);
    for (const answer of answers.filter((each) => each.status === 200)) expect(answer.body.data.created).toBe(2);
    expect(test.errorLines).toEqual([]);
  });

  it('answers every one of several zips of all data asked for at once, those beyond the line’s first waiting their turn', async () => {
    const { atOnce, waiting } = HEAVY_LINES.export;
    const answers = await Promise.all(Array.from({ length: atOnce + waiting }, () => admin.send('GET', '/api/businesses/export.zip')));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  });
});
