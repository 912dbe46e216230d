import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { getResource } from '../src/domain/resources/registry';
import { buildApp } from '../src/server/app';
import type { AppConfig } from '../src/server/config';
import type { Database } from '../src/server/db/schema';
import { recount } from '../src/server/resources/resource-counts';
import { seed } from '../src/server/seed';
import { randomSequence } from '../tests/support/random-sequence';

/**
 * The benchmark's database: one business holding ITEM_COUNT items with grocery-like names, so
 * that a contains-search for a phrase in the middle of names has a known, selective answer.
 */

export const DATA_DIR = fileURLToPath(new URL('.data/', import.meta.url));
export const DATABASE_PATH = `${DATA_DIR}bench.sqlite`;
export const ITEM_COUNT = 1_000_000;
export const BUSINESS_ID = 1;
export const ADMIN = { email: 'admin@example.com', password: 'bench-password' };
/** A clerk who may view items and works at one branch of `PLACE_COUNT` (`domain/places.ts`): a user kept to one place. */
export const CLERK = { email: 'clerk@example.com', password: ADMIN.password };
export const PLACE_COUNT = 50;

/** Only "Pancit Canton" followed by "Chilimansi" spells it: about 1 name in 40 × 30. */
export const SELECTIVE_TERM = 'Canton Chilimansi';
/** Five of the forty products are sauces: about 125,000 names, the plan for common terms. */
export const COMMON_TERM = 'Sauce';

/** Generous sign-in limit: every bodega server is signed into once by the benchmark. */
export const APP_CONFIG: AppConfig = {
  database: { url: `file:${DATABASE_PATH}` },
  loginAttemptsPerMinute: 1000,
  secureCookies: false,
  logger: false,
  // As the production server runs (main.ts): answers written without their schema check.
  checkAnswers: false,
};

/** A word list written as prose: comma-separated, over as many lines as it needs. */
const words = (text: string) => text.split(',').map((word) => word.trim());

const BRANDS = words(`Century Tuna, Lucky Me!, San Miguel, Del Monte, Nestlé, Alaska, Datu Puti, Silver Swan, Purefoods, CDO,
  Argentina, Ligo, Mega, Magnolia, Selecta, Jack n Jill, Rebisco, Oishi, Monde, Kopiko, Great Taste, UFC, Mama Sita's, Knorr`);
const PRODUCTS = words(`Tuna Flakes, Corned Beef, Meat Loaf, Sardines, Pancit Canton, Instant Mami, Spaghetti Sauce, Tomato Sauce,
  Banana Ketchup, Soy Sauce, Cane Vinegar, Coconut Milk, Evaporated Milk, Condensed Milk, Powdered Milk, Ice Cream, Potato Chips,
  Cheese Curls, Crackers, Wafer Sticks, Instant Coffee, Coffee Mix, Iced Tea, Fruit Juice, Pineapple Chunks, Fruit Cocktail,
  Liver Spread, Vienna Sausage, Luncheon Meat, Pork and Beans, Oyster Sauce, Fish Sauce, Gravy Mix, Sinigang Mix, Chicken Cubes,
  Peanut Butter, Cheese Spread, Mayonnaise, Hotdog, Longganisa`);
const VARIANTS = words(`Original, in Oil, in Brine, Hot & Spicy, Sweet Style, Kalamansi, Chilimansi, Garlic, Extra Hot, Lite, Classic,
  Family Pack, Sweet & Spicy, Less Sodium, Caldereta, Adobo, Afritada, Chocolate, Ube, Mango, Strawberry, Barbecue, Sour Cream,
  Cheddar, Bacon, Bistek, Salted Egg, Pandan, Buko, Honey`);
const SIZES = words('55g, 80g, 100g, 155g, 180g, 250g, 300g, 370ml, 385ml, 500g, 1L, 1kg, 1.5L, 2L, 6 x 55g, 12 x 330ml');

/** Grocery-like item names, the same sequence on every run. */
export function itemNames(): () => string {
  const random = randomSequence(20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  return () => `${pick(BRANDS)} ${pick(PRODUCTS)} ${pick(VARIANTS)} ${pick(SIZES)}`;
}

/** The one unit every item is counted in. */
export const ITEM_UNIT = { name: 'Piece', abbreviation: 'pc' };

/** Item `n`'s own values beside its name (the other columns are the same for every item), as either database's seed writes them. */
export function itemValues(n: number): { sku: string; barcode: string; reorderLevel: number; vatCategory: string } {
  return {
    sku: `SKU-${String(n).padStart(7, '0')}`,
    barcode: `480${String(n).padStart(10, '0')}`,
    reorderLevel: 12_000 * (1 + (n % 5)),
    vatCategory: n % 3 === 0 ? 'exempt' : 'vatable',
  };
}

export interface SeedReport {
  /** Migrations, permissions, the admin and the business, through the app itself. */
  appSeedMs: number;
  /** The items through one prepared statement, FTS triggers included. */
  itemInsertMs: number;
  recountMs: number;
  totalMs: number;
  selectiveMatches: number;
  commonMatches: number;
  viewId: number;
}

export async function createBenchDatabase(): Promise<SeedReport> {
  const started = performance.now();
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });

  const app = await buildApp(APP_CONFIG);
  const raw = new SQLite(DATABASE_PATH);
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    const appSeeded = performance.now();

    const itemInsertMs = insertItems(raw);
    await addClerk(app.db);
    const inserted = performance.now();
    await recount(app.db, getResource('items'), BUSINESS_ID);
    await recount(app.db, getResource('unit-of-measurements'), BUSINESS_ID);
    const recounted = performance.now();

    // The servers should read a compact main file, not replay a WAL as large as the table.
    raw.pragma('wal_checkpoint(TRUNCATE)');
    return {
      appSeedMs: appSeeded - started,
      itemInsertMs,
      recountMs: recounted - inserted,
      totalMs: performance.now() - started,
      selectiveMatches: countNameMatches(raw, SELECTIVE_TERM),
      commonMatches: countNameMatches(raw, COMMON_TERM),
      viewId: Math.floor(ITEM_COUNT / 2),
    };
  } finally {
    raw.close();
    await app.close();
  }
}

function insertItems(raw: SQLite.Database): number {
  // Throwaway data: durability per transaction buys nothing here.
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -262144');
  const now = new Date().toISOString();
  const unitId = Number(
    raw
      .prepare(
        'insert into unit_of_measurements (business_id, name, abbreviation, created_at, updated_at, version) values (?, ?, ?, ?, ?, 1)',
      )
      .run(BUSINESS_ID, ITEM_UNIT.name, ITEM_UNIT.abbreviation, now, now).lastInsertRowid,
  );
  const insert = raw.prepare(`
    insert into items (business_id, sku, barcode, name, description, brand_id, item_type_id, item_classification_id,
      unit_of_measurement_id, measuring_mass_id, mass_value, reorder_level, vat_category, purchase_discounts, sale_discounts,
      created_at, updated_at, deleted_at, version)
    values (?, ?, ?, ?, null, null, null, null, ?, null, null, ?, ?, '[]', '[]', ?, ?, null, 1)`);
  const nextName = itemNames();
  const insertBatch = raw.transaction((from: number, to: number) => {
    for (let n = from; n < to; n += 1) {
      const name = nextName();
      const { sku, barcode, reorderLevel, vatCategory } = itemValues(n);
      insert.run(BUSINESS_ID, sku, barcode, name, unitId, reorderLevel, vatCategory, now, now);
    }
  });

  const started = performance.now();
  const batchSize = 50_000;
  for (let from = 1; from <= ITEM_COUNT; from += batchSize) insertBatch(from, Math.min(from + batchSize, ITEM_COUNT + 1));
  return performance.now() - started;
}

/**
 * `PLACE_COUNT` branches, and the clerk: a role that may view items, and one branch among them to
 * operate at — the lists and searches are loaded as this user too, to see what being kept to one
 * place costs a request. Through the app's connection, on SQLite or PostgreSQL.
 */
export async function addClerk(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  const stamps = { created_at: now, updated_at: now, version: 1 };
  const branches = await db
    .insertInto('branches')
    .values(
      Array.from({ length: PLACE_COUNT }, (_, n) => ({
        business_id: BUSINESS_ID,
        code: `BR-${n + 1}`,
        name: `Branch ${n + 1}`,
        ...stamps,
      })),
    )
    .returning('id')
    .execute();
  const branchId = Number(branches[6].id);
  const admin = await db.selectFrom('users').select('password_hash').where('email', '=', ADMIN.email).executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      name: 'Clerk',
      email: CLERK.email,
      username: 'clerk',
      password_hash: admin.password_hash,
      security_pin_hash: null,
      ...stamps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('memberships')
    .values({ user_id: user.id, business_id: BUSINESS_ID, userable_type: 'branch', userable_id: branchId, all_places: 'none', ...stamps })
    .execute();
  await db
    .insertInto('user_places')
    .values({ business_id: BUSINESS_ID, user_id: user.id, place_type: 'branch', place_id: branchId, level: 'operate', created_at: now })
    .execute();
  const role = await db
    .insertInto('roles')
    .values({ business_id: BUSINESS_ID, name: 'Clerk', description: null, ...stamps })
    .returning('id')
    .executeTakeFirstOrThrow();
  const view = await db.selectFrom('permissions').select('id').where('name', '=', 'view-items').executeTakeFirstOrThrow();
  await db.insertInto('role_permissions').values({ role_id: role.id, permission_id: view.id }).execute();
  await db.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
  await recount(db, getResource('branches'), BUSINESS_ID);
  await recount(db, getResource('roles'), BUSINESS_ID);
}

function countNameMatches(raw: SQLite.Database, term: string): number {
  const phrase = `"${term.replaceAll('"', '""')}"`;
  const row = raw.prepare('select count(*) as matches from items_name_fts where items_name_fts match ?').get(phrase) as { matches: number };
  return row.matches;
}
