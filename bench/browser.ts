import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { Dexie } from 'dexie';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureClientBuilt } from '../scripts/client-build';
import type { OutboxEntry } from '../src/client/lib/offline-store';
import { getResource } from '../src/domain/resources/registry';
import { buildApp } from '../src/server/app';
import { nowIso } from '../src/server/db/dialect';
import { recount } from '../src/server/resources/resource-counts';
import type { Db } from '../src/server/db/scope';
import { seed } from '../src/server/seed';
import { BUSINESS_ID, DATA_DIR, itemNames } from './bench-database';

/**
 * The browser benchmark: the production build, served by the real server
 * with the demo data and CACHED_ITEMS items, in Debian's headless Chromium driven by
 * playwright-core (as tests/e2e does). What it times is what a user waits for offline: the app
 * opening from the service worker and IndexedDB, Dexie writing a large answer, and the outbox
 * sending a backlog when the network returns.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CACHED_ITEMS = 10_000;
export const QUEUED_CREATES = 1_000;
/** Odd, so that the median is one run's figure; a replay takes most of a minute, hence fewer of those. */
const RUNS = 7;
const REPLAY_RUNS = 5;

const ADMIN = { email: 'admin@example.com', password: 'bench-password' };
const DATABASE_PATH = `${DATA_DIR}browser.sqlite`;
/** The signed-in admin's IndexedDB database (offline-store.ts: one per user). */
const USER_DATABASE = 'bodega-user-1';
/** Dexie's UMD build, put on the app's pages to reach its database the way the app does. */
const DEXIE_UMD = resolve('node_modules/dexie/dist/dexie.js');
const FIRST_ROW_MARK = 'bench:first-row-painted';
const APP_ROWS_MARK = 'bench:app-rows-painted';
const OFFLINE_NOTICE = /^Offline — showing data saved at /;
const REPLAY_TIMEOUT_MS = 300_000;

type DexieWindow = { Dexie: typeof Dexie };

export interface Spread {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
}

export interface ScriptSize {
  files: number;
  gzipBytes: number;
}

/** The first screens measured, each by the source modules its route loads (dist/.vite/manifest.json). */
export const FIRST_SCREENS = [
  { path: '/login', modules: ['src/client/features/auth/login-screen.tsx'] },
  { path: '/items', modules: ['src/client/screen-parts.tsx', 'src/client/components/crud/list-screen.tsx'] },
  { path: '/', modules: ['src/client/features/overview/overview-screen.tsx'] },
  { path: '/counter', modules: ['src/client/features/counter/counter-screen.tsx'] },
] as const;

/** The most first-screen JS, gzipped, a screen may load. */
export const FIRST_SCREEN_BUDGET_BYTES = 120_000;

export interface FirstScreenJs {
  /** The entry script and its modulepreload links in dist/index.html: every screen loads them. */
  entry: ScriptSize;
  /** Each screen's lazy chunks beyond those. */
  screens: { path: string; route: ScriptSize }[];
  /** Dexie's chunk: every signed-in start loads it next, for the offline store; only reading back offline waits for it. */
  dexie: ScriptSize;
}

export interface BrowserFigures {
  date: Date;
  chromium: string;
  coldStart: Spread;
  /** To the app's own list drawn, the kept look gone: for information. */
  coldStartApp: Spread;
  bulkPut: Spread;
  replay: Spread;
  firstScreenJs: FirstScreenJs;
}

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

function spreadOf(timesMs: number[]): Spread {
  const sorted = [...timesMs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const medianMs = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { medianMs, minMs: sorted[0], maxMs: sorted[sorted.length - 1], runs: sorted.length };
}

// ---- First-screen JS -------------------------------------------------------------------------

interface ManifestChunk {
  file: string;
  imports?: string[];
}

const gzipSize = (files: string[]): ScriptSize => ({
  files: files.length,
  gzipBytes: files.reduce((sum, file) => sum + gzipSync(readFileSync(join('dist', file))).length, 0),
});

/** A chunk of the build manifest with every chunk it imports statically, as files. */
function withStaticImports(manifest: Record<string, ManifestChunk>, key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`No "${key}" in dist/.vite/manifest.json.`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) withStaticImports(manifest, imported, files);
  return files;
}

/** What each first screen loads, gzipped as node:zlib does by default. */
export function firstScreenJs(): FirstScreenJs {
  const html = readFileSync('dist/index.html', 'utf8');
  const entry = [...html.matchAll(/<(?:script[^>]* src|link rel="modulepreload"[^>]* href)="\/([^"]+)"/g)].map(([, file]) => file);
  const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<string, ManifestChunk>;
  const beyondEntry = (modules: readonly string[]) => {
    const files = new Set<string>();
    for (const module of modules) withStaticImports(manifest, module, files);
    return [...files].filter((file) => !entry.includes(file));
  };
  return {
    entry: gzipSize(entry),
    screens: FIRST_SCREENS.map(({ path, modules }) => ({ path, route: gzipSize(beyondEntry(modules)) })),
    dexie: gzipSize(beyondEntry(['node_modules/dexie/import-wrapper.mjs'])),
  };
}

// ---- The server ------------------------------------------------------------------------------

/** Adds grocery items to the demo business until it holds `total`, then recounts its list total. */
async function fillItems(db: Db, total: number): Promise<void> {
  const { count } = await db
    .selectFrom('items')
    .select(sql<number>`count(*)`.as('count'))
    .where('business_id', '=', BUSINESS_ID)
    .executeTakeFirstOrThrow();
  const unit = await db
    .selectFrom('unit_of_measurements')
    .select('id')
    .where('business_id', '=', BUSINESS_ID)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const nextName = itemNames();
  const now = nowIso();
  const rows = Array.from({ length: total - count }, (_, index) => ({
    business_id: BUSINESS_ID,
    sku: `BENCH-${String(index).padStart(6, '0')}`,
    barcode: `4899${String(index).padStart(9, '0')}`,
    name: nextName(),
    unit_of_measurement_id: unit.id,
    reorder_level: 12_000 * (1 + (index % 5)),
    vat_category: index % 3 === 0 ? 'exempt' : 'vatable',
    created_at: now,
    updated_at: now,
    version: 1,
  }));
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < rows.length; from += 500)
      await trx
        .insertInto('items')
        .values(rows.slice(from, from + 500))
        .execute();
  });
  await recount(db, getResource('items'), BUSINESS_ID);
}

/**
 * The built app on a free loopback port, over a fresh SQLite file (WAL, as in production).
 * bench/lighthouse.ts serves it too, from a database file and a copy of the build of its own.
 */
export async function startServer(
  databasePath = DATABASE_PATH,
  clientDir = resolve('dist'),
): Promise<{ app: FastifyInstance; db: Db; url: string }> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
  const app = await buildApp({
    database: { url: `file:${databasePath}` },
    loginAttemptsPerMinute: 1000,
    secureCookies: false,
    logger: false,
    clientDir,
  });
  const db: Db = app.db;
  await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
  await fillItems(db, CACHED_ITEMS);
  return { app, db, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

// ---- In the page -----------------------------------------------------------------------------

/**
 * An init script: marks the first frame painted after a list row exists. requestAnimationFrame
 * runs just before that frame's paint, and a task queued from it just after.
 */
function markFirstRowPainted({ firstRow, appRows }: { firstRow: string; appRows: string }): void {
  // (No named function in here: tsx would wrap it in a helper the page does not have.)
  for (const [mark, selector] of [
    [firstRow, 'tbody tr'],
    // And the app's own list: its rows in the app's root, the kept look gone.
    [appRows, 'body:not(:has(#first-look)) #root tbody tr'],
  ]) {
    new MutationObserver((_mutations, observer) => {
      if (!document.querySelector(selector)) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => performance.mark(mark)));
    }).observe(document, { childList: true, subtree: true });
  }
}

/** Dexie as `window.Dexie`. Evaluated rather than added as a tag, which the app's CSP would refuse. */
async function injectDexie(page: Page): Promise<void> {
  await page.evaluate(readFileSync(DEXIE_UMD, 'utf8'));
}

/** Signs in through the form and waits until the app would open offline (as tests/e2e/pwa.test.ts). */
async function signIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account of/ }).waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.getByRole('button', { name: /^Account of/ }).waitFor();
  // The session is written to localStorage a moment after it changes.
  await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));
  const businessId = await page.evaluate(() => localStorage.getItem('business_id'));
  if (businessId !== String(BUSINESS_ID)) throw new Error(`Signed in to business ${businessId}, expected ${BUSINESS_ID}.`);
  return page;
}

/**
 * The app keeps /items' first page itself; the rest of the items are put in its records table in
 * the shape saveAnswer (offline-store.ts) gives them, from the API's own pages of 100.
 */
async function cacheItems(page: Page): Promise<void> {
  await page.goto('/items');
  await page.getByText(`List of Items - Total ${CACHED_ITEMS}`).waitFor();
  await injectDexie(page);
  const cached = await page.evaluate(
    async ({ name, businessId, pages }) => {
      const database = new (window as unknown as DexieWindow).Dexie(name);
      await database.open();
      const answers = database.table('answers').where('[businessId+resource]').equals([businessId, 'items']);
      for (let wait = 0; (await answers.count()) === 0; wait += 1) {
        if (wait === 100) throw new Error('The app did not keep the /items answer.');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (let number = 1; number <= pages; number += 1) {
        const response = await fetch(`/api/items?per_page=100&page=${number}`, {
          headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'Business-ID': String(businessId) },
        });
        if (!response.ok) throw new Error(`GET /api/items page ${number}: ${response.status}`);
        const { data } = (await response.json()) as { data: { id: number; name: string }[] };
        const savedAt = Date.now();
        await database.table('records').bulkPut(
          data.map((record) => ({
            key: `${businessId}|items|${record.id}`,
            businessId,
            resource: 'items',
            text: record.name.toLowerCase(),
            record,
            savedAt,
          })),
        );
      }
      const count = await database.table('records').where('[businessId+resource]').equals([businessId, 'items']).count();
      database.close();
      return count;
    },
    { name: USER_DATABASE, businessId: BUSINESS_ID, pages: CACHED_ITEMS / 100 },
  );
  if (cached !== CACHED_ITEMS) throw new Error(`${cached} items cached, expected ${CACHED_ITEMS}.`);
}

// ---- The benchmarks --------------------------------------------------------------------------

/** A new page each run (a cold JS start; the service worker serves the shell), offline, on /items. */
async function coldOfflineStarts(context: BrowserContext): Promise<{ firstRow: number[]; appRows: number[] }> {
  await context.setOffline(true);
  const times: number[] = [];
  const appTimes: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const page = await context.newPage();
    await page.goto('/items');
    // Without the notice the rows did not come from IndexedDB, and the run would time something else.
    await page.getByText(OFFLINE_NOTICE).waitFor();
    const painted = await page.waitForFunction((mark) => performance.getEntriesByName(mark)[0]?.startTime, FIRST_ROW_MARK);
    times.push((await painted.jsonValue()) as number);
    const drawn = await page.waitForFunction((mark) => performance.getEntriesByName(mark)[0]?.startTime, APP_ROWS_MARK);
    appTimes.push((await drawn.jsonValue()) as number);
    const rows = await page.locator('tbody tr').count();
    if (rows !== 15) throw new Error(`The offline list shows ${rows} rows, expected 15.`);
    await page.close();
  }
  await context.setOffline(false);
  return { firstRow: times, appRows: appTimes };
}

/** Each run writes the cached item rows into a database of its own, created just before. */
async function bulkPuts(context: BrowserContext): Promise<number[]> {
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: /^Account of/ }).waitFor();
  await injectDexie(page);
  const times = await page.evaluate(
    async ({ name, businessId, runs }) => {
      const DexieClass = (window as unknown as DexieWindow).Dexie;
      const source = new DexieClass(name);
      await source.open();
      const rows = await source.table('records').where('[businessId+resource]').equals([businessId, 'items']).toArray();
      source.close();
      const measured: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const database = new DexieClass(`bench-bulk-put-${run}`);
        database.version(1).stores({ records: 'key, [businessId+resource]' });
        await database.open();
        const started = performance.now();
        await database.table('records').bulkPut(rows);
        measured.push(performance.now() - started);
        if ((await database.table('records').count()) !== rows.length) throw new Error('bulkPut wrote fewer rows than it was given.');
        database.close();
        await DexieClass.delete(`bench-bulk-put-${run}`);
      }
      return measured;
    },
    { name: USER_DATABASE, businessId: BUSINESS_ID, runs: RUNS },
  );
  await page.close();
  return times;
}

const brandCount = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('brands')
        .select(sql<number>`count(*)`.as('count'))
        .where('business_id', '=', BUSINESS_ID)
        .executeTakeFirstOrThrow()
    ).count,
  );

const outboxStates = (page: Page) =>
  page.evaluate(async (name) => {
    const database = new (window as unknown as DexieWindow).Dexie(name);
    await database.open();
    const states = (await database.table('outbox').toArray()).map((entry: OutboxEntry) => entry.state);
    database.close();
    return states;
  }, USER_DATABASE);

/**
 * Each run queues QUEUED_CREATES brand creates offline, as the app's create form would, then
 * times from the network's return (the app's `online` event sends the outbox) until the outbox
 * is empty and the server holds exactly that many new brands. The page stays on the overview.
 */
async function replays(context: BrowserContext, db: Db): Promise<number[]> {
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('link', { name: 'Pending changes: 0' }).waitFor();
  await injectDexie(page);
  const times: number[] = [];
  for (let run = 0; run < REPLAY_RUNS; run += 1) {
    const expected = (await brandCount(db)) + QUEUED_CREATES;
    await context.setOffline(true);
    await page.evaluate(
      async ({ name, businessId, count, first }) => {
        const database = new (window as unknown as DexieWindow).Dexie(name);
        await database.open();
        const createdAt = Date.now();
        const entries = Array.from({ length: count }, (_, index): OutboxEntry => {
          const key = crypto.randomUUID();
          const brand = `Bench brand ${first + index}`;
          return {
            key,
            businessId,
            resource: 'brands',
            action: 'create',
            recordId: key,
            method: 'POST',
            path: '/api/brands',
            body: { name: brand },
            label: `Create Brand ${brand}`,
            createdAt,
            attempts: 0,
            state: 'queued',
          };
        });
        await database.table('outbox').bulkAdd(entries);
        database.close();
      },
      { name: USER_DATABASE, businessId: BUSINESS_ID, count: QUEUED_CREATES, first: run * QUEUED_CREATES + 1 },
    );
    await page.getByRole('link', { name: `Pending changes: ${QUEUED_CREATES}` }).waitFor();

    const started = performance.now();
    await context.setOffline(false);
    // The server's count is cheap to poll; the page's outbox is read only once the count is there.
    while ((await brandCount(db)) < expected || (await outboxStates(page)).length > 0) {
      if (performance.now() - started > REPLAY_TIMEOUT_MS) {
        const states = await outboxStates(page);
        throw new Error(
          `Replay unfinished after ${REPLAY_TIMEOUT_MS / 1000} s: ${states.length} left (${[...new Set(states)].join(', ')}).`,
        );
      }
      await sleep(10);
    }
    times.push(performance.now() - started);
    const brands = await brandCount(db);
    if (brands !== expected)
      throw new Error(`The server holds ${brands - expected + QUEUED_CREATES} new brands, expected ${QUEUED_CREATES}.`);
  }
  await page.close();
  return times;
}

/** Builds the app if needed, serves it, and measures each benchmark in one signed-in browser context. */
export async function runBrowserBench(): Promise<BrowserFigures> {
  ensureClientBuilt();
  const { app, db, url } = await startServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, baseURL: url });
    await context.addInitScript(markFirstRowPainted, { firstRow: FIRST_ROW_MARK, appRows: APP_ROWS_MARK });
    const setup = await signIn(context);
    await cacheItems(setup);
    await setup.close();

    console.log(`  cold offline start (${CACHED_ITEMS.toLocaleString('en-US')} cached items) …`);
    const starts = await coldOfflineStarts(context);
    const coldStart = spreadOf(starts.firstRow);
    const coldStartApp = spreadOf(starts.appRows);
    console.log(`  Dexie bulkPut of ${CACHED_ITEMS.toLocaleString('en-US')} rows …`);
    const bulkPut = spreadOf(await bulkPuts(context));
    console.log(`  replay of ${QUEUED_CREATES.toLocaleString('en-US')} queued creates …`);
    const replay = spreadOf(await replays(context, db));
    return { date: new Date(), chromium: browser.version(), coldStart, coldStartApp, bulkPut, replay, firstScreenJs: firstScreenJs() };
  } finally {
    await browser?.close();
    await app.close();
  }
}
