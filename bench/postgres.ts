import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { getResource } from '../src/domain/resources/registry';
import { buildApp } from '../src/server/app';
import { SEARCH_COUNT_LIMIT } from '../src/server/resources/record-service';
import { recount } from '../src/server/resources/resource-counts';
import { seed } from '../src/server/seed';
import {
  afreshTable,
  benchmark,
  benchmarkListBesideSearches,
  listsAfresh,
  listsAfreshTable,
  searchesAfresh,
  targetsFor,
  type AfreshList,
  type AfreshSearch,
  type BenchData,
  type Servers,
} from './api-targets';
import {
  ADMIN,
  addClerk,
  APP_CONFIG,
  BUSINESS_ID,
  COMMON_TERM,
  ITEM_COUNT,
  ITEM_UNIT,
  itemNames,
  itemValues,
  SELECTIVE_TERM,
} from './bench-database';
import { LOAD } from './load';
import {
  count,
  existingResults,
  figuresOf,
  goalsTable,
  percent,
  resultsTable,
  seconds,
  withSection,
  type Goal,
  type Measured,
} from './report';

/**
 * `npm run bench -- --postgres`: run.ts's API benchmarks (the list, both searches, the view, the
 * list beside clients searching) on PostgreSQL, into the PostgreSQL section of bench/results.md.
 * The server is BENCH_DATABASE_URL's, or else TEST_DATABASE_URL's. The database that URL names is
 * only connected to (the tests use TEST_DATABASE_URL's): the run drops and creates `bodega_bench`
 * on the same server and seeds it as bench-database.ts seeds SQLite, with the same item names.
 * `BENCH_ITEMS=20000` seeds that many items instead of ITEM_COUNT, for quick runs while working
 * on the benchmark; the figures it writes are then of that many items.
 */

const BENCH_DATABASE = 'bodega_bench';
const POSTGRES_SERVERS: Servers = { raw: 'raw-pg', bodega: 'bodega-pg' };
/** Items per INSERT: a batch's columns travel as arrays, which the server unnests into rows. */
const INSERT_BATCH = 50_000;

interface PostgresSeed extends BenchData {
  /** The bench database dropped and created, then the app's migrations, permissions, admin and business (buildApp, seed). */
  appSeedMs: number;
  /** The items, with the items table's other indexes dropped (the same transaction builds them again). */
  itemInsertMs: number;
  /** Those indexes built again from their own definitions, the pg_trgm GIN index searches use among them. */
  indexMs: number;
  recountMs: number;
  /** VACUUM ANALYZE and a CHECKPOINT. */
  settleMs: number;
  totalMs: number;
}

/** The server given in the environment, BENCH_DATABASE_URL first; undefined when neither is set. */
export function serverUrl(): string | undefined {
  return process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
}

/** ITEM_COUNT, or BENCH_ITEMS when set; at least a page, since the list's checks expect a full one. */
function itemCount(): number {
  const asked = process.env.BENCH_ITEMS;
  if (asked === undefined) return ITEM_COUNT;
  const items = Number(asked);
  if (!Number.isInteger(items) || items < 15) throw new Error(`BENCH_ITEMS must be a whole number of items, at least 15 (got "${asked}").`);
  return items;
}

/** `url` with the database it names replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const changed = new URL(url);
  changed.pathname = `/${database}`;
  return changed.toString();
}

/** `work` on one connection of its own to `url`, closed after (a transaction left open is then rolled back). */
export async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An empty bench database beside the server URL's own, dropped first (with its sessions) if an earlier run left it. */
async function recreateBenchDatabase(server: string): Promise<void> {
  await connected(server, async (client) => {
    await client.query(`drop database if exists ${BENCH_DATABASE} with (force)`);
    await client.query(`create database ${BENCH_DATABASE}`);
  });
}

/**
 * Drops a table's indexes but its primary key's and its constraints', and answers the statements
 * that build them again: one build over a full table is much cheaper than keeping an index (above
 * all a GIN one) up to date row by row.
 */
async function dropIndexes(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition from pg_index
      where indrelid = $1::regclass and not exists (select from pg_constraint where conindid = indexrelid)`,
    [table],
  );
  for (const { name } of rows) await client.query(`drop index ${name}`);
  return rows.map((row) => row.definition);
}

/**
 * The unit and the items of bench-database.ts, in one transaction: INSERT_BATCH items per
 * INSERT … SELECT FROM unnest(arrays), the items table's indexes dropped before and built again
 * after. The columns the SQLite seed leaves null or at their default get the table's defaults.
 */
async function insertItems(client: pg.Client, items: number): Promise<{ itemInsertMs: number; indexMs: number }> {
  await client.query('begin');
  // Room for the index builds to sort and gather in memory rather than in temporary files.
  await client.query(`set local maintenance_work_mem = '512MB'`);
  const now = new Date().toISOString();
  const unit = await client.query<{ id: number }>(
    'insert into unit_of_measurements (business_id, name, abbreviation, created_at, updated_at) values ($1, $2, $3, $4, $4) returning id',
    [BUSINESS_ID, ITEM_UNIT.name, ITEM_UNIT.abbreviation, now],
  );
  const indexes = await dropIndexes(client, 'items');

  const started = performance.now();
  const nextName = itemNames();
  for (let from = 1; from <= items; from += INSERT_BATCH) {
    const batch = {
      sku: [] as string[],
      barcode: [] as string[],
      name: [] as string[],
      reorderLevel: [] as number[],
      vatCategory: [] as string[],
    };
    for (let n = from; n < Math.min(from + INSERT_BATCH, items + 1); n += 1) {
      const values = itemValues(n);
      batch.name.push(nextName());
      batch.sku.push(values.sku);
      batch.barcode.push(values.barcode);
      batch.reorderLevel.push(values.reorderLevel);
      batch.vatCategory.push(values.vatCategory);
    }
    await client.query(
      `insert into items (business_id, unit_of_measurement_id, created_at, updated_at, sku, barcode, name, reorder_level, vat_category)
       select $1::int, $2::int, $3::timestamptz, $3::timestamptz, * from unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[])`,
      [BUSINESS_ID, unit.rows[0].id, now, batch.sku, batch.barcode, batch.name, batch.reorderLevel, batch.vatCategory],
    );
  }
  const inserted = performance.now();
  for (const definition of indexes) await client.query(definition);
  await client.query('commit');
  return { itemInsertMs: inserted - started, indexMs: performance.now() - inserted };
}

/**
 * VACUUM ANALYZE, then CHECKPOINT: the planner's statistics and the visibility map as a database
 * in use has them, and the seed's writes on disk, so that neither autovacuum nor a checkpoint
 * set off by the seed runs while the servers are measured.
 */
async function settle(client: pg.Client): Promise<void> {
  await client.query('vacuum analyze');
  await client.query('checkpoint');
}

/** How many of the first `items` names hold `term` in any case: counted from the names, not by the database under test. */
function nameMatches(items: number, term: string): number {
  const nextName = itemNames();
  const folded = term.toLowerCase();
  let matches = 0;
  for (let n = 1; n <= items; n += 1) if (nextName().toLowerCase().includes(folded)) matches += 1;
  return matches;
}

/** The bench database, seeded as bench-database.ts seeds SQLite: the app's own schema and seed, then `items` items. */
async function createPostgresBenchDatabase(server: string, benchUrl: string, items: number): Promise<PostgresSeed> {
  const started = performance.now();
  await recreateBenchDatabase(server);
  const app = await buildApp({ ...APP_CONFIG, database: { url: benchUrl } });
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    const appSeeded = performance.now();
    const { itemInsertMs, indexMs } = await connected(benchUrl, (client) => insertItems(client, items));
    await addClerk(app.db);
    const inserted = performance.now();
    await recount(app.db, getResource('items'), BUSINESS_ID);
    await recount(app.db, getResource('unit-of-measurements'), BUSINESS_ID);
    const recounted = performance.now();
    await connected(benchUrl, settle);
    const settled = performance.now();
    return {
      appSeedMs: appSeeded - started,
      itemInsertMs,
      indexMs,
      recountMs: recounted - inserted,
      settleMs: settled - recounted,
      totalMs: settled - started,
      itemCount: items,
      selectiveMatches: nameMatches(items, SELECTIVE_TERM),
      commonMatches: nameMatches(items, COMMON_TERM),
      viewId: Math.floor(items / 2),
    };
  } finally {
    await app.close();
  }
}

/** The PostgreSQL targets: the list's p99 and both searches'. */
/** Issue #33's targets on PostgreSQL, the shares of raw measured in the same run. */
function postgresGoals(rows: Measured[]): Goal[] {
  const raw = figuresOf(rows, 'raw');
  const p99Under = (target: string, name: string, ms: number): Goal => {
    const { p99Ms } = figuresOf(rows, name);
    return { target: `${target} p99 < ${ms} ms`, observed: `p99 ${p99Ms} ms`, met: p99Ms < ms };
  };
  const shareOfRaw = (name: string, share: number): Goal => {
    const { requestsPerSecond } = figuresOf(rows, name);
    return {
      target: `${name} ≥ ${share * 100} % of raw req/s`,
      observed: `${percent(requestsPerSecond, raw.requestsPerSecond)} of raw`,
      met: requestsPerSecond >= share * raw.requestsPerSecond,
    };
  };
  return [
    shareOfRaw('bodega list', 0.5),
    p99Under('bodega list', 'bodega list', 20),
    shareOfRaw('bodega view', 0.6),
    p99Under(`bodega search ("${SELECTIVE_TERM}")`, 'bodega search', 50),
    p99Under(`bodega search, common term ("${COMMON_TERM}")`, 'bodega search, common term', 100),
  ];
}

interface PostgresRun {
  date: Date;
  /** The 1-minute load average when the measuring ended. */
  loadAverage: number;
  /** `select version()` */
  version: string;
  /** The server's host and port, from its URL. */
  host: string;
  seed: PostgresSeed;
  rows: Measured[];
  afresh: AfreshSearch[];
  listsRead: AfreshList[];
}

/** How many names a term matches, and whether that is more than a search counts (its answer then says "more than"). */
function termMatches(term: string, matches: number): string {
  const beyond =
    matches > SEARCH_COUNT_LIMIT ? `, more than a search counts (${count(SEARCH_COUNT_LIMIT)}): its answer says "more than"` : '';
  return `\`${term}\` matches ${count(matches)} names${beyond}`;
}

function postgresSection({ date, loadAverage, version, host, seed, rows, afresh, listsRead }: PostgresRun): string {
  return `## PostgreSQL

Written by \`npm run bench -- --postgres\` (bench/postgres.ts).

- Date: ${date.toISOString()}
- Server: ${version}, at ${host}; database \`${BENCH_DATABASE}\`, created for the run
- Data: ${count(seed.itemCount)} items in one business, the names of the SQLite run; the app's schema from its migrations (buildApp), searched through the pg_trgm GIN index on \`items.name\`
- Seed: ${seconds(seed.totalMs)} in all — database, app schema and seed ${seconds(seed.appSeedMs)}, items insert ${seconds(seed.itemInsertMs)} (one transaction, INSERT … SELECT FROM unnest of ${count(INSERT_BATCH)} items at a time, the items' other indexes dropped), indexes built again ${seconds(seed.indexMs)}, recount ${seconds(seed.recountMs)}, VACUUM ANALYZE and CHECKPOINT ${seconds(seed.settleMs)}
- Search terms: ${termMatches(SELECTIVE_TERM, seed.selectiveMatches)}; ${termMatches(COMMON_TERM, seed.commonMatches)}
- Servers: raw is \`raw-pg\` (bench/serve.ts), the page's query through a pg Pool of 10 connections with its total counted once at start; bodega is \`buildApp\` on the same database (its pool also holds 10)
- Load: as for SQLite, autocannon in the parent process, each server in a child process of its own, ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up then ${LOAD.seconds} s measured; latency has 1 ms resolution. 1-minute load average at the end ${loadAverage.toFixed(1)} on ${availableParallelism()} CPUs

${resultsTable(rows)}

${afreshTable(afresh)}

${listsAfreshTable(listsRead)}

### Targets

${goalsTable(postgresGoals(rows))}
`;
}

/**
 * Seeds the bench database, loads raw-pg and bodega-pg as run.ts loads the SQLite servers, and
 * writes the PostgreSQL section of `resultsPath`, keeping the others. Without a server to use,
 * says what to set and fails the run.
 */
export async function postgresBench(resultsPath: string): Promise<void> {
  const server = serverUrl();
  if (!server) {
    console.error(
      `npm run bench -- --postgres needs a PostgreSQL server: set BENCH_DATABASE_URL or TEST_DATABASE_URL (it creates ${BENCH_DATABASE} there).`,
    );
    process.exitCode = 1;
    return;
  }
  const items = itemCount();
  const benchUrl = withDatabase(server, BENCH_DATABASE);
  console.log(`Seeding ${count(items)} items into the PostgreSQL database ${BENCH_DATABASE} …`);
  const seeded = await createPostgresBenchDatabase(server, benchUrl, items);
  console.log(
    `  seeded in ${seconds(seeded.totalMs)} (items insert ${seconds(seeded.itemInsertMs)}, indexes ${seconds(seeded.indexMs)}); ` +
      `"${SELECTIVE_TERM}" matches ${seeded.selectiveMatches}, "${COMMON_TERM}" matches ${seeded.commonMatches}`,
  );
  const version = await connected(
    benchUrl,
    async (client) => (await client.query<{ version: string }>('select version()')).rows[0].version,
  );

  // The servers started next (bench/serve.ts) inherit this environment, and read the bench database from it.
  process.env.BENCH_POSTGRES_URL = benchUrl;
  console.log(`Loading each server: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up, ${LOAD.seconds} s measured …`);
  const rows: Measured[] = [];
  for (const target of targetsFor(seeded, POSTGRES_SERVERS)) rows.push(await benchmark(target));
  rows.push(await benchmarkListBesideSearches(seeded, POSTGRES_SERVERS));
  // A table of the benchmark's own, which the app never reads: a write to the database all the same.
  const [afresh, listsRead] = await connected(benchUrl, async (client) => {
    await client.query('create table if not exists bench_touches (id serial primary key, at double precision)');
    const touch = async () => {
      await client.query('insert into bench_touches (at) values ($1)', [Date.now()]);
    };
    return [await searchesAfresh(seeded, POSTGRES_SERVERS, touch), await listsAfresh(seeded, POSTGRES_SERVERS, touch)] as const;
  });

  const section = postgresSection({
    date: new Date(),
    loadAverage: loadavg()[0],
    version,
    host: new URL(server).host,
    seed: seeded,
    rows,
    afresh,
    listsRead,
  });
  writeFileSync(resultsPath, withSection(existingResults(resultsPath), 'PostgreSQL', section));
  console.log(`\n${resultsTable(rows)}\n\n${goalsTable(postgresGoals(rows))}\n\nWritten to bench/results.md`);
}
