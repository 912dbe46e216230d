import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import {
  benchmark,
  benchmarkListBesideSearches,
  HELLO,
  listsAfresh,
  searchesAfresh,
  SQLITE_SERVERS,
  targetsFor,
  type AfreshList,
  type AfreshSearch,
} from './api-targets';
import { COMMON_TERM, createBenchDatabase, DATABASE_PATH, ITEM_COUNT, SELECTIVE_TERM } from './bench-database';
import { CHROMIUM, chromiumAvailable, runBrowserBench } from './browser';
import { LOAD, stopAllServers } from './load';
import { measureExport } from './export';
import { createOverviewDatabase, OVERVIEW_DATA, runOverviewBench } from './overview';
import {
  LIGHTHOUSE_CHROME,
  lighthouseChromeAvailable,
  lighthouseGoals,
  lighthouseSection,
  lighthouseTable,
  runLighthouseBench,
} from './lighthouse';
import { costingGoals, costingSection, runCostingBench, type CostingFigures } from './costing';
import { heavyGoals, heavySection, runHeavyBench, type HeavyFigures } from './heavy';
import { importSection, runImportBench } from './imports';
import { postgresBench, serverUrl } from './postgres';
import { profileWorkingSetDownloads, runWorkingSetBench } from './working-set';
import {
  browserSection,
  browserTable,
  existingResults,
  firstScreenTable,
  goalsOf,
  goalsTable,
  overviewGoal,
  overviewSection,
  resultsMarkdown,
  resultsTable,
  withBrowserSection,
  withSection,
  exportSection,
  downloadTable,
  profileTable,
  workingSetGoals,
  workingSetSection,
  type Measured,
} from './report';

/**
 * `npm run bench`: the API, export, overview, browser and Lighthouse benchmarks, into bench/results.md. First the API
 * lists at scale: a fresh database of a million items, then each server loaded in turn — the
 * framework and database ceilings first, then Bodega's own list, search and view, and the CSV
 * export of the whole list (bench/export.ts). Then the
 * overview's cards on a million stock movements and a hundred thousand invoices (bench/overview.ts),
 * alone with `--overview-only` (`npm run bench -- --overview-only`). Then the browser benchmark
 * (bench/browser.ts), alone with `--browser-only` (`npm run bench:browser`). Then Lighthouse on five
 * pages (bench/lighthouse.ts), alone with `--lighthouse-only` (one page, printed only: `--lighthouse-page=/counter`). `--api-only` runs the lists and the
 * export alone. `--postgres` runs the lists alone on PostgreSQL (bench/postgres.ts). Then the imports
 * (bench/imports.ts), alone with `--imports-only`. Then heavy work beside the list (bench/heavy.ts): the
 * items list loaded alone, during the import of 100,000 rows (its check, then the import) and during
 * four whole-business zip exports at once, on SQLite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * names a PostgreSQL server, on PostgreSQL too; alone with `--heavy-only`. Then what things cost (bench/costing.ts,
 * issue #32): posting an invoice to a server with costing and to one without it (a module hook,
 * bench/no-costing.ts), receipts dated before 10,000 sales of their item beside the list, and stock
 * value on a date for 50,000 items at three places, on SQLite and on PostgreSQL as the heavy work
 * is; alone with `--costing-only`. Then the device's working set
 * (bench/working-set.ts): its first download, deltas, live changes and offline lookups in Chromium at
 * 4× CPU slowdown, alone with `--working-set-only`; with `--working-set-profile` too, only the first
 * downloads, each with a CPU profile of the page (which slows it), printed and not written.
 */

const RESULTS_PATH = fileURLToPath(new URL('results.md', import.meta.url));
const browserOnly = process.argv.includes('--browser-only');
const overviewOnly = process.argv.includes('--overview-only');
const apiOnly = process.argv.includes('--api-only');
const lighthousePage = process.argv.find((arg) => arg.startsWith('--lighthouse-page='))?.slice('--lighthouse-page='.length);
const lighthouseOnly = process.argv.includes('--lighthouse-only') || lighthousePage !== undefined;
const postgres = process.argv.includes('--postgres');
const importsOnly = process.argv.includes('--imports-only');
const heavyOnly = process.argv.includes('--heavy-only');
const costingOnly = process.argv.includes('--costing-only');
const workingSetOnly = process.argv.includes('--working-set-only');
const workingSetProfile = process.argv.includes('--working-set-profile');

async function apiBench(): Promise<void> {
  console.log(`Seeding ${ITEM_COUNT.toLocaleString('en-US')} items …`);
  const seed = await createBenchDatabase();
  console.log(
    `  seeded in ${(seed.totalMs / 1000).toFixed(1)} s (items insert ${(seed.itemInsertMs / 1000).toFixed(1)} s); ` +
      `"${SELECTIVE_TERM}" matches ${seed.selectiveMatches}, "${COMMON_TERM}" matches ${seed.commonMatches}`,
  );

  console.log(`Loading each server: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up, ${LOAD.seconds} s measured …`);
  const data = { ...seed, itemCount: ITEM_COUNT };
  const rows: Measured[] = [];
  for (const target of [HELLO, ...targetsFor(data, SQLITE_SERVERS)]) rows.push(await benchmark(target));
  rows.push(await benchmarkListBesideSearches(data, SQLITE_SERVERS));
  // A table of the benchmark's own, which the app never reads: a write to the file all the same.
  const writer = new SQLite(DATABASE_PATH);
  writer.exec('create table if not exists bench_touches (id integer primary key, at real)');
  const touch = writer.prepare('insert into bench_touches (at) values (?)');
  const touched = async () => void touch.run(Date.now());
  let afresh: AfreshSearch[];
  let listsRead: AfreshList[];
  try {
    afresh = await searchesAfresh(data, SQLITE_SERVERS, touched);
    listsRead = await listsAfresh(data, SQLITE_SERVERS, touched);
  } finally {
    writer.close();
  }

  const run = {
    date: new Date(),
    seed,
    itemCount: ITEM_COUNT,
    terms: { selective: SELECTIVE_TERM, common: COMMON_TERM },
    load: LOAD,
    rows,
    afresh,
    listsAfresh: listsRead,
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
  const results = existingResults(RESULTS_PATH);
  writeFileSync(RESULTS_PATH, withSection(results, 'Overview', overviewSection(figures)));
  console.log(`\n${goalsTable([overviewGoal(figures)])}\n\nWritten to bench/results.md`);
}

/** Replaces the Imports section of bench/results.md, keeping the other figures already there. */
async function importBench(): Promise<void> {
  console.log('Importing 50,000 item rows …');
  const figures = await runImportBench();
  console.log(
    `  check ${(figures.checkMs / 1000).toFixed(1)} s, import ${(figures.importMs / 1000).toFixed(1)} s, again ${(figures.againMs / 1000).toFixed(1)} s`,
  );
  writeFileSync(RESULTS_PATH, withSection(existingResults(RESULTS_PATH), 'Imports', importSection(figures)));
}

/** Replaces the Heavy work section of bench/results.md, keeping the other figures already there. */
async function heavyBench(): Promise<void> {
  const runs: HeavyFigures[] = [];
  const databases: HeavyFigures['database'][] = serverUrl() ? ['SQLite', 'PostgreSQL'] : ['SQLite'];
  for (const database of databases) {
    console.log(`Heavy work beside the list, on ${database} …`);
    runs.push(await runHeavyBench(database));
  }
  writeFileSync(RESULTS_PATH, withSection(existingResults(RESULTS_PATH), 'Heavy work beside the list', heavySection(runs)));
  console.log(`\n${goalsTable(runs.flatMap(heavyGoals))}\n\nWritten to bench/results.md`);
}

/** Replaces the What things cost section of bench/results.md, keeping the other figures already there. */
async function costingBench(): Promise<void> {
  const runs: CostingFigures[] = [];
  const databases: CostingFigures['database'][] = serverUrl() ? ['SQLite', 'PostgreSQL'] : ['SQLite'];
  for (const database of databases) {
    console.log(`What things cost, on ${database} …`);
    runs.push(await runCostingBench(database));
  }
  writeFileSync(RESULTS_PATH, withSection(existingResults(RESULTS_PATH), 'What things cost', costingSection(runs)));
  console.log(`\n${goalsTable(runs.flatMap(costingGoals))}\n\nWritten to bench/results.md`);
}

/** Replaces the Working set section of bench/results.md, keeping the other figures already there. */
async function workingSetBench(): Promise<void> {
  if (!chromiumAvailable()) {
    console.log(
      `Working-set benchmark skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH), then npm run bench -- --working-set-only.`,
    );
    if (workingSetOnly) process.exitCode = 1;
    return;
  }
  if (workingSetProfile) {
    console.log("The working set's first downloads in headless Chromium, profiled (figures not written) …");
    const downloads = await profileWorkingSetDownloads();
    console.log(`\n${downloadTable(downloads)}\n\n${profileTable(downloads)}`);
    return;
  }
  console.log("The device's working set in headless Chromium …");
  const figures = await runWorkingSetBench();
  writeFileSync(RESULTS_PATH, withSection(existingResults(RESULTS_PATH), 'Working set', workingSetSection(figures)));
  console.log(`\n${goalsTable(workingSetGoals(figures))}\n\nWritten to bench/results.md`);
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
  const results = existingResults(RESULTS_PATH);
  writeFileSync(RESULTS_PATH, withBrowserSection(results, browserSection(figures)));
  console.log(`\n${browserTable(figures)}\n\n${firstScreenTable(figures)}\n\nWritten to bench/results.md`);
}

/** Replaces the Lighthouse section of bench/results.md, keeping the other figures already there. */
async function lighthouseBench(): Promise<void> {
  if (!lighthouseChromeAvailable()) {
    console.log(
      `Lighthouse skipped: no Chromium at ${LIGHTHOUSE_CHROME} (apt-get install chromium, or set CHROME_PATH), then npm run bench -- --lighthouse-only.`,
    );
    if (lighthouseOnly) process.exitCode = 1;
    return;
  }
  console.log('Lighthouse in headless Chromium …');
  const figures = await runLighthouseBench(lighthousePage);
  if (lighthousePage !== undefined) {
    console.log(`\n${lighthouseTable(figures)}\n\nOne page audited: bench/results.md left as it was`);
    return;
  }
  writeFileSync(RESULTS_PATH, withSection(existingResults(RESULTS_PATH), 'Lighthouse', lighthouseSection(figures)));
  console.log(`\n${lighthouseTable(figures)}\n\n${goalsTable(lighthouseGoals(figures))}\n\nWritten to bench/results.md`);
}

try {
  if (postgres) await postgresBench(RESULTS_PATH);
  else if (importsOnly) await importBench();
  else if (heavyOnly) await heavyBench();
  else if (costingOnly) await costingBench();
  else if (workingSetOnly) await workingSetBench();
  else {
    if (!browserOnly && !overviewOnly && !lighthouseOnly) {
      await apiBench();
      await exportBench();
    }
    if (!browserOnly && !apiOnly && !lighthouseOnly) await overviewBench();
    if (!browserOnly && !apiOnly && !lighthouseOnly && !overviewOnly) {
      await importBench();
      await heavyBench();
      await costingBench();
      await workingSetBench();
    }
    if (!overviewOnly && !apiOnly && !lighthouseOnly) await browserBench();
    if (!overviewOnly && !apiOnly && !browserOnly) await lighthouseBench();
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopAllServers();
}
