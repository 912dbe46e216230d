import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ADMIN, BUSINESS_ID, COMMON_TERM, createBenchDatabase, ITEM_COUNT, SELECTIVE_TERM, type SeedReport } from './bench-database';
import { CHROMIUM, chromiumAvailable, runBrowserBench } from './browser';
import { backgroundLoad, LOAD, measure, startServer, stopAllServers, type ServerKind } from './load';
import { SEARCH_COUNT_LIMIT } from '../src/server/resources/record-service';
import { measureExport } from './export';
import { createOverviewDatabase, OVERVIEW_DATA, runOverviewBench } from './overview';
import {
  browserSection,
  browserTable,
  firstScreenLine,
  goalsOf,
  goalsTable,
  machine,
  overviewGoal,
  overviewSection,
  resultsMarkdown,
  resultsTable,
  withBrowserSection,
  withSection,
  exportSection,
  type Measured,
} from './report';

/**
 * `npm run bench`: the benchmarks of shared/BENCHMARKS.md, into bench/results.md. First the API
 * lists at scale: a fresh database of a million items, then each server loaded in turn — the
 * framework and database ceilings first, then Bodega's own list, search and view, and the CSV
 * export of the whole list (bench/export.ts). Then the
 * overview's cards on a million stock movements and a hundred thousand invoices (bench/overview.ts),
 * alone with `--overview-only` (`npm run bench -- --overview-only`). Then the browser benchmark
 * (bench/browser.ts), alone with `--browser-only` (`npm run bench:browser`). `--api-only` runs the
 * lists and the export alone.
 */

const RESULTS_PATH = fileURLToPath(new URL('results.md', import.meta.url));
const browserOnly = process.argv.includes('--browser-only');
const overviewOnly = process.argv.includes('--overview-only');
const apiOnly = process.argv.includes('--api-only');

interface Target {
  name: string;
  server: ServerKind;
  path: string;
  /** Why the answer is not the one measured, or undefined when it is. */
  problem(body: any): string | undefined;
}

const searchPath = (term: string) => `/api/items?name=${encodeURIComponent(term)}&is_strict=0`;

/** The total a search answers: exact up to the count limit, beyond it the limit and "there are more". */
function searchProblem(term: string, matches: number) {
  const [total, exact] = matches > SEARCH_COUNT_LIMIT ? [SEARCH_COUNT_LIMIT, false] : [matches, true];
  return (body: any) => {
    if (body.meta?.total !== total || body.meta?.total_exact !== exact)
      return `meta.total is ${body.meta?.total} (exact: ${body.meta?.total_exact}), expected ${total} (exact: ${exact})`;
    if (body.data?.length !== Math.min(15, matches)) return `${body.data?.length} rows, expected ${Math.min(15, matches)}`;
    const stray = body.data.find((row: { name: string }) => !row.name.toLowerCase().includes(term.toLowerCase()));
    return stray ? `"${stray.name}" does not contain "${term}"` : undefined;
  };
}

/** The newest 15 items, as both raw and the list must return them. */
function newestPageProblem(body: any): string | undefined {
  if (body.meta?.total !== ITEM_COUNT) return `meta.total is ${body.meta?.total}, expected ${ITEM_COUNT}`;
  const ids = (body.data ?? []).map((row: { id: number }) => row.id).join(',');
  const expected = Array.from({ length: 15 }, (_, index) => ITEM_COUNT - index).join(',');
  return ids === expected ? undefined : `ids ${ids.slice(0, 60)}…, expected ${expected.slice(0, 60)}…`;
}

function targetsFor(seed: SeedReport): Target[] {
  return [
    { name: 'hello', server: 'hello', path: '/hello', problem: (body) => (body.hello === 'world' ? undefined : 'not {hello: "world"}') },
    { name: 'raw', server: 'raw', path: '/raw/items', problem: newestPageProblem },
    { name: 'bodega list', server: 'bodega', path: '/api/items', problem: newestPageProblem },
    {
      name: 'bodega search',
      server: 'bodega',
      path: searchPath(SELECTIVE_TERM),
      problem: searchProblem(SELECTIVE_TERM, seed.selectiveMatches),
    },
    {
      name: 'bodega search, common term',
      server: 'bodega',
      path: searchPath(COMMON_TERM),
      problem: searchProblem(COMMON_TERM, seed.commonMatches),
    },
    {
      name: 'bodega view',
      server: 'bodega',
      path: `/api/items/${seed.viewId}`,
      problem: (body) => (body.data?.id === seed.viewId ? undefined : `data.id is ${body.data?.id}, expected ${seed.viewId}`),
    },
  ];
}

/** Signs in as the seeded admin the way the web app does, for the session cookie and the business. */
async function signedInHeaders(baseUrl: string): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('bodega_session='));
  if (response.status !== 200 || !session) throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  return { cookie: session.split(';')[0], 'business-id': String(BUSINESS_ID) };
}

/** One request before the load, so a wrong answer fails the run instead of being measured. */
async function checkAnswer(target: Target, url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  const problem = response.status === 200 ? target.problem(JSON.parse(text)) : `status ${response.status}: ${text.slice(0, 300)}`;
  if (problem) throw new Error(`${target.name} (${target.path}) answered wrongly: ${problem}`);
}

async function benchmark(target: Target): Promise<Measured> {
  const server = await startServer(target.server);
  try {
    const headers = target.server === 'bodega' ? await signedInHeaders(server.url) : {};
    const url = `${server.url}${target.path}`;
    await checkAnswer(target, url, headers);
    const figures = await measure(url, headers);
    console.log(`  ${target.name}: ${Math.round(figures.requestsPerSecond)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms`);
    return { name: target.name, request: `GET ${target.path}`, figures };
  } finally {
    await server.stop();
  }
}

/** Clients searching the common term while the plain list is measured: does one slow query hold up everyone? */
const SEARCHING_CLIENTS = 2;

async function benchmarkListBesideSearches(seed: SeedReport): Promise<Measured> {
  const server = await startServer('bodega');
  try {
    const headers = await signedInHeaders(server.url);
    const list = targetsFor(seed).find((target) => target.name === 'bodega list')!;
    await checkAnswer(list, `${server.url}${list.path}`, headers);
    const searching = backgroundLoad(
      `${server.url}${searchPath(COMMON_TERM)}`,
      headers,
      SEARCHING_CLIENTS,
      LOAD.warmUpSeconds + LOAD.seconds + 1,
    );
    const figures = await measure(`${server.url}${list.path}`, headers);
    const searches = await searching;
    const name = `bodega list, ${SEARCHING_CLIENTS} clients searching "${COMMON_TERM}"`;
    console.log(
      `  ${name}: ${Math.round(figures.requestsPerSecond)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms ` +
        `(the searches beside it: ${Math.round(searches.requestsPerSecond)} req/s, p99 ${searches.p99Ms} ms)`,
    );
    return { name, request: `GET ${list.path}`, figures };
  } finally {
    await server.stop();
  }
}

async function apiBench(): Promise<void> {
  console.log(`Seeding ${ITEM_COUNT.toLocaleString('en-US')} items …`);
  const seed = await createBenchDatabase();
  console.log(
    `  seeded in ${(seed.totalMs / 1000).toFixed(1)} s (items insert ${(seed.itemInsertMs / 1000).toFixed(1)} s); ` +
      `"${SELECTIVE_TERM}" matches ${seed.selectiveMatches}, "${COMMON_TERM}" matches ${seed.commonMatches}`,
  );

  console.log(`Loading each server: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up, ${LOAD.seconds} s measured …`);
  const rows: Measured[] = [];
  for (const target of targetsFor(seed)) rows.push(await benchmark(target));
  rows.push(await benchmarkListBesideSearches(seed));

  const run = {
    date: new Date(),
    seed,
    itemCount: ITEM_COUNT,
    terms: { selective: SELECTIVE_TERM, common: COMMON_TERM },
    load: LOAD,
    rows,
  };
  // The sections other runs wrote after this one's (Overview, Browser) stay as they were.
  const previous = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : '';
  const others = previous.indexOf('\n## Overview\n');
  writeFileSync(RESULTS_PATH, resultsMarkdown(run) + (others === -1 ? '' : previous.slice(others)));
  console.log(`\n${resultsTable(rows)}\n\n${goalsTable(goalsOf(rows))}\n\nWritten to bench/results.md`);
}

/** The CSV export of the whole million-item list, on the API benchmark's database. */
async function exportBench(): Promise<void> {
  console.log('Exporting every item as CSV …');
  const figures = await measureExport();
  console.log(`  ${figures.rows} rows in ${(figures.totalMs / 1000).toFixed(1)} s; server grew ${figures.peakRssGrowthMb.toFixed(1)} MB`);
  writeFileSync(RESULTS_PATH, withSection(readFileSync(RESULTS_PATH, 'utf8'), 'CSV export', exportSection(figures)));
}

/** Replaces the Overview section of bench/results.md, keeping the other figures already there. */
async function overviewBench(): Promise<void> {
  console.log(
    `Seeding the overview's business: ${OVERVIEW_DATA.invoices.toLocaleString('en-US')} invoices and about a million stock movements …`,
  );
  const seed = await createOverviewDatabase();
  console.log(`  seeded in ${(seed.totalMs / 1000).toFixed(1)} s: ${seed.movements.toLocaleString('en-US')} stock movements`);
  const figures = await runOverviewBench(seed);
  for (const card of [...figures.cards, figures.whole, ...figures.longest]) {
    console.log(`  ${card.name}: p50 ${card.p50Ms} ms, p99 ${card.p99Ms} ms`);
  }
  const results = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : `# Benchmark results\n\n- Machine: ${machine()}\n`;
  writeFileSync(RESULTS_PATH, withSection(results, 'Overview', overviewSection(figures)));
  console.log(`\n${goalsTable([overviewGoal(figures)])}\n\nWritten to bench/results.md`);
}

/** Replaces the Browser section of bench/results.md, keeping the API figures already there. */
async function browserBench(): Promise<void> {
  if (!chromiumAvailable()) {
    console.log(
      `Browser benchmark skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH), then npm run bench:browser.`,
    );
    if (browserOnly) process.exitCode = 1;
    return;
  }
  console.log('Browser benchmark in headless Chromium …');
  const figures = await runBrowserBench();
  const results = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : `# Benchmark results\n\n- Machine: ${machine()}\n`;
  writeFileSync(RESULTS_PATH, withBrowserSection(results, browserSection(figures)));
  console.log(`\n${browserTable(figures)}\n\n${firstScreenLine(figures)}\n\nWritten to bench/results.md`);
}

try {
  if (!browserOnly && !overviewOnly) {
    await apiBench();
    await exportBench();
  }
  if (!browserOnly && !apiOnly) await overviewBench();
  if (!overviewOnly && !apiOnly) await browserBench();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopAllServers();
}
