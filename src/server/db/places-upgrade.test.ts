import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Migrator, sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabases } from '../../../tests/support/fresh-databases';
import { databaseKinds } from '../../../tests/support/test-app';
import { buildApp } from '../app';
import { seed } from '../seed';
import { openDatabase, type DatabaseConfig, type DatabaseKind } from './dialect';
import { migrateToLatest, MIGRATION_NAMES } from './migrate';

/**
 * Upgrading a database made before places (2026-11-27-01-places): every member of every business
 * holds every place to operate and no single place, so each user is answered exactly what they
 * were answered before — nobody sees or may do less.
 *
 * The older database is made as an older Bodega left it: migrated only up to the migration before
 * places, holding the demo data (every demo role, the admin in two businesses) in the columns its
 * tables had then. Before places nothing was confined: what a user was answered then is what this
 * code answers them holding every place to operate, which the demo database is set to before
 * it is asked.
 */

const PLACES = '2026-11-27-01-places';
const BEFORE_PLACES = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(PLACES) - 1];
const ADMIN = { email: 'admin@example.com', password: 'upgrade-password' };
/** Lists of records at places, and of records at none. */
const LISTS = [
  'invoices',
  'invoice-payments',
  'quotations',
  'bills',
  'bill-payments',
  'purchase-orders',
  'receive-orders',
  'stocks',
  'stock-requests',
  'stock-transfers',
  'stock-receives',
  'stock-returns',
  'stock-adjustments',
  'stock-counts',
  'sale-item-prices',
  'service-prices',
  'branches',
  'warehouses',
  'items',
  'users',
];

const databases = freshDatabases('places-upgrade');
afterAll(() => databases.removeAll());

const appOn = (database: DatabaseConfig) => buildApp({ database, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false });

/** Migrates a new database as an older Bodega did: up to `last`, and no further. */
async function migrateUpTo(database: DatabaseConfig, last: string): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const name of MIGRATION_NAMES) migrations[name] = (await import(`./migrations/${name}.ts`)) as Migration;
  const { db } = openDatabase(database);
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: database.schema });
    const { error } = await migrator.migrateTo(last);
    if (error) throw error;
  } finally {
    await db.destroy();
  }
}

/**
 * Copies every row of `from` into `to`'s tables, in the columns `to` has (an older database has
 * fewer), replacing what its migrations wrote. Foreign keys are off while the rows go in: stock
 * transfers and stock returns refer to each other.
 */
async function copyInto(kind: DatabaseKind, from: DatabaseConfig, to: DatabaseConfig): Promise<void> {
  if (kind === 'sqlite') {
    const target = new SQLite(to.url.slice('file:'.length));
    try {
      target.pragma('foreign_keys = OFF');
      target.prepare('attach database ? as source').run(from.url.slice('file:'.length));
      const tables = target
        .prepare(`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite\\_%' escape '\\'`)
        .all() as { name: string }[];
      target.transaction(() => {
        for (const { name } of tables) {
          if (name.startsWith('kysely_')) continue;
          const columns = (target.prepare('select name from pragma_table_info(?)').all(name) as { name: string }[])
            .map((column) => `"${column.name}"`)
            .join(', ');
          target.prepare(`delete from main."${name}"`).run();
          target.prepare(`insert into main."${name}" (${columns}) select ${columns} from source."${name}"`).run();
        }
      })();
    } finally {
      target.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: from.url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = $1 and table_type = 'BASE TABLE' and table_name not like 'kysely\\_%'`,
      [to.schema],
    );
    for (const { name } of tables.rows) {
      const columns = await client.query<{ name: string }>(
        'select column_name as name from information_schema.columns where table_schema = $1 and table_name = $2',
        [to.schema, name],
      );
      const list = columns.rows.map((column) => `"${column.name}"`).join(', ');
      await client.query(`delete from ${to.schema}."${name}"`);
      await client.query(`insert into ${to.schema}."${name}" (${list}) select ${list} from ${from.schema}."${name}"`);
    }
    const identities = await client.query<{ table: string; column: string }>(
      `select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = $1 and is_identity = 'YES'`,
      [to.schema],
    );
    for (const { table, column } of identities.rows) {
      await client.query(
        `select setval(pg_get_serial_sequence('${to.schema}.${table}', '${column}'), coalesce(max("${column}"), 0) + 1, false)
          from ${to.schema}."${table}"`,
      );
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/** Every member of every business (demo users sign in with the admin's password). */
async function members(app: FastifyInstance) {
  return app.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.email', 'memberships.business_id'])
    .orderBy('users.email')
    .orderBy('memberships.business_id')
    .execute();
}

/** What each member is answered, in each business, by each list. */
async function answers(app: FastifyInstance): Promise<Record<string, { status: number; body: unknown }>> {
  const answered: Record<string, { status: number; body: unknown }> = {};
  for (const { email, business_id: businessId } of await members(app)) {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: ADMIN.password },
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(login.statusCode, `${email}: ${login.body}`).toBe(200);
    const headers = {
      cookie: String(login.headers['set-cookie']).split(';')[0],
      'business-id': String(businessId),
      'x-requested-with': 'XMLHttpRequest',
    };
    for (const list of LISTS) {
      const response = await app.inject({ method: 'GET', url: `/api/${list}?per_page=100`, headers });
      answered[`${email} in ${businessId}: ${list}`] = { status: response.statusCode, body: response.json() };
    }
  }
  return answered;
}

describe.each(databaseKinds)('upgrading a database made before places on %s', (kind) => {
  it('gives every member every place to operate, and answers each user as before', async () => {
    // The demo data, as anyone was answered before places: nobody kept to a place.
    const current = await databases.fresh(kind);
    const demo = await appOn(current);
    let before: Awaited<ReturnType<typeof answers>>;
    try {
      await seed(demo.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
      await demo.db.updateTable('memberships').set({ all_places: 'operate' }).execute();
      await demo.db.deleteFrom('user_places').execute();
      // Nor any quarantine, which came later still: an older database holds what is on hand, none of it held back.
      await demo.db.updateTable('stocks').set({ quantity_quarantined: 0 }).execute();
      before = await answers(demo);
    } finally {
      await demo.close();
    }
    const people = new Set(Object.keys(before).map((key) => key.split(' ')[0]));
    expect(people.size).toBeGreaterThanOrEqual(6);

    // The same rows in a database migrated up to the migration before places.
    const older = await databases.fresh(kind);
    await migrateUpTo(older, BEFORE_PLACES);
    await copyInto(kind, current, older);

    const { db } = openDatabase(older);
    try {
      const columns =
        kind === 'sqlite'
          ? await sql<{ name: string }>`select name from pragma_table_info('memberships')`.execute(db)
          : await sql<{ name: string }>`select column_name as name from information_schema.columns
              where table_schema = ${older.schema} and table_name = 'memberships'`.execute(db);
      expect(columns.rows.map((row) => row.name)).not.toContain('all_places');
      const memberships = await db.selectFrom('memberships').select('user_id').execute();

      expect(await migrateToLatest(db, older.schema)).toEqual(MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf(PLACES)));
      const upgraded = await db.selectFrom('memberships').select(['user_id', 'all_places']).execute();
      expect(upgraded).toHaveLength(memberships.length);
      expect(upgraded.every((member) => member.all_places === 'operate')).toBe(true);
      expect(await db.selectFrom('user_places').select('user_id').execute()).toEqual([]);
    } finally {
      await db.destroy();
    }

    const app = await appOn(older);
    try {
      const after = await answers(app);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      for (const key of Object.keys(before)) expect(after[key], key).toEqual(before[key]);
      // Each member sees every record of a list they may read, as the admin does.
      const totals = (answered: typeof after, email: string, businessId: string, list: string) =>
        (answered[`${email} in ${businessId}: ${list}`]?.body as { meta?: { total: number } }).meta?.total;
      for (const key of Object.keys(after)) {
        const [email, , businessId, list] = key.replace(':', '').split(' ');
        if (after[key].status === 200)
          expect(totals(after, email, businessId, list), key).toBe(totals(after, ADMIN.email, businessId, list));
      }
      const cashier = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'cashier@example.com', password: ADMIN.password },
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(cashier.json().user.places).toEqual({ all: 'operate', grants: [] });
    } finally {
      await app.close();
    }
  });
});
