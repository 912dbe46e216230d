import { join } from 'node:path';
import { sql } from 'kysely';
import { freshDatabases } from '../../../tests/support/fresh-databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../../tests/support/png';
import { databaseKinds } from '../../../tests/support/test-app';
import { buildApp } from '../app';
import { openDatabase, type DatabaseConfig } from '../db/dialect';
import { migrateToLatest } from '../db/migrate';
import { seed } from '../seed';
import { copyDatabase, type CopyReport } from './copy-database';

/**
 * Copying a whole database: the seeded demo data (with an attachment's bytes) from SQLite into a
 * new PostgreSQL schema and from there into a new SQLite file — equal counts, a clean audit, and
 * copies that answer exactly as the original does, their change logs a new history that a device
 * of the source downloads again — and the refusals.
 */

const ADMIN = { email: 'admin@example.com', password: 'copy-password' };
const BOUNDARY = '----bodega-copy-boundary';
const attachment = Buffer.concat([png(20, 10), Buffer.from([0, 1, 2, 254, 255])]);
const databases = freshDatabases('copy');
afterAll(() => databases.removeAll());
const { directory, sqliteFile, postgresSchema } = databases;
const postgres = databaseKinds.includes('postgres');

/** An app on the database, signed in as the demo admin in the first business. */
async function signedIn(database: DatabaseConfig) {
  const app = await buildApp({ database, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: ADMIN,
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(login.statusCode).toBe(200);
  const headers = {
    cookie: String(login.headers['set-cookie']).split(';')[0],
    'business-id': String(login.json().user.business_id),
    'x-requested-with': 'XMLHttpRequest',
  };
  return {
    app,
    /** The answer's JSON, or its raw bytes (a file's download). */
    get: async (url: string, raw = false) => {
      const response = await app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return raw ? response.rawPayload : response.json();
    },
    post: (url: string, payload: string | Buffer | object, extra: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, payload, headers: { ...headers, ...extra } }),
  };
}

/** What a user reads, asked of the original and of the copy: items (a page and a search), an invoice with its lines, the attachment's bytes. */
async function answers(database: DatabaseConfig, fileUrl: string) {
  const session = await signedIn(database);
  try {
    const items = await session.get('/api/items?limit=50&sort=id');
    const term = String(items.data[0].name).split(' ').slice(1, 3).join(' ');
    const found = await session.get(`/api/items?name=${encodeURIComponent(term)}&sort=id`);
    const invoices = await session.get('/api/invoices?limit=5&sort=id');
    const invoice = await session.get(`/api/invoices/${invoices.data[0].id}`);
    const bytes = await session.get(fileUrl, true);
    return { items, found, invoices, invoice, bytes };
  } finally {
    await session.app.close();
  }
}

/** The indexes and foreign keys a database has (named without their schema): the copy sets them aside and must put every one back. */
async function structure(database: DatabaseConfig): Promise<string[]> {
  const { db, kind } = openDatabase(database);
  try {
    const rows =
      kind === 'sqlite'
        ? await sql<{
            entry: string;
          }>`select name || ': ' || sql as entry from sqlite_master where type = 'index' and sql is not null`.execute(db)
        : await sql<{ entry: string }>`select indexname || ': ' || indexdef as entry from pg_indexes where schemaname = ${database.schema}
            union all select conname || ': ' || pg_get_constraintdef(oid) from pg_constraint where connamespace = ${database.schema}::regnamespace`.execute(
            db,
          );
    return rows.rows.map((row) => (database.schema ? row.entry.replaceAll(`${database.schema}.`, '') : row.entry)).sort();
  } finally {
    await db.destroy();
  }
}

/** What a new database of the kind holds once migrated. */
async function migratedStructure(database: DatabaseConfig): Promise<string[]> {
  const fresh = database.schema ? await postgresSchema() : sqliteFile();
  const { db } = openDatabase(fresh);
  await migrateToLatest(db, fresh.schema);
  await db.destroy();
  return structure(fresh);
}

/** The source's sync cursor, as a device following it holds it. */
async function cursorOf(database: DatabaseConfig): Promise<string> {
  const session = await signedIn(database);
  try {
    return (await session.get('/api/sync')).data.cursor;
  } finally {
    await session.app.close();
  }
}

/** The copy's change log begins a history of its own: empty, and a device holding the source's cursor downloads again. */
async function expectNewHistory(copy: DatabaseConfig, sourceCursor: string): Promise<void> {
  const { db } = openDatabase(copy);
  try {
    expect(await db.selectFrom('change_log').select('id').execute()).toEqual([]);
    const { epoch } = await db.selectFrom('change_log_epoch').select('epoch').executeTakeFirstOrThrow();
    expect(sourceCursor.startsWith(`${epoch}.`)).toBe(false);
  } finally {
    await db.destroy();
  }
  const session = await signedIn(copy);
  try {
    const reset = await session.get(`/api/sync/changes?cursor=${encodeURIComponent(sourceCursor)}`);
    expect(reset.data).toEqual({ reset: true, cursor: null, more: false, changed: {}, removed: {} });
    const own = (await session.get('/api/sync')).data.cursor;
    expect((await session.get(`/api/sync/changes?cursor=${encodeURIComponent(own)}`)).data.reset).toBe(false);
  } finally {
    await session.app.close();
  }
}

function expectSound(report: CopyReport): void {
  for (const count of report.tables) expect(count.target, count.table).toBe(count.source);
  expect(report.findings).toEqual([]);
  const tables = report.tables.map((count) => count.table);
  expect(tables).toEqual(expect.arrayContaining(['items', 'invoices', 'document_lines', 'file_contents', 'activity_log']));
  expect(tables.some((table) => table.endsWith('_fts') || table.startsWith('kysely_') || table.startsWith('change_log'))).toBe(false);
  expect(report.tables.find((count) => count.table === 'file_contents')?.target).toBe(1);
}

describe('copying a database', () => {
  const original = sqliteFile();
  let fileUrl = '';
  let expected: Awaited<ReturnType<typeof answers>>;

  beforeAll(async () => {
    const app = await buildApp({ database: original, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false });
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
    await app.close();
    const session = await signedIn(original);
    const order = (await session.get('/api/receive-orders?limit=1')).data[0];
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n`;
    const uploaded = await session.post(
      `/api/receive-orders/${order.id}/files`,
      Buffer.concat([Buffer.from(head), attachment, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
      { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    fileUrl = `/api/receive-orders/${order.id}/files/${uploaded.json().data.id}`;
    await session.app.close();
    expected = await answers(original, fileUrl);
    expect(expected.bytes.equals(attachment)).toBe(true);
    expect(expected.found.data.length).toBeGreaterThan(0);
  });

  /** The copy answers as the original, and takes new records (its id sequences moved past the copied ids). */
  async function expectSameAndWritable(copy: DatabaseConfig): Promise<void> {
    expect(await answers(copy, fileUrl)).toEqual(expected);
    const session = await signedIn(copy);
    const brand = await session.post('/api/brands', { name: 'Made after the copy' });
    expect(brand.statusCode, brand.body).toBe(201);
    await session.app.close();
  }

  it('copies SQLite into a new SQLite file', async () => {
    const copy = sqliteFile();
    const cursor = await cursorOf(original);
    const report = await copyDatabase(original, copy);
    expectSound(report);
    expect(await structure(copy)).toEqual(await migratedStructure(copy));
    await expectNewHistory(copy, cursor);
    await expectSameAndWritable(copy);
  });

  describe.skipIf(!postgres)('between SQLite and PostgreSQL', () => {
    let copy: DatabaseConfig;

    it('copies the SQLite file into a new PostgreSQL schema', async () => {
      copy = await postgresSchema();
      const cursor = await cursorOf(original);
      const report = await copyDatabase(original, copy);
      expectSound(report);
      await expectNewHistory(copy, cursor);
      const indexes = await structure(copy);
      expect(indexes.some((entry) => entry.startsWith('items_name_fts: CREATE INDEX') && entry.includes('gin_trgm_ops'))).toBe(true);
      expect(indexes).toEqual(await migratedStructure(copy));
      await expectSameAndWritable(copy);
    });

    it('copies that PostgreSQL schema back into a new SQLite file', async () => {
      const back = sqliteFile();
      const cursor = await cursorOf(copy);
      const report = await copyDatabase(copy, back);
      expectSound(report);
      await expectNewHistory(back, cursor);
      expect(await answers(back, fileUrl)).toEqual(expected);
    });
  });

  it('refuses a target that holds data, a missing file, a database that is not Bodega, and one a newer Bodega migrated', async () => {
    const target = postgres ? await postgresSchema() : sqliteFile();
    await copyDatabase(original, target);
    await expect(copyDatabase(original, target)).rejects.toThrow(
      /^The target database is not empty \(rows in \d+ tables: activity_log \d+, bill_payments \d+, bills \d+, …\): copy into a new database, before any Bodega server has started on it\.$/,
    );

    const missing = join(directory, 'missing.sqlite');
    await expect(copyDatabase({ url: `file:${missing}` }, sqliteFile())).rejects.toThrow(`There is no SQLite database at ${missing}.`);

    const bare = sqliteFile();
    const { db } = openDatabase(bare);
    await sql`create table notes (id integer primary key)`.execute(db);
    await db.destroy();
    await expect(copyDatabase(bare, sqliteFile())).rejects.toThrow('The source is not a Bodega database');

    const newer = sqliteFile();
    await copyDatabase(original, newer);
    const opened = openDatabase(newer);
    await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01-01-later', '2099-01-01T00:00:00.000Z')`.execute(opened.db);
    await opened.db.destroy();
    await expect(copyDatabase(newer, sqliteFile())).rejects.toThrow('This database was upgraded by a newer Bodega');
  });
});
