import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Migrator, type Migration } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { readEnvironment, type AppConfig } from '../config';
import { openDatabase, type DatabaseConfig } from '../db/dialect';
import { MIGRATION_NAMES } from '../db/migrate';
import { auditDatabase } from '../documents/audit';
import { seed } from '../seed';
import { recentBackups, takeBackup, type BackupOutcome } from './backup';
import { restoreDatabase, RestoreRefused } from './restore';
import { serverMarkPath } from './server-marker';
import { oneLineAtBranch } from '../../../tests/support/one-line';

/**
 * Backups and restores of SQLite files: a backup taken while writes go on holds every write
 * acknowledged before it started and restores into a sound database; restore refuses what it
 * must; old backups are pruned; a database about to be migrated is copied first.
 */

const PASSWORD = 'backup-password';
const workDir = mkdtempSync(join(tmpdir(), 'bodega-backup-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

let counter = 0;
/** A fresh directory with a database path and a backup directory in it. */
function place() {
  const dir = join(workDir, `case-${counter++}`);
  return {
    database: { url: `file:${join(dir, 'bodega.sqlite')}` } satisfies DatabaseConfig,
    path: join(dir, 'bodega.sqlite'),
    backups: join(dir, 'backups'),
  };
}

function config(database: DatabaseConfig, backupDir: string, extra: Partial<AppConfig> = {}): AppConfig {
  return { database, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false, backups: { dir: backupDir, keep: 50 }, ...extra };
}

async function startSeeded(database: DatabaseConfig, backupDir: string): Promise<FastifyInstance> {
  const app = await buildApp(config(database, backupDir));
  await seed(app.db, { adminEmail: 'admin@example.com', adminPassword: PASSWORD, demoData: true });
  return app;
}

/** A signed-in caller of the admin's first business, through `app.inject`. */
async function adminOf(app: FastifyInstance) {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'admin@example.com', password: PASSWORD },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(login.statusCode).toBe(200);
  const cookie = String(login.headers['set-cookie']).split(';')[0];
  const businessId = String(login.json().user.business_id);
  return async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      payload,
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'business-id': businessId },
    });
    return { status: response.statusCode, body: response.json() };
  };
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const backupsIn = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('bodega-'));
const brandNames = (path: string) => {
  const raw = new SQLite(path, { readonly: true });
  try {
    return raw.prepare('select name from brands order by id').pluck().all();
  } finally {
    raw.close();
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits into the next second, so that backups taken one after another get names of their own. */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 10);

describe('backup and restore of a SQLite file', () => {
  it('holds every write acknowledged before each backup began, taken while writes go on, and restores to a sound database', async () => {
    const { database, backups } = place();
    const app = await startSeeded(database, backups);
    const send = await adminOf(app);
    const typeId = async (name: string) => (await send('GET', `/api/contact-types?name=${name}&is_strict=1&limit=1`)).body.data[0].id;
    // The first of each type: for customers the walk-in, whom no credit limit stops (a demo customer sits at theirs).
    const contactOf = async (type: string) =>
      (await send('GET', `/api/contacts?contact_type_id=${await typeId(type)}&limit=1&order_by=asc`)).body.data[0].id;
    const customer = await contactOf('Customer');
    const supplier = await contactOf('Supplier');
    const branch = (await send('GET', '/api/branches?order_by=asc')).body.data[0].id;
    const item = (
      await send('POST', '/api/items', {
        sku: 'BACKUP-1',
        name: 'Backup Sardines 155g',
        unit_of_measurement_id: 1,
        vat_category: 'vatable',
      })
    ).body.data;
    /** A receipt or an invoice at the branch of `quantity` of the item, expected made. */
    const traded = async (resource: 'receive-orders' | 'invoices', contact: number, date: string, quantity: number, unitPrice: number) => {
      const answer = await send('POST', `/api/${resource}`, oneLineAtBranch(contact, branch, date, item, quantity, unitPrice));
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data as { id: number };
    };
    await traded('receive-orders', supplier, '2026-11-01', 100000, 20);

    // Brands and invoices, one after another, until the backups are done.
    const acknowledged: { brands: number[]; invoices: number[] } = { brands: [], invoices: [] };
    let writing = true;
    const writes = (async () => {
      for (let n = 0; writing; n++) {
        const brand = await send('POST', '/api/brands', { name: `Backup brand ${n}` });
        expect(brand.status, JSON.stringify(brand.body)).toBe(201);
        acknowledged.brands.push(brand.body.data.id);
        acknowledged.invoices.push((await traded('invoices', customer, '2026-11-10', 1, 35)).id);
      }
    })();

    const taken: { outcome: BackupOutcome; brands: number[]; invoices: number[] }[] = [];
    try {
      await sleep(150);
      for (let round = 0; round < 3; round++) {
        await nextSecond();
        const before = { brands: [...acknowledged.brands], invoices: [...acknowledged.invoices] };
        const outcome = await takeBackup(database, { dir: backups, keep: 50 }, 'manual');
        expect(outcome.error).toBeUndefined();
        taken.push({ outcome, ...before });
      }
    } finally {
      writing = false;
      await writes;
    }
    // The server kept answering while the backups were written.
    expect(acknowledged.brands.length).toBeGreaterThan(taken[0].brands.length + 3);
    expect(backupsIn(backups)).toHaveLength(3);
    await app.close();

    for (const { outcome, brands, invoices } of taken) {
      const report = await restoreDatabase(database, outcome.path!, backups);
      expect(report.checked[0]).toBe("SQLite's integrity check: ok");
      expect(report.keptAside).toMatch(/bodega\.sqlite\.before-restore-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
      expect(report.businesses).toBe(2);
      const db = openDatabase(database).db;
      try {
        const present = async (table: 'brands' | 'invoices', ids: number[]) =>
          (await db.selectFrom(table).select('id').where('id', 'in', ids).execute()).length;
        expect(await present('brands', brands)).toBe(brands.length);
        expect(await present('invoices', invoices)).toBe(invoices.length);
        expect(report.documents).toBeGreaterThanOrEqual(invoices.length);
        expect(await auditDatabase(db)).toEqual([]);
      } finally {
        await db.destroy();
      }
    }
  });

  it('refuses a corrupt file, a file of a newer Bodega, and a database a server is using, leaving the database as it was', async () => {
    const { database, path, backups } = place();
    const app = await startSeeded(database, backups);
    const good = await takeBackup(database, { dir: backups, keep: 50 }, 'manual');
    expect(good.error).toBeUndefined();

    // In use: the running server's mark names this live process.
    expect(JSON.parse(readFileSync(serverMarkPath(path), 'utf8')).pid).toBe(process.pid);
    await expect(restoreDatabase(database, good.path!, backups)).rejects.toThrow(
      /A Bodega server \(pid \d+ on .*\) is using .*bodega\.sqlite: stop it/,
    );
    await app.close();
    expect(() => readFileSync(serverMarkPath(path))).toThrow();
    const before = sha(path);
    const namesBefore = brandNames(path);

    // Corrupt: a page of the copy overwritten with noise.
    const corrupt = join(workDir, `corrupt-${counter++}.sqlite`);
    copyFileSync(good.path!, corrupt);
    const handle = openSync(corrupt, 'r+');
    writeSync(handle, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 3);
    closeSync(handle);
    await expect(restoreDatabase(database, corrupt, backups)).rejects.toThrow(RestoreRefused);
    await expect(restoreDatabase(database, corrupt, backups)).rejects.toThrow(/integrity check|cannot be read as a SQLite database/);
    const notDatabase = join(workDir, `not-a-database-${counter++}.sqlite`);
    writeFileSync(notDatabase, 'id,name\n1,Alaska\n'.repeat(500));
    await expect(restoreDatabase(database, notDatabase, backups)).rejects.toThrow(/cannot be read as a SQLite database/);

    // Newer: a migration this code does not know.
    const newer = join(workDir, `newer-${counter++}.sqlite`);
    copyFileSync(good.path!, newer);
    const raw = new SQLite(newer);
    raw.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('2099-01-01-01-future', new Date().toISOString());
    raw.close();
    await expect(restoreDatabase(database, newer, backups)).rejects.toThrow(
      /written by a newer Bodega: its migrations 2099-01-01-01-future are unknown/,
    );

    expect(sha(path)).toBe(before);
    expect(readdirSync(join(path, '..')).filter((name) => name.includes('before-restore'))).toEqual([]);

    // Once the server is gone, the good backup goes in.
    const report = await restoreDatabase(database, good.path!, backups);
    expect(report.checked[1]).toBe(`its ${MIGRATION_NAMES.length} migrations are all known to this code`);
    // What was replaced is kept: the same records, in a database of its own.
    expect(brandNames(report.keptAside!)).toEqual(namesBefore);
    expect(brandNames(path)).toEqual(namesBefore);
  });

  it('keeps the newest BACKUP_KEEP backups and leaves other files alone', async () => {
    const { database, backups } = place();
    const app = await startSeeded(database, backups);
    await app.close();
    rmSync(backups, { recursive: true, force: true });
    mkdirSync(backups, { recursive: true });
    const old = [
      'bodega-2026-01-01T00-00-00Z.sqlite',
      'bodega-2026-02-01T00-00-00Z-before-migrations.sqlite',
      'bodega-2026-03-01T00-00-00Z.pgdump',
      'bodega-2026-04-01T00-00-00Z.sqlite',
    ];
    for (const name of [...old, 'notes.txt', 'bodega.sqlite.before-restore-2026-01-01T00-00-00Z']) writeFileSync(join(backups, name), 'x');
    const outcome = await takeBackup(database, { dir: backups, keep: 3 }, 'manual');
    expect(outcome.error).toBeUndefined();
    expect(readdirSync(backups).sort()).toEqual(
      [
        'bodega-2026-03-01T00-00-00Z.pgdump',
        'bodega-2026-04-01T00-00-00Z.sqlite',
        outcome.path!.split('/').pop()!,
        'bodega.sqlite.before-restore-2026-01-01T00-00-00Z',
        'notes.txt',
      ].sort(),
    );
    expect(outcome.path).toMatch(/bodega-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.sqlite$/);
  });

  it('copies an existing database before migrations change it, and only then', async () => {
    const fresh = place();
    // A new database: nothing to copy.
    let app = await startSeeded(fresh.database, fresh.backups);
    await app.close();
    expect(() => readdirSync(fresh.backups)).toThrow();

    // As written by the code before the last migration: every migration but the last applied.
    const { database, backups } = place();
    const older = openDatabase(database);
    const earlier = MIGRATION_NAMES.slice(0, -1);
    const migrations: Record<string, Migration> = {};
    for (const name of earlier) migrations[name] = await import(new URL(`../db/migrations/${name}.ts`, import.meta.url).href);
    const migrated = await new Migrator({ db: older.db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(migrated.error).toBeUndefined();
    await older.db.destroy();

    app = await buildApp(config(database, backups));
    const [copy] = backupsIn(backups);
    expect(copy).toMatch(/^bodega-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-before-migrations\.sqlite$/);
    const copied = new SQLite(join(backups, copy), { readonly: true });
    expect(copied.prepare('select name from kysely_migration order by name').pluck().all()).toEqual(MIGRATION_NAMES.slice(0, -1));
    copied.close();
    const recorded = await recentBackups(app.db, 5);
    expect(recorded.data).toEqual([expect.objectContaining({ kind: 'before-migrations', file: copy, error: null })]);
    await app.close();

    // Up to date: no further copy.
    app = await buildApp(config(database, backups));
    await app.close();
    expect(backupsIn(backups)).toEqual([copy]);
  });

  it('says what to fix when a backup cannot be written', async () => {
    const { backups } = place();
    const missing = await takeBackup({ url: `file:${join(workDir, 'nowhere', 'missing.sqlite')}` }, { dir: backups, keep: 3 }, 'manual');
    expect(missing.error).toMatch(/There is no SQLite database at .*missing\.sqlite/);
    expect(readdirSync(backups)).toEqual([]);
    const memory = await takeBackup({ url: 'file::memory:' }, { dir: backups, keep: 3 }, 'manual');
    expect(memory.error).toMatch(/in-memory/);
  });
});

describe('backup settings', () => {
  it('reads BACKUP_DIR, BACKUP_KEEP and BACKUP_EVERY, and names a bad value', () => {
    const defaults = readEnvironment({});
    expect(defaults).toMatchObject({ BACKUP_DIR: './data/backups', BACKUP_KEEP: 14 });
    expect(defaults.BACKUP_EVERY).toBeUndefined();
    expect(readEnvironment({ BACKUP_EVERY: '30m' }).BACKUP_EVERY).toEqual({ label: '30m', ms: 30 * 60_000 });
    expect(readEnvironment({ BACKUP_EVERY: '6h' }).BACKUP_EVERY).toEqual({ label: '6h', ms: 6 * 3_600_000 });
    expect(readEnvironment({ BACKUP_EVERY: '7d', BACKUP_KEEP: '30' })).toMatchObject({
      BACKUP_EVERY: { ms: 7 * 86_400_000 },
      BACKUP_KEEP: 30,
    });
    for (const wrong of ['2m', '6', 'daily', '1.5h', '-6h'])
      expect(() => readEnvironment({ BACKUP_EVERY: wrong })).toThrow(/BACKUP_EVERY: must be/);
    expect(() => readEnvironment({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });
});

afterEach(async () => {
  // Nothing of a test's SQLite files stays open: a leftover mark would mean a server never closed.
  const marks = readdirSync(workDir, { recursive: true }).filter((name) => String(name).endsWith('.server.json'));
  expect(marks).toEqual([]);
});
