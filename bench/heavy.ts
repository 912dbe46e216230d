import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app';
import { seed } from '../src/server/seed';
import { sessionCookie } from './api-targets';
import { ADMIN, APP_CONFIG, BUSINESS_ID, DATA_DIR } from './bench-database';
import { itemRows } from './imports';
import { LOAD, measure, startServer, type LoadFigures } from './load';
import { connected, serverUrl, withDatabase } from './postgres';
import { count, goalsTable, seconds, type Goal } from './report';

/**
 * Heavy work beside everyday requests: does a large import or a whole-business export hold up
 * everyone else? On a fresh business with the demo data, its items list is loaded by
 * autocannon (bench/load.ts's clients) alone, then from the start to the end of each piece of
 * heavy work sent over HTTP to the same server: the check of HEAVY_ROWS item rows, their import,
 * and HEAVY_EXPORTS whole-business zips asked for at once. The server runs in a process of its
 * own (serve.ts `bodega-heavy`), on SQLite, and on PostgreSQL when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a server (its database `bodega_heavy` dropped and made anew).
 */

export const HEAVY_ROWS = 100_000;
export const HEAVY_EXPORTS = 4;
/** What a user would not notice: a list answered within a tenth of a second, 99 times in 100, while the work runs. */
export const HEAVY_TARGET_P99_MS = 100;

const SQLITE_PATH = `${DATA_DIR}heavy.sqlite`;
const POSTGRES_DATABASE = 'bodega_heavy';
const LIST_PATH = '/api/items';

export interface LoadBeside extends LoadFigures {
  maxMs: number;
  non2xx: number;
}

export interface HeavyPhase {
  name: string;
  /** From the first request of the heavy work to its last answer's last byte; undefined for the list alone. */
  workMs?: number;
  list: LoadBeside;
}

export interface HeavyFigures {
  date: Date;
  database: 'SQLite' | 'PostgreSQL';
  bodyBytes: number;
  zipBytes: number;
  phases: HeavyPhase[];
  loadAverage: number;
}

function besideFigures(result: Awaited<ReturnType<typeof autocannon>>): LoadBeside {
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The list loaded from the start of `work` to its end. */
async function loadDuring<T>(url: string, headers: Record<string, string>, work: () => Promise<T>) {
  const load = autocannon({ url, headers, connections: LOAD.connections, duration: 3600 });
  const started = performance.now();
  let done: T;
  try {
    done = await work();
  } finally {
    load.stop();
  }
  const workMs = performance.now() - started;
  return { done, workMs, list: besideFigures(await load) };
}

/** A fresh database with the demo data: a SQLite file, or the PostgreSQL server's `bodega_heavy` made anew. */
async function freshDatabase(kind: HeavyFigures['database']): Promise<string> {
  let url: string;
  if (kind === 'SQLite') {
    mkdirSync(DATA_DIR, { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${SQLITE_PATH}${suffix}`, { force: true });
    url = `file:${SQLITE_PATH}`;
  } else {
    const server = serverUrl()!;
    await connected(server, async (client) => {
      await client.query(`drop database if exists ${POSTGRES_DATABASE} with (force)`);
      await client.query(`create database ${POSTGRES_DATABASE}`);
    });
    url = withDatabase(server, POSTGRES_DATABASE);
  }
  const app = await buildApp({ ...APP_CONFIG, database: { url } });
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
  } finally {
    await app.close();
  }
  return url;
}

async function post(base: string, headers: Record<string, string>, payload: string) {
  const response = await fetch(`${base}/api/imports/items`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: payload,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`The import answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text).data as { created: number };
}

/** The whole zip, read to its end; its size. */
async function exportZip(base: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${base}/api/businesses/export.zip`, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`The export answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  return bytes;
}

export async function runHeavyBench(kind: HeavyFigures['database']): Promise<HeavyFigures> {
  const url = await freshDatabase(kind);
  process.env.BENCH_HEAVY_URL = url;
  const server = await startServer('bodega-heavy');
  try {
    const headers = { cookie: await sessionCookie(server.url), 'business-id': String(BUSINESS_ID) };
    const list = `${server.url}${LIST_PATH}`;
    const first = await fetch(list, { headers });
    if (first.status !== 200) throw new Error(`The list answered ${first.status}: ${await first.text()}`);
    const phases: HeavyPhase[] = [];
    const report = (phase: HeavyPhase) => {
      phases.push(phase);
      const work = phase.workMs === undefined ? '' : ` (the work ${seconds(phase.workMs)})`;
      console.log(
        `  ${phase.name}${work}: list ${Math.round(phase.list.requestsPerSecond)} req/s, p50 ${phase.list.p50Ms} ms, p99 ${phase.list.p99Ms} ms, max ${phase.list.maxMs} ms`,
      );
    };

    const alone = await measure(list, headers);
    report({ name: 'the list alone', list: { ...alone, non2xx: 0 } });

    const rows = itemRows(HEAVY_ROWS);
    const checkBody = JSON.stringify({ rows, check_only: true });
    const importBody = JSON.stringify({ rows });
    const checked = await loadDuring(list, headers, () => post(server.url, headers, checkBody));
    if (checked.done.created !== HEAVY_ROWS) throw new Error(`The check would create ${checked.done.created} items, not ${HEAVY_ROWS}.`);
    report({ name: `during the check of ${count(HEAVY_ROWS)} item rows`, workMs: checked.workMs, list: checked.list });

    const imported = await loadDuring(list, headers, () => post(server.url, headers, importBody));
    if (imported.done.created !== HEAVY_ROWS) throw new Error(`The import created ${imported.done.created} items, not ${HEAVY_ROWS}.`);
    report({ name: `during the import of ${count(HEAVY_ROWS)} item rows`, workMs: imported.workMs, list: imported.list });

    // What autovacuum does on a PostgreSQL server soon after so many rows arrive (the bench's may run without it):
    // the planner's statistics, without which the list of 100,000 new items reads them all for a page.
    if (kind === 'PostgreSQL') await connected(url, (client) => client.query('analyze'));

    const exported = await loadDuring(list, headers, () =>
      Promise.all(Array.from({ length: HEAVY_EXPORTS }, () => exportZip(server.url, headers))),
    );
    report({ name: `during ${HEAVY_EXPORTS} whole-business zip exports asked for at once`, workMs: exported.workMs, list: exported.list });

    return {
      date: new Date(),
      database: kind,
      bodyBytes: importBody.length,
      zipBytes: Math.max(...exported.done),
      phases,
      loadAverage: loadavg()[0],
    };
  } finally {
    await server.stop();
  }
}

export function heavyGoals(figures: HeavyFigures): Goal[] {
  const [, ...beside] = figures.phases;
  return beside.map((phase) => ({
    target: `${figures.database}: the list's p99 < ${HEAVY_TARGET_P99_MS} ms ${phase.name.replace(/ asked for at once$/, '')}`,
    observed: `p99 ${phase.list.p99Ms} ms`,
    met: phase.list.p99Ms < HEAVY_TARGET_P99_MS && phase.list.non2xx === 0 && phase.list.timeouts === 0,
  }));
}

export function heavySection(runs: HeavyFigures[]): string {
  const rows = runs.flatMap((figures) =>
    figures.phases.map(
      (phase) =>
        `| ${figures.database} | ${phase.name} | ${phase.workMs === undefined ? '' : seconds(phase.workMs)} | ${count(Math.round(phase.list.requestsPerSecond))} | ${phase.list.p50Ms} | ${phase.list.p99Ms} | ${phase.list.maxMs} | ${phase.list.non2xx + phase.list.timeouts} |`,
    ),
  );
  const [first] = runs;
  return `## Heavy work beside the list

Written by \`npm run bench\` or \`npm run bench -- --heavy-only\` (bench/heavy.ts).

- Date: ${first.date.toISOString()}; 1-minute load average at the end ${first.loadAverage.toFixed(1)} on ${availableParallelism()} CPUs
- Data: a fresh business with the demo data, on ${runs.map((figures) => figures.database).join(' and on ')}; the import is ${count(HEAVY_ROWS)} item rows as the import screen sends them (${(first.bodyBytes / 1024 / 1024).toFixed(1)} MB of JSON, bench/imports.ts's rows); the exports are of the business after it (a zip of ${(first.zipBytes / 1024 / 1024).toFixed(1)} MB)
- Method: the server in a process of its own (serve.ts \`bodega-heavy\`); \`GET ${LIST_PATH}\` loaded by autocannon with ${LOAD.connections} connections: alone (${LOAD.warmUpSeconds} s warm-up, ${LOAD.seconds} s measured), then from the first request of each piece of heavy work, sent over HTTP beside it, to its last answer: the check (\`check_only\`), the import, and ${HEAVY_EXPORTS} \`GET /api/businesses/export.zip\` at once (the server makes one at a time, the others waiting their turn), each read to its end. On PostgreSQL, ANALYZE after the import, as autovacuum would soon do (the bench's server may run without it). Latency has 1 ms resolution; max is the slowest list answer
- Target: what a user would not notice — a list answered within ${HEAVY_TARGET_P99_MS} ms, 99 times in 100, while the work runs

| Database | The list … | heavy work took | list req/s | p50 ms | p99 ms | max ms | failed |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

${goalsTable(runs.flatMap(heavyGoals))}
`;
}
