import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { todayInManila } from '../src/domain/documents';
import { getResource } from '../src/domain/resources/registry';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/dialect';
import { FOLLOW_UP_MS, settleCosts } from '../src/server/documents/cost-follow-up';
import { addDays } from '../src/server/overview/calendar';
import { recount } from '../src/server/resources/resource-counts';
import { seed } from '../src/server/seed';
import { randomSequence } from '../tests/support/random-sequence';
import { sessionCookie } from './api-targets';
import { ADMIN, APP_CONFIG, BUSINESS_ID, DATA_DIR } from './bench-database';
import { seedSales, seedStockValue, STOCK_VALUE_DATA, type StockValueSeed } from './costing-database';
import { LOAD, type Server } from './load';
import { signedIn } from './overview';
import { connected, serverUrl, withDatabase } from './postgres';
import { count, goalsTable, seconds, type Goal } from './report';

/**
 * What things cost (issue #32): three budgets of the moving-average cost (docs/costing.md), on
 * SQLite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server, on PostgreSQL.
 *
 * 1. Posting: the same invoices posted, one request at a time and alternating, to two servers on
 *    one fresh demo database — one as it is, one started with a module hook (no-costing.ts) under
 *    which the ledger's movements never wait to be costed and no follow-up runs; each server sells
 *    its own POSTING.items items, stocked beforehand. What costing adds is the difference of the
 *    two p50s. The hook is checked: the second server's invoices have no cost entries. Then, for
 *    information, POSTING.read more to each, each read back at once (`GET`, which waits for the
 *    invoice's follow-up): what costing adds when its follow-up is counted too.
 * 2. Back-dating: one item sold BACKDATED.sales times over the last BACKDATED.days days (one-line
 *    invoices, written by bulk SQL with their ledger of cost before the server starts), then
 *    BACKDATED.receipts receipts of it dated before every sale, one after the other, to the
 *    server with costing, while autocannon loads `GET /api/items` beside them: each receipt puts
 *    its entry before all the sales' and its follow-up costs every later entry and sale line
 *    again; each is timed until a read of it (`GET`, which waits for the follow-up) answers.
 * 3. Stock value on a date: a fresh demo database grown by bulk SQL (costing-database.ts) to
 *    STOCK_VALUE_DATA.items items at three branches with their ledger of cost; the report's first
 *    page (JSON) and its CSV read to the end, for a day before every sale and for today.
 */

export const POSTING = { items: 20, invoices: 400, warmUp: 20, openingUnits: 10_000, read: 100, gapMs: 20 };
export const BACKDATED = { sales: 10_000, days: 20, receipts: 5, receiptDaysAgo: 22 };
export const STOCK_VALUE_RUNS = 3;
/** A report unanswered after ten times its budget is stopped there (its server killed and started again): the bench has a time to keep. */
export const STOCK_VALUE_CAP_MS = 20_000;
/** A run slower than five times the budget is not run again: its median is that one run. */
export const STOCK_VALUE_ONCE_MS = 10_000;
/** Days before today the stock value is asked for: before every sale (all of them subtracted), and today. */
export const STOCK_VALUE_DAYS = [STOCK_VALUE_DATA.salesDays, 0];

export const COSTING_TARGETS = {
  /** Costing may add this much to posting an invoice, p50, server-side. */
  postingAddsMs: 1,
  /** A receipt dated before BACKDATED.sales later movements of its item. */
  receiptMs: 2_000,
  /** Other requests meanwhile. */
  listP99Ms: 50,
  stockValueMs: 2_000,
};

const SQLITE_PATH = `${DATA_DIR}costing.sqlite`;
const POSTGRES_DATABASE = 'bodega_costing';
const STOCK_VALUE_SQLITE_PATH = `${DATA_DIR}stock-value.sqlite`;
const STOCK_VALUE_POSTGRES_DATABASE = 'bodega_stock_value';
const LIST_PATH = '/api/items';

export type CostingDatabase = 'SQLite' | 'PostgreSQL';

export interface Spread {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface PostingFigures {
  lines: number;
  withCosting: Spread;
  without: Spread;
  /** Cost entries the invoices posted to each server made: the one without costing must make none. */
  entries: { withCosting: number; without: number };
  /** Posted and read back at once, the read waiting for the invoice's follow-up: informative. */
  readBack: { withCosting: Spread; without: Spread };
}

export interface BackdatedFigures {
  seedMs: number;
  /** Each receipt's time, in order. */
  receiptsMs: number[];
  /** The sale lines whose cost the last receipt changed. */
  restamped: number;
  list: ListFigures;
  /** The same list alone just before, for comparison. */
  listAlone: ListFigures;
}

interface ListFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  timeouts: number;
}

/** What autocannon found of the list. */
const listFigures = (result: Awaited<ReturnType<typeof autocannon>>): ListFigures => ({
  requestsPerSecond: result.requests.average,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  maxMs: result.latency.max,
  non2xx: result.non2xx,
  timeouts: result.timeouts,
});

/** Seconds the list is loaded alone before the receipts, for comparison. */
const LIST_ALONE_SECONDS = 5;

export interface StockValueTiming {
  name: string;
  date: string;
  daysAgo: number;
  /** Measured without the planner's statistics (as the app leaves a SQLite file), or after ANALYZE (informative, SQLite only). */
  analyzed: boolean;
  runsMs: number[];
  medianMs: number;
  /** Stopped at STOCK_VALUE_CAP_MS, unanswered: its runs end there, and its median is the cap. */
  stopped: boolean;
  /** The report's rows (the JSON's meta.total; the CSV's lines of items), and the answer's size. */
  rows: number;
  bytes: number;
}

export interface StockValueFigures {
  seedMs: number;
  seed: StockValueSeed;
  timings: StockValueTiming[];
}

export interface CostingFigures {
  date: Date;
  database: CostingDatabase;
  posting: PostingFigures;
  backdated: BackdatedFigures;
  stockValue: StockValueFigures;
  loadAverage: number;
}

// ---- Servers ---------------------------------------------------------------------------------

const SERVE_SCRIPT = fileURLToPath(new URL('serve.ts', import.meta.url));
const NO_COSTING = fileURLToPath(new URL('no-costing.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * serve.ts `bodega-costing` on `url` in a process of its own, as load.ts starts the others; without
 * costing, with the module hook of no-costing.ts too. BENCH_COSTING_PROFILE=1 writes a CPU profile
 * of each server into bench/.data/ when it stops (which slows it: the figures written are then a profiled server's).
 */
interface CostingServer extends Server {
  /** Ends it at once: a server held by a statement that runs on cannot close. */
  kill(): Promise<void>;
}

function startCostingServer(url: string, costing: boolean): Promise<CostingServer> {
  const profile = process.env.BENCH_COSTING_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${DATA_DIR}`] : [];
  const hook = costing ? [] : ['--import', NO_COSTING];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', ...hook, SERVE_SCRIPT, 'bodega-costing'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_COSTING_URL: url },
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const stop = async () => {
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const name = costing ? 'costing' : 'no-costing';
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop().then(() => reject(error));
    };
    const exitedEarly = (code: number | null) => fail(new Error(`The ${name} server exited (code ${code}) before it was ready.`));
    const timer = setTimeout(
      () => fail(new Error(`The ${name} server did not start within ${START_TIMEOUT_MS / 1000} s.`)),
      START_TIMEOUT_MS,
    );
    child.once('exit', exitedEarly);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const ready = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!ready) return;
      clearTimeout(timer);
      child.off('exit', exitedEarly);
      resolve({ url: ready[1], stop, kill: () => (child.kill('SIGKILL'), exited) });
    });
  });
}

/** A fresh database with the demo data at `sqlitePath` or as the PostgreSQL server's `database` (made anew); the app open on it. */
async function freshDemo(kind: CostingDatabase, sqlitePath: string, database: string): Promise<{ url: string; app: FastifyInstance }> {
  let url: string;
  if (kind === 'SQLite') {
    mkdirSync(DATA_DIR, { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqlitePath}${suffix}`, { force: true });
    url = `file:${sqlitePath}`;
  } else {
    const server = serverUrl()!;
    await connected(server, async (client) => {
      await client.query(`drop database if exists ${database} with (force)`);
      await client.query(`create database ${database}`);
    });
    url = withDatabase(server, database);
  }
  const app = await buildApp({ ...APP_CONFIG, database: { url } });
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
  } catch (error) {
    await app.close();
    throw error;
  }
  return { url, app };
}

/** What the API answered, parsed; fails on any status but `expected`. */
async function answered<T>(what: string, status: number, text: string, expected: number): Promise<T> {
  if (status !== expected) throw new Error(`${what} answered ${status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

type Send = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;

/** Requests through `app.inject` as the signed-in admin: 201 expected of a POST, 200 of a GET. */
async function injecting(app: FastifyInstance): Promise<Send> {
  const headers = { ...(await signedIn(app)), 'x-requested-with': 'XMLHttpRequest' };
  return async (method, path, body) => {
    const response = await app.inject({ method, url: path, headers, payload: body as object | undefined });
    return answered(`${method} ${path}`, response.statusCode, response.body, method === 'POST' ? 201 : 200);
  };
}

/** The signed-in admin's headers for a server: the session cookie and the business. */
async function adminHeaders(server: Server): Promise<Record<string, string>> {
  return { cookie: await sessionCookie(server.url), 'business-id': String(BUSINESS_ID) };
}

/** POSTs `body` as JSON over HTTP (keep-alive), reading the whole answer; 201 expected. */
async function post(server: Server, headers: Record<string, string>, path: string, body: unknown): Promise<{ data: { id: number } }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify(body),
  });
  return answered(`POST ${path}`, response.status, await response.text(), 201);
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
const round = (ms: number) => Math.round(ms * 100) / 100;

function spread(times: readonly number[]): Spread {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted.at(-1)!),
  };
}

const median = (values: readonly number[]) => spread(values).p50Ms;

// ---- The demo business made ready: items to sell, and one item sold many times ---------------

interface Prepared {
  url: string;
  branchId: number;
  unitId: number;
  customerId: number;
  supplierId: number;
  /** Each server's items to sell. */
  withCosting: number[];
  without: number[];
  /** The item sold BACKDATED.sales times. */
  walked: number;
  seedMs: number;
}

interface Listed {
  data: { id: number }[];
}

/**
 * A fresh demo database, and through the API in-process: a customer with no credit limit, the
 * items of both servers stocked by an opening balance 30 days ago, the walked item stocked 25
 * days ago. Then the walked item's BACKDATED.sales one-line invoices by bulk SQL, with their cost
 * entries and lines' costs as the app would have kept them (costing-database.ts `seedSales`):
 * posted through the API one after the other they take 50 s on SQLite here, and 6 minutes on
 * PostgreSQL (some 40 statements each, each a round trip), more than the bench's time allows.
 */
async function prepare(kind: CostingDatabase): Promise<Prepared> {
  const { url, app } = await freshDemo(kind, SQLITE_PATH, POSTGRES_DATABASE);
  try {
    const send = await injecting(app);
    const today = todayInManila();
    const branchId = (await send<Listed>('GET', '/api/branches?limit=1&order_by=asc')).data[0].id;
    const unitId = (await send<Listed>('GET', '/api/unit-of-measurements?abbreviation=pc&is_strict=1&limit=1')).data[0].id;
    const typeId = async (name: string) => (await send<Listed>('GET', `/api/contact-types?name=${name}&is_strict=1&limit=1`)).data[0].id;
    const customerId = (
      await send<{ data: { id: number } }>('POST', '/api/contacts', {
        contact_type_id: await typeId('Customer'),
        name: 'Costing Bench Walk-in',
      })
    ).data.id;
    const supplierId = (await send<Listed>('GET', `/api/contacts?contact_type_id=${await typeId('Supplier')}&limit=1&order_by=asc`)).data[0]
      .id;
    const newItem = async (sku: string) =>
      (await send<{ data: { id: number } }>('POST', '/api/items', { sku, name: `Costing bench ${sku}`, unit_of_measurement_id: unitId }))
        .data.id;
    const withCosting: number[] = [];
    const without: number[] = [];
    for (let n = 1; n <= POSTING.items; n += 1) withCosting.push(await newItem(`COST-ON-${n}`));
    for (let n = 1; n <= POSTING.items; n += 1) without.push(await newItem(`COST-OFF-${n}`));
    const walked = (
      await send<{ data: { id: number } }>('POST', '/api/items', {
        sku: 'COST-WALKED',
        name: 'Costing bench COST-WALKED',
        unit_of_measurement_id: unitId,
        vat_category: 'exempt',
      })
    ).data.id;
    const opening = (date: string, lines: { item_id: number; quantity: number; unit_price: number }[]) =>
      send('POST', '/api/stock-adjustments', {
        branch_id: branchId,
        date,
        lines: lines.map((line) => ({ ...line, unit_of_measurement_id: unitId, reason: 'opening_balance' })),
      });
    await opening(
      addDays(today, -30),
      [...withCosting, ...without].map((id, n) => ({ item_id: id, quantity: POSTING.openingUnits, unit_price: 40 + (n % POSTING.items) })),
    );
    await opening(addDays(today, -BACKDATED.receiptDaysAgo - 3), [{ item_id: walked, quantity: BACKDATED.sales * 2, unit_price: 100 }]);

    // The openings' follow-ups ran after their answers: done, before the seed reads the costs they left.
    await settleCosts(app.db);
    const started = performance.now();
    const salesRows = await seedSales(app.db, url, today, {
      itemId: walked,
      branchId,
      customerId,
      sales: BACKDATED.sales,
      days: BACKDATED.days,
      quantity: 1000,
      unitPrice: 15_000,
    });
    await recount(app.db, getResource('invoices'), BUSINESS_ID);
    const seedMs = performance.now() - started;
    if (salesRows.cost_entries !== BACKDATED.sales) throw new Error(`The walked item's sales made ${salesRows.cost_entries} cost entries.`);
    return { url, branchId, unitId, customerId, supplierId, withCosting, without, walked, seedMs };
  } finally {
    await app.close();
  }
}

/** How many cost entries these invoices made. */
async function entriesOf(url: string, invoiceIds: readonly number[]): Promise<number> {
  const { db } = openDatabase({ url });
  try {
    let entries = 0;
    for (let at = 0; at < invoiceIds.length; at += 500) {
      const row = await db
        .selectFrom('cost_entries')
        .select((eb) => eb.fn.countAll<number>().as('entries'))
        .where('document_type', '=', 'invoice')
        .where('document_id', 'in', invoiceIds.slice(at, at + 500))
        .executeTakeFirstOrThrow();
      entries += Number(row.entries);
    }
    return entries;
  } finally {
    await db.destroy();
  }
}

// ---- 1. Posting with and without costing -----------------------------------------------------

async function measurePosting(prepared: Prepared, withCosting: Server, without: Server): Promise<PostingFigures> {
  const random = randomSequence(3232);
  const pick = (count: number) => Math.floor(random() * count);
  const today = todayInManila();
  /** An invoice of 1–3 lines: which of a server's items (by position), how many of each. */
  const shapeOf = () => {
    const chosen = new Map<number, number>();
    for (let lines = 1 + pick(3); chosen.size < lines;) chosen.set(pick(POSTING.items), 1 + pick(3));
    return [...chosen];
  };
  const invoiceOf = (shape: readonly [number, number][], items: readonly number[]) => ({
    contact_id: prepared.customerId,
    branch_id: prepared.branchId,
    date: today,
    lines: shape.map(([at, quantity]) => ({ item_id: items[at], unit_of_measurement_id: prepared.unitId, quantity, unit_price: 95 })),
  });
  const servers = [
    {
      server: withCosting,
      headers: await adminHeaders(withCosting),
      items: prepared.withCosting,
      times: [] as number[],
      ids: [] as number[],
    },
    { server: without, headers: await adminHeaders(without), items: prepared.without, times: [] as number[], ids: [] as number[] },
  ];
  let lines = 0;
  for (let n = 0; n < POSTING.warmUp + POSTING.invoices; n += 1) {
    // The same invoice to both: the one server's items in place of the other's.
    const shape = shapeOf();
    for (const side of servers) {
      const body = invoiceOf(shape, side.items);
      const started = performance.now();
      const made = await post(side.server, side.headers, '/api/invoices', body);
      const took = performance.now() - started;
      side.ids.push(made.data.id);
      // A pause before the next request to either server, as between sales at a busy counter.
      await new Promise((resolve) => setTimeout(resolve, POSTING.gapMs));
      if (n < POSTING.warmUp) continue;
      side.times.push(took);
      if (side === servers[0]) lines += body.lines.length;
    }
  }
  // Informative: each posted and read back at once, the read waiting for its follow-up on the server with costing.
  const readBack = servers.map(() => [] as number[]);
  for (let n = 0; n < POSTING.read; n += 1) {
    const shape = shapeOf();
    for (const [at, side] of servers.entries()) {
      const started = performance.now();
      const made = await post(side.server, side.headers, '/api/invoices', invoiceOf(shape, side.items));
      const read = await fetch(`${side.server.url}/api/invoices/${made.data.id}`, { headers: side.headers });
      const shown = await answered<{ data: { cost_of_goods: number | null } }>('GET the invoice', read.status, await read.text(), 200);
      readBack[at].push(performance.now() - started);
      side.ids.push(made.data.id);
      if ((shown.data.cost_of_goods === null) === (side === servers[0]))
        throw new Error(
          `An invoice read back from the server ${side === servers[0] ? 'with' : 'without'} costing is ${side === servers[0] ? 'not ' : ''}costed.`,
        );
    }
  }
  const entries = { withCosting: await entriesOf(prepared.url, servers[0].ids), without: await entriesOf(prepared.url, servers[1].ids) };
  if (entries.without !== 0)
    throw new Error(`The server without costing costed its invoices (${entries.without} cost entries): the hook did not take.`);
  if (entries.withCosting === 0) throw new Error('The server with costing made no cost entries.');
  return {
    lines,
    withCosting: spread(servers[0].times),
    without: spread(servers[1].times),
    entries,
    readBack: { withCosting: spread(readBack[0]), without: spread(readBack[1]) },
  };
}

// ---- 2. Back-dated receipts beside the list --------------------------------------------------

/** The sale lines of an item, and their costs. */
async function saleCosts(url: string, itemId: number): Promise<Map<number, number | null>> {
  const { db } = openDatabase({ url });
  try {
    const rows = await db
      .selectFrom('document_lines')
      .select(['id', 'cost'])
      .where('document_type', '=', 'invoice')
      .where('item_id', '=', itemId)
      .execute();
    return new Map(rows.map((row) => [row.id, row.cost === null ? null : Number(row.cost)]));
  } finally {
    await db.destroy();
  }
}

async function measureBackdated(prepared: Prepared, server: Server): Promise<BackdatedFigures> {
  const headers = await adminHeaders(server);
  const list = `${server.url}${LIST_PATH}`;
  const first = await fetch(list, { headers });
  if (first.status !== 200) throw new Error(`The list answered ${first.status}: ${await first.text()}`);
  const date = addDays(todayInManila(), -BACKDATED.receiptDaysAgo);
  const receiptsMs: number[] = [];
  let before = new Map<number, number | null>();
  const alone = await autocannon({ url: list, headers, connections: LOAD.connections, duration: LIST_ALONE_SECONDS });
  const load = autocannon({ url: list, headers, connections: LOAD.connections, duration: 3600 });
  try {
    for (let n = 0; n < BACKDATED.receipts; n += 1) {
      if (n === BACKDATED.receipts - 1) before = await saleCosts(prepared.url, prepared.walked);
      const started = performance.now();
      const made = await post(server, headers, '/api/receive-orders', {
        contact_id: prepared.supplierId,
        branch_id: prepared.branchId,
        date,
        // Each at another price: the average moves, and with it every later sale's cost.
        lines: [{ item_id: prepared.walked, unit_of_measurement_id: prepared.unitId, quantity: 500, unit_price: 60 + 15 * n }],
      });
      // Settled when a read of it answers: a read of costs waits for what the follow-up has left to cost.
      const read = await fetch(`${server.url}/api/receive-orders/${made.data.id}`, { headers });
      await answered('GET the receipt', read.status, await read.text(), 200);
      receiptsMs.push(performance.now() - started);
    }
  } finally {
    load.stop();
  }
  const result = await load;
  const after = await saleCosts(prepared.url, prepared.walked);
  if (after.size !== BACKDATED.sales) throw new Error(`The walked item has ${after.size} sale lines, not ${BACKDATED.sales}.`);
  const restamped = [...after].filter(([id, cost]) => before.get(id) !== cost).length;
  return {
    seedMs: prepared.seedMs,
    receiptsMs,
    restamped,
    list: listFigures(result),
    listAlone: listFigures(alone),
  };
}

// ---- 3. Stock value on a date ----------------------------------------------------------------

/** The business grown by costing-database.ts, its counts made again; on PostgreSQL VACUUM ANALYZE and a CHECKPOINT. */
async function stockValueDatabase(kind: CostingDatabase): Promise<{ url: string; seedMs: number; seed: StockValueSeed }> {
  const started = performance.now();
  const { url, app } = await freshDemo(kind, STOCK_VALUE_SQLITE_PATH, STOCK_VALUE_POSTGRES_DATABASE);
  let seeded: StockValueSeed;
  try {
    const today = todayInManila();
    seeded = await seedStockValue(
      app.db,
      url,
      today,
      STOCK_VALUE_DAYS.map((days) => addDays(today, -days)),
    );
    for (const resource of ['items', 'stocks', 'stock-adjustments', 'invoices']) await recount(app.db, getResource(resource), BUSINESS_ID);
  } finally {
    await app.close();
  }
  if (kind === 'PostgreSQL')
    await connected(url, async (client) => {
      await client.query('vacuum analyze');
      await client.query('checkpoint');
    });
  return { url, seedMs: performance.now() - started, seed: seeded };
}

/** The CSV read to its end: its size, and its rows of items (not its heading, nor the places' totals and the whole total). */
async function readCsv(response: Response): Promise<{ bytes: number; rows: number }> {
  let bytes = 0;
  let lines = 0;
  let totals = 0;
  let partial = '';
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    const text = partial + decoder.decode(read.value, { stream: true });
    const ended = text.split('\r\n');
    partial = ended.pop()!;
    lines += ended.length;
    // A place's total is headed `Total, <place>` (quoted, for its comma); the whole total `Total`.
    for (const line of ended) if (/^(\uFEFF)?"?Total[,"]/.test(line)) totals += 1;
  }
  return { bytes, rows: lines - 1 - totals };
}

/** Runs ANALYZE on a SQLite file (no server open on it): the planner's statistics, which the app never gathers. */
function analyzeSqlite(url: string): void {
  const raw = new SQLite(url.slice('file:'.length));
  try {
    raw.exec('analyze');
  } finally {
    raw.close();
  }
}

/** The report and its CSV, each STOCK_VALUE_RUNS times for each day, from a server of their own; one stopped at the cap starts it again. */
async function measureStockValue(url: string, seeded: StockValueSeed, analyzed: boolean, csvToo = true): Promise<StockValueTiming[]> {
  let server = await startCostingServer(url, true);
  try {
    let headers = await adminHeaders(server);
    const today = todayInManila();
    const timings: StockValueTiming[] = [];
    for (const daysAgo of STOCK_VALUE_DAYS) {
      const date = addDays(today, -daysAgo);
      const held = seeded.heldOn[date];
      for (const csv of csvToo ? [false, true] : [false]) {
        const path = csv ? `/api/reports/stock-value.csv?date=${date}` : `/api/reports/stock-value?date=${date}`;
        const runsMs: number[] = [];
        let rows = 0;
        let bytes = 0;
        let stopped = false;
        for (let run = 0; run < STOCK_VALUE_RUNS && !stopped && !((runsMs.at(-1) ?? 0) > STOCK_VALUE_ONCE_MS); run += 1) {
          const started = performance.now();
          try {
            const response = await fetch(`${server.url}${path}`, { headers, signal: AbortSignal.timeout(STOCK_VALUE_CAP_MS) });
            if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
            if (csv) {
              const read = await readCsv(response);
              runsMs.push(performance.now() - started);
              ({ rows, bytes } = read);
            } else {
              const text = await response.text();
              runsMs.push(performance.now() - started);
              const report = JSON.parse(text) as { meta: { total: number }; uncosted: number; data: unknown[] };
              if (report.uncosted !== 0)
                throw new Error(`GET ${path}: ${report.uncosted} rows not costed; the seed's cost entries are amiss.`);
              if (report.data.length === 0) throw new Error(`GET ${path}: an empty first page.`);
              rows = report.meta.total;
              bytes = text.length;
            }
          } catch (error) {
            if ((error as Error).name !== 'TimeoutError') throw error;
            console.log(`    GET ${path} unanswered after ${seconds(STOCK_VALUE_CAP_MS)}: stopped, its server started again`);
            runsMs.push(STOCK_VALUE_CAP_MS);
            stopped = true;
            await server.kill();
            server = await startCostingServer(url, true);
            headers = await adminHeaders(server);
          }
        }
        if (!stopped && rows < held)
          throw new Error(`GET ${path}: ${rows} rows, fewer than the ${held} stocks the seed left holding goods.`);
        const name = csv ? 'CSV, read to the end' : 'JSON, first page';
        timings.push({ name, date, daysAgo, analyzed, runsMs, medianMs: median(runsMs), stopped, rows, bytes });
        const took = stopped ? `stopped at ${seconds(STOCK_VALUE_CAP_MS)}` : `${runsMs.map((run) => Math.round(run)).join(', ')} ms`;
        console.log(
          `    ${name}, ${daysAgo === 0 ? 'today' : `${daysAgo} days ago`}${analyzed ? ', after ANALYZE' : ''}: ${took}, ${count(rows)} rows`,
        );
      }
    }
    return timings;
  } finally {
    await server.stop();
  }
}

// ---- The run ---------------------------------------------------------------------------------

export async function runCostingBench(kind: CostingDatabase): Promise<CostingFigures> {
  console.log(
    `  seeding: ${count(POSTING.items * 2 + 1)} items stocked through app.inject, ${count(BACKDATED.sales)} one-line invoices of one by bulk SQL …`,
  );
  const prepared = await prepare(kind);
  console.log(`    ${count(BACKDATED.sales)} invoices of the walked item written in ${seconds(prepared.seedMs)}`);

  const withCosting = await startCostingServer(prepared.url, true);
  let posting: PostingFigures;
  let backdated: BackdatedFigures;
  try {
    const without = await startCostingServer(prepared.url, false);
    try {
      posting = await measurePosting(prepared, withCosting, without);
    } finally {
      await without.stop();
    }
    const difference = posting.withCosting.p50Ms - posting.without.p50Ms;
    console.log(
      `  posting ${POSTING.invoices} invoices to each: with costing p50 ${posting.withCosting.p50Ms} ms, p99 ${posting.withCosting.p99Ms} ms; ` +
        `without p50 ${posting.without.p50Ms} ms, p99 ${posting.without.p99Ms} ms; costing adds ${round(difference)} ms p50`,
    );
    backdated = await measureBackdated(prepared, withCosting);
    console.log(
      `  ${BACKDATED.receipts} receipts dated before ${count(BACKDATED.sales)} sales: ${backdated.receiptsMs.map((ms) => Math.round(ms)).join(', ')} ms ` +
        `(${count(backdated.restamped)} sale lines costed again by the last); the list meanwhile p50 ${backdated.list.p50Ms} ms, p99 ${backdated.list.p99Ms} ms, max ${backdated.list.maxMs} ms`,
    );
  } finally {
    await withCosting.stop();
  }

  console.log(`  seeding: ${count(STOCK_VALUE_DATA.items)} items at ${STOCK_VALUE_DATA.places} branches by bulk SQL …`);
  const value = await stockValueDatabase(kind);
  console.log(
    `    seeded in ${seconds(value.seedMs)}: ${Object.entries(value.seed.rows)
      .map(([table, rows]) => `${count(rows)} ${table}`)
      .join(', ')}`,
  );
  const timings = await measureStockValue(value.url, value.seed, false);
  // Informative: the report with the planner's statistics, which a SQLite file has only after ANALYZE (the app never runs it).
  if (kind === 'SQLite') {
    analyzeSqlite(value.url);
    timings.push(...(await measureStockValue(value.url, value.seed, true, false)));
  }
  return {
    date: new Date(),
    database: kind,
    posting,
    backdated,
    stockValue: { seedMs: value.seedMs, seed: value.seed, timings },
    loadAverage: loadavg()[0],
  };
}

// ---- The report ------------------------------------------------------------------------------

const ms = (value: number) => `${count(Math.round(value))} ms`;
const dayName = (daysAgo: number) => (daysAgo === 0 ? 'today' : `${daysAgo} days ago`);
/** A timing's median, or that it was stopped unanswered. */
const medianOf = (timing: StockValueTiming) => (timing.stopped ? `> ${ms(STOCK_VALUE_CAP_MS)} (stopped)` : ms(timing.medianMs));

export function costingGoals(figures: CostingFigures): Goal[] {
  const { database, posting, backdated, stockValue } = figures;
  const adds = posting.withCosting.p50Ms - posting.without.p50Ms;
  const slowest = Math.max(...backdated.receiptsMs);
  const goals: Goal[] = [
    {
      target: `${database}: posting an invoice with costing adds < ${COSTING_TARGETS.postingAddsMs} ms p50`,
      observed: `${adds >= 0 ? '+' : ''}${adds.toFixed(2)} ms (p50 ${posting.withCosting.p50Ms} ms with, ${posting.without.p50Ms} ms without)`,
      met: adds < COSTING_TARGETS.postingAddsMs,
    },
    {
      target: `${database}: a receipt dated before ${count(BACKDATED.sales)} later sales of its item settles < ${seconds(COSTING_TARGETS.receiptMs)}`,
      observed: `max ${ms(slowest)}, median ${ms(median(backdated.receiptsMs))}`,
      met: slowest < COSTING_TARGETS.receiptMs,
    },
    {
      target: `${database}: the items list's p99 < ${COSTING_TARGETS.listP99Ms} ms meanwhile`,
      observed: `p99 ${backdated.list.p99Ms} ms`,
      met: backdated.list.p99Ms < COSTING_TARGETS.listP99Ms && backdated.list.non2xx === 0 && backdated.list.timeouts === 0,
    },
  ];
  // The targets are the app's as it runs: a SQLite file without the statistics ANALYZE would gather.
  const asRun = stockValue.timings.filter((timing) => !timing.analyzed);
  for (const name of new Set(asRun.map((timing) => timing.name))) {
    const timings = asRun.filter((timing) => timing.name === name);
    goals.push({
      target: `${database}: stock value on a date, ${count(STOCK_VALUE_DATA.items)} items at ${STOCK_VALUE_DATA.places} places, ${name} < ${seconds(COSTING_TARGETS.stockValueMs)}`,
      observed: timings.map((timing) => `${dayName(timing.daysAgo)} ${medianOf(timing)}`).join(', '),
      met: timings.every((timing) => !timing.stopped && timing.medianMs < COSTING_TARGETS.stockValueMs),
    });
  }
  return goals;
}

export function costingSection(runs: CostingFigures[]): string {
  const [first] = runs;
  const posting = runs.flatMap(({ database, posting: figures }) =>
    (
      [
        ['with costing', figures.withCosting, figures.entries.withCosting],
        ['without (no-costing.ts)', figures.without, figures.entries.without],
      ] as const
    ).map(
      ([name, spread, entries]) =>
        `| ${database} | ${name} | ${count(spread.requests)} | ${count(figures.lines)} | ${spread.p50Ms} | ${spread.p99Ms} | ${spread.maxMs} | ${count(entries)} |`,
    ),
  );
  const differences = runs
    .map(({ database, posting: figures }) => `${database} ${(figures.withCosting.p50Ms - figures.without.p50Ms).toFixed(2)} ms`)
    .join(', ');
  const readBack = runs.flatMap(({ database, posting: figures }) =>
    (
      [
        ['with costing', figures.readBack.withCosting],
        ['without (no-costing.ts)', figures.readBack.without],
      ] as const
    ).map(
      ([name, spread]) => `| ${database} | ${name} | ${count(spread.requests)} | ${spread.p50Ms} | ${spread.p99Ms} | ${spread.maxMs} |`,
    ),
  );
  const readBackDifferences = runs
    .map(
      ({ database, posting: figures }) =>
        `${database} ${(figures.readBack.withCosting.p50Ms - figures.readBack.without.p50Ms).toFixed(2)} ms`,
    )
    .join(', ');
  const backdated = runs.map(
    ({ database, backdated: figures }) =>
      `| ${database} | ${seconds(figures.seedMs)} | ${figures.receiptsMs.map((value) => count(Math.round(value))).join(', ')} | ${ms(median(figures.receiptsMs))} | ${ms(Math.max(...figures.receiptsMs))} | ${count(figures.restamped)} | ${count(Math.round(figures.list.requestsPerSecond))} | ${figures.list.p50Ms} | ${figures.list.p99Ms} | ${figures.list.maxMs} | ${figures.list.non2xx + figures.list.timeouts} |`,
  );
  const listAlone = runs.map(
    ({ database, backdated: { listAlone: alone } }) =>
      `| ${database} | ${count(Math.round(alone.requestsPerSecond))} | ${alone.p50Ms} | ${alone.p99Ms} | ${alone.maxMs} | ${alone.non2xx + alone.timeouts} |`,
  );
  const value = runs.flatMap(({ database, stockValue }) =>
    stockValue.timings.map(
      (timing) =>
        `| ${database} | ${timing.analyzed ? 'after ANALYZE (informative)' : database === 'SQLite' ? 'none (as the app leaves them)' : 'VACUUM ANALYZE'} | ${timing.name} | ${timing.date} (${dayName(timing.daysAgo)}) | ${timing.stopped ? `stopped at ${count(STOCK_VALUE_CAP_MS)}` : timing.runsMs.map((run) => count(Math.round(run))).join(', ')} | ${medianOf(timing)} | ${timing.stopped ? '' : count(timing.rows)} | ${timing.stopped ? '' : `${count(Math.round(timing.bytes / 1024))} kB`} |`,
    ),
  );
  const seeds = runs
    .map(
      ({ database, stockValue }) =>
        `${database} ${seconds(stockValue.seedMs)} (${Object.entries(stockValue.seed.rows)
          .map(([table, rows]) => `${count(rows)} ${table}`)
          .join(', ')})`,
    )
    .join('; ');
  const data = STOCK_VALUE_DATA;
  return `## What things cost

Written by \`npm run bench\` or \`npm run bench -- --costing-only\` (bench/costing.ts): the budgets of issue #32 for the moving-average cost (docs/costing.md).

- Date: ${first.date.toISOString()}; 1-minute load average at the end ${first.loadAverage.toFixed(1)} on ${availableParallelism()} CPUs
- Servers: serve.ts \`bodega-costing\`, each in a process of its own, on ${runs.map((figures) => figures.database).join(' and on ')}

### Posting an invoice, with costing and without

A fresh business with the demo data, and two servers on it: one as it is, one started with \`--import bench/no-costing.ts\`, a module hook that sends every import of src/server/documents/cost-follow-up.ts to bench/no-costing-stub.ts — the real module's exports, but the ledger's movements written as costed already and no follow-up owed (checked: the invoices that server posts have no cost entries). The server with costing answers first and costs after (docs/costing.md, "When costs are written"): its follow-up comes ${FOLLOW_UP_MS} ms after an answer, for the answers given meanwhile too. Each sells its own ${POSTING.items} items, stocked beforehand by an opening balance. ${POSTING.warmUp} untimed invoices each, then ${POSTING.invoices} each, one request at a time, alternating between the two servers, over HTTP with keep-alive: the same invoice to both (1–3 lines of its items, dated today), each timed from sending to its answer's last byte (\`performance.now()\`), with a pause of ${POSTING.gapMs} ms after each (the follow-ups run in the pauses or beside a request, as they come). What costing adds is the difference of the two p50s: ${differences}.

| Database | Server | invoices timed | their lines | p50 ms | p99 ms | max ms | cost entries made (warm-up too) |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${posting.join('\n')}

For information, what costing adds when its follow-up is counted too: then ${POSTING.read} more invoices to each, alternating, each posted and at once read back (\`GET /api/invoices/:id\`, which to a user who sees costs answers once the invoice's follow-up has costed it; checked: costed on the one server, not on the other), timed from sending the POST to the GET's last byte. The difference of the p50s: ${readBackDifferences}.

| Database | Server | invoices posted and read | p50 ms | p99 ms | max ms |
| --- | --- | ---: | ---: | ---: | ---: |
${readBack.join('\n')}

### A receipt dated before ${count(BACKDATED.sales)} later sales

On the same database: one item stocked ${BACKDATED.receiptDaysAgo + 3} days ago through the API and sold ${count(BACKDATED.sales)} times since, one unit per one-line invoice over the last ${BACKDATED.days} days, written by bulk SQL as the app keeps them (bench/costing-database.ts \`seedSales\`: invoices, lines, movements, cost entries costed in order, lines' costs, the item's balance and cost row; through the API they take minutes on PostgreSQL here) — the seed column, not measured. Then ${BACKDATED.receipts} receipts of it, each dated ${BACKDATED.receiptDaysAgo} days ago (before every sale) and at another price, one after the other to the server with costing: each puts its entry before every sale's, and its follow-up costs all of them, and every sale line, again; each timed from sending it until a read of it (\`GET /api/receive-orders/:id\`, which waits for the follow-up) answers. Meanwhile autocannon loads \`GET ${LIST_PATH}\` with ${LOAD.connections} connections, from before the first receipt to the last one's answer. Latency of the list has 1 ms resolution. For comparison, the same list alone for ${LIST_ALONE_SECONDS} s just before the first receipt:

| Database | list alone req/s | p50 ms | p99 ms | max ms | failed |
| --- | ---: | ---: | ---: | ---: | ---: |
${listAlone.join('\n')}

The receipts:

| Database | seed | each receipt ms | median | max | sale lines costed again (last) | list req/s | p50 ms | p99 ms | max ms | failed |
| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${backdated.join('\n')}

### Stock value on a date

A fresh business with the demo data, grown by bulk SQL (bench/costing-database.ts) to ${count(data.items)} more items at ${data.places} branches: an opening-balance adjustment per branch ${data.openingDaysAgo} days ago, then ${count(data.invoices)} invoices of ${data.invoiceLines} lines (${count(data.invoices * data.invoiceLines)} sales movements) over the last ${data.salesDays} days, each document with its lines, movements and cost entries as the app keeps them (each costed by src/domain/costing.ts \`costed\`, lines stamped, \`item_costs\` the state after the last), so the server's start has nothing to cost. Seeded in ${seeds}. Then \`GET /api/reports/stock-value?date=…\` (the first page, its JSON read whole) and \`GET /api/reports/stock-value.csv?date=…\` (read to the end), ${STOCK_VALUE_RUNS} runs each, one after the other (fetch, which asks for gzip as browsers do), for a day before every sale (all ${count(data.invoices * data.invoiceLines)} movements after it taken off) and for today. A run slower than ${seconds(STOCK_VALUE_ONCE_MS)} (five times the budget) is not run again; one unanswered after ${seconds(STOCK_VALUE_CAP_MS)} is stopped there, its server killed and started again. On SQLite the server reads the file as the app leaves it: without the planner's statistics (the app never runs ANALYZE); then, for information only, the JSON again after an ANALYZE. On PostgreSQL after VACUUM ANALYZE, as autovacuum would soon do.

| Database | planner statistics | Answer | date | runs ms | median | rows | size |
| --- | --- | --- | --- | --- | ---: | ---: | ---: |
${value.join('\n')}

### Targets

${goalsTable(runs.flatMap(costingGoals))}
`;
}
