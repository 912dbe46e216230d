import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import type { AppConfig } from '../src/server/config';
import { seed } from '../src/server/seed';

/**
 * A shop's bad day, with the commands docs/deploy.md gives, run as an operator runs them: demo
 * data → `npm run backup` → a record deleted permanently by mistake → `npm run restore` brings it
 * back (a device that followed the replaced database downloads again), and
 * `npm run check:stock` finds the restored database sound; then the business outgrows SQLite:
 * `npm run copy-database` into a new PostgreSQL database, checked the same way.
 */

const PASSWORD = 'operations-password';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function npmRun(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      env: { ...process.env, LOG: '0', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('backup, restore and copy, through the scripts', { timeout: 180_000 }, () => {
  const directory = mkdtempSync(join(tmpdir(), 'bodega-operations-'));
  const url = `file:${join(directory, 'shop.sqlite')}`;
  const backups = join(directory, 'backups');
  const config: AppConfig = { database: { url }, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false };

  /** Runs `work` against the shop's database through a server of its own, closed after. */
  async function withServer<T>(
    work: (send: (method: string, path: string, payload?: object) => Promise<{ status: number; body: any }>) => Promise<T>,
  ) {
    const app = await buildApp(config);
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'admin@example.com', password: PASSWORD },
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      const businessId = String(login.json().user.business_id);
      return await work(async (method, path, payload) => {
        const answer = await app.inject({
          method: method as 'GET',
          url: path,
          payload,
          headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'business-id': businessId },
        });
        return { status: answer.statusCode, body: answer.body ? answer.json() : undefined };
      });
    } finally {
      await app.close();
    }
  }

  beforeAll(async () => {
    const app = await buildApp(config);
    await seed(app.db, { adminEmail: 'admin@example.com', adminPassword: PASSWORD, demoData: true });
    await app.close();
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('brings a record deleted permanently back from the backup taken before, and the restored database is sound', async () => {
    // A brand added in the morning, before the night's backup, and nothing made of it yet.
    const brand = await withServer(async (send) => {
      const made = await send('POST', '/api/brands', { name: 'Aling Rosa Kakanin' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.data as { id: number; name: string };
    });

    const backup = await npmRun('backup', [], { DATABASE_URL: url, BACKUP_DIR: backups });
    expect(backup.code, backup.stderr).toBe(0);
    const [file] = readdirSync(backups).filter((name) => name.endsWith('.sqlite'));
    expect(backup.stdout).toContain(file);

    // A device follows the change log through the mistake: its cursor is of the same history as the backup.
    const cursor = await withServer(async (send) => {
      expect((await send('DELETE', `/api/brands/${brand.id}`)).status).toBe(200);
      const gone = await send('DELETE', `/api/brands/${brand.id}/force-delete`);
      expect(gone.status, JSON.stringify(gone.body)).toBe(204);
      expect((await send('GET', `/api/brands/${brand.id}`)).status).toBe(404);
      return (await send('GET', '/api/sync')).body.data.cursor as string;
    });

    const restore = await npmRun('restore', [join(backups, file)], { DATABASE_URL: url, BACKUP_DIR: backups });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/The database it replaced is kept at .+before-restore/);

    await withServer(async (send) => {
      const back = await send('GET', `/api/brands/${brand.id}`);
      expect(back.status).toBe(200);
      expect(back.body.data.name).toBe(brand.name);
      // The restored database begins a new history of its changes: that device downloads its working set again.
      const changes = await send('GET', `/api/sync/changes?cursor=${encodeURIComponent(cursor)}`);
      expect(changes.body.data).toEqual({ reset: true, cursor: null, more: false, changed: {}, removed: {} });
    });
    const audit = await npmRun('check-stock', [], { DATABASE_URL: url });
    expect(audit.code, audit.stdout + audit.stderr).toBe(0);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('copies the shop into a new PostgreSQL database that counts and audits the same', async () => {
    const server = new URL(process.env.TEST_DATABASE_URL as string);
    const name = `bodega_copy_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const target = new URL(server.toString());
      target.pathname = `/${name}`;
      const copy = await npmRun('copy-database', [url, target.toString()], {});
      expect(copy.code, copy.stdout + copy.stderr).toBe(0);
      expect(copy.stdout).toMatch(/rows in [\d.]+ s \(\d+ rows\/s\)/);
      expect(copy.stdout).not.toContain('differs');
      const audit = await npmRun('check-stock', [], { DATABASE_URL: target.toString() });
      expect(audit.code, audit.stdout + audit.stderr).toBe(0);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
