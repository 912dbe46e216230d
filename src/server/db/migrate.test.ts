import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Db } from './scope';
import pg from 'pg';
import { freshDatabases } from '../../../tests/support/fresh-databases';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../tests/support/test-app';
import { buildApp } from '../app';
import { seed } from '../seed';
import type { AppConfig } from '../config';
import { openDatabase, type DatabaseConfig } from './dialect';
import { appliedMigrations, migrateToLatest, MIGRATION_NAMES, requireMigrated } from './migrate';

/**
 * Migrating on start or apart from it (`npm run migrate`, MIGRATE=0), instances migrating at once,
 * and a database that a newer Bodega migrated: refused, with a message, before anything reads it.
 */

const databases = freshDatabases('migrate');
afterAll(() => databases.removeAll());
const { directory } = databases;
/** A database no one has migrated: a new SQLite file, or a new PostgreSQL schema. */
const freshDatabase = databases.fresh;

const appConfig = (database: DatabaseConfig, migrate?: boolean): AppConfig => ({
  database,
  migrate,
  loginAttemptsPerMinute: 1000,
  secureCookies: false,
  logger: false,
});

const FUTURE = '2099-01-01-01-from-a-newer-bodega';
/** Every migration this code knows: how many, the first and the last. */
const ALL = MIGRATION_NAMES.length;
const FIRST = MIGRATION_NAMES[0];
const LAST = MIGRATION_NAMES[ALL - 1];

async function recordFutureMigration(db: Db, schema: string | undefined): Promise<void> {
  const table = schema ? `${schema}.kysely_migration` : 'kysely_migration';
  await sql`insert into ${sql.table(table)} (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(db);
}

describe('the migrations this code knows', () => {
  it('are the dated files of src/server/db/migrations in name order, without the helpers beside them', () => {
    expect(MIGRATION_NAMES[0]).toBe('2026-11-22-01-foundation');
    expect(MIGRATION_NAMES).toContain('2026-11-23-10-backups');
    expect(MIGRATION_NAMES).not.toContain('indexes');
    expect(MIGRATION_NAMES).not.toContain('tables');
    expect(MIGRATION_NAMES.every((name) => /^\d{4}-\d{2}-\d{2}-\d{2}-[a-z0-9-]+$/.test(name))).toBe(true);
    expect([...MIGRATION_NAMES].sort()).toEqual(MIGRATION_NAMES);
  });
});

describe.each(databaseKinds)('migrations on %s', (kind) => {
  it('applies every migration once, says which, and then that there is nothing to apply', async () => {
    const database = await freshDatabase(kind);
    const { db } = openDatabase(database);
    try {
      await expect(requireMigrated(db, database.schema)).rejects.toThrow(
        new RegExp(
          `^The database needs ${ALL} migrations \\(${FIRST}, .*, ${LAST}\\) and this server does not migrate \\(MIGRATE=0\\): run \`npm run migrate\` first\\.$`,
        ),
      );
      const applied = await migrateToLatest(db, database.schema);
      expect(applied).toHaveLength(ALL);
      expect(applied[0]).toBe('2026-11-22-01-foundation');
      expect(await appliedMigrations(db, database.schema)).toEqual(applied);
      expect(await migrateToLatest(db, database.schema)).toEqual([]);
      await expect(requireMigrated(db, database.schema)).resolves.toBeUndefined();
    } finally {
      await db.destroy();
    }
  });

  it('refuses to start without migrating (MIGRATE=0) until the database is migrated, then starts', async () => {
    const database = await freshDatabase(kind);
    await expect(buildApp(appConfig(database, false))).rejects.toThrow('run `npm run migrate` first');
    const { db } = openDatabase(database);
    await migrateToLatest(db, database.schema);
    await db.destroy();
    const app = await buildApp(appConfig(database, false));
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    await app.close();
  });

  it('refuses a database that a newer Bodega migrated, migrating or not, and changes nothing', async () => {
    const database = await freshDatabase(kind);
    const app = await buildApp(appConfig(database));
    await recordFutureMigration(app.db, database.schema ?? (kind === 'postgres' ? 'public' : undefined));
    await app.close();
    const message = `This database was upgraded by a newer Bodega (migrations ${FUTURE} unknown here). Run that version, or restore a backup taken before the upgrade.`;
    await expect(buildApp(appConfig(database))).rejects.toThrow(message);
    await expect(buildApp(appConfig(database, false))).rejects.toThrow(message);
    const { db } = openDatabase(database);
    await expect(migrateToLatest(db, database.schema)).rejects.toThrow(message);
    expect(await appliedMigrations(db, database.schema)).toContain(FUTURE);
    await db.destroy();
  });
});

describe.skipIf(!databaseKinds.includes('postgres'))('instances starting at once on PostgreSQL', () => {
  it('migrates while other schemas of the database come and go', async () => {
    const churn = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await churn.connect();
    let churning = true;
    const coming = (async () => {
      for (let round = 0; churning && round < 2000; round++) {
        const passing = `bodega_passing_${randomBytes(4).toString('hex')}`;
        await churn.query(`create schema ${passing}; create table ${passing}.t (id serial primary key)`);
        await churn.query(`drop schema ${passing} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 6; round++) {
        const database = await freshDatabase('postgres');
        const { db } = openDatabase(database);
        try {
          expect(await migrateToLatest(db, database.schema)).toHaveLength(ALL);
        } finally {
          await db.destroy();
        }
      }
    } finally {
      churning = false;
      await coming;
      await churn.end();
    }
  });

  it('migrate and seed one fresh schema once among them, and all serve', async () => {
    const database = await freshDatabase('postgres');
    const apps = await Promise.all([buildApp(appConfig(database)), buildApp(appConfig(database)), buildApp(appConfig(database))]);
    try {
      const applied = await sql<{ name: string; times: number }>`select name, count(*) as times from ${sql.table(
        `${database.schema}.kysely_migration`,
      )} group by name`.execute(apps[0].db);
      expect(applied.rows).toHaveLength(ALL);
      expect(applied.rows.every((row) => Number(row.times) === 1)).toBe(true);
      const permissions = await apps[1].db
        .selectFrom('permissions')
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirstOrThrow();
      const distinct = await apps[2].db
        .selectFrom('permissions')
        .select(sql<number>`count(distinct name)`.as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(permissions.count)).toBeGreaterThan(0);
      expect(Number(permissions.count)).toBe(Number(distinct.count));
      for (const app of apps) expect((await app.inject('/api/health')).statusCode).toBe(200);
      // Each seeds the new database as main.ts does: one of them does, the others find it seeded.
      const seeded = await Promise.all(
        apps.map((app) => seed(app.db, { adminEmail: 'admin@example.com', adminPassword: 'seed-password', demoData: true })),
      );
      expect(seeded.filter((result) => result.seeded)).toHaveLength(1);
      const admins = await apps[0].db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').execute();
      expect(admins).toHaveLength(1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});

/**
 * `npm run migrate` on a SQLite file: what it applied, then that it is up to date, then the refusal
 * of a newer database; and a server told not to migrate, refusing to start on a new one.
 */
describe('the migrate script and MIGRATE=0', () => {
  const run = async (url: string, script = 'scripts/migrate.ts', env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await promisify(execFile)('node', ['--import', 'tsx', script], {
        env: { ...process.env, DATABASE_URL: url, ...env },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  it('keeps a MIGRATE=0 server from starting, says what it applied, then that all is up to date, and refuses a newer database', async () => {
    const url = `file:${join(directory, 'script.sqlite')}`;
    const server = await run(url, 'src/server/main.ts', { MIGRATE: '0', LOG: '0', PORT: '1' });
    expect(server.code).toBe(1);
    expect(server.stderr).toMatch(
      new RegExp(
        `^The database needs ${ALL} migrations \\(.*\\) and this server does not migrate \\(MIGRATE=0\\): run \`npm run migrate\` first\\.\\n$`,
      ),
    );
    const first = await run(url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^Applied ${ALL} migrations: ${FIRST}, .*, ${LAST}\\.\\n$`));
    const second = await run(url);
    expect(second).toMatchObject({ code: 0, stdout: 'The database is up to date: no migration to apply.\n' });

    const { db } = openDatabase({ url });
    await recordFutureMigration(db, undefined);
    await db.destroy();
    const refused = await run(url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `This database was upgraded by a newer Bodega (migrations ${FUTURE} unknown here). Run that version, or restore a backup taken before the upgrade.\n`,
    );
  });
});
