import { SEARCH_COUNT_LIMIT } from '../src/server/resources/record-service';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import type { SeedReport } from './bench-database';
import { KEPT_LIST, KEPT_SEARCH } from './api-targets';
import { CACHED_ITEMS, FIRST_SCREEN_BUDGET_BYTES, QUEUED_CREATES, type BrowserFigures, type ScriptSize, type Spread } from './browser';
import type { ExportMeasure } from './export';
import type { LoadFigures } from './load';
import { OVERVIEW_SAMPLES, type CardFigures, type OverviewFigures } from './overview';

/** The hand-kept reasons and next steps for the targets not met, copied under the API targets. */
const NOT_MET_PATH = new URL('not-met.md', import.meta.url);

/** bench/results.md: the machine, the data, the raw figures, their ratios and the targets; then the overview's and the browser's figures. */

export interface Measured {
  name: string;
  request: string;
  figures: LoadFigures;
}

export interface Goal {
  target: string;
  observed: string;
  met: boolean;
}

export interface Run {
  date: Date;
  seed: SeedReport;
  itemCount: number;
  terms: { selective: string; common: string };
  load: { connections: number; warmUpSeconds: number; seconds: number };
  rows: Measured[];
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

export function figuresOf(rows: Measured[], name: string): LoadFigures {
  const row = rows.find((candidate) => candidate.name === name);
  if (!row) throw new Error(`No figures for ${name}.`);
  return row.figures;
}

/** The API targets, judged against raw measured in the same run. */
export function goalsOf(rows: Measured[]): Goal[] {
  const raw = figuresOf(rows, 'raw');
  const list = figuresOf(rows, 'bodega list');
  const search = figuresOf(rows, 'bodega search');
  const common = figuresOf(rows, 'bodega search, common term');
  const besideSearches = rows.find((row) => row.name.startsWith('bodega list, ') && row.name.includes('clients searching'));
  const view = figuresOf(rows, 'bodega view');
  const keptList = rows.find((row) => row.name === KEPT_LIST)?.figures;
  const keptSearch = rows.find((row) => row.name === KEPT_SEARCH)?.figures;
  /** A figure of the user kept to one place within 10 % of the admin's: req/s no lower, p99 no higher. */
  const within = (kept: LoadFigures, all: LoadFigures) => ({
    observed: `${percent(kept.requestsPerSecond, all.requestsPerSecond)} of the admin's req/s, p99 ${kept.p99Ms} ms against ${all.p99Ms} ms`,
    met: kept.requestsPerSecond >= 0.9 * all.requestsPerSecond && kept.p99Ms <= Math.max(1.1 * all.p99Ms, all.p99Ms + 1),
  });
  return [
    {
      target: 'bodega list ≥ 60 % of raw req/s, p99 < 20 ms',
      observed: `${percent(list.requestsPerSecond, raw.requestsPerSecond)} of raw, p99 ${list.p99Ms} ms`,
      met: list.requestsPerSecond >= 0.6 * raw.requestsPerSecond && list.p99Ms < 20,
    },
    { target: 'bodega search p99 < 30 ms', observed: `p99 ${search.p99Ms} ms`, met: search.p99Ms < 30 },
    {
      target: 'bodega search, common term: p99 < 150 ms, no timeouts',
      observed: `p99 ${common.p99Ms} ms, ${common.timeouts} timeouts`,
      met: common.p99Ms < 150 && common.timeouts === 0,
    },
    ...(besideSearches
      ? [
          {
            target: 'bodega list beside clients searching the common term: p99 < 25 ms',
            observed: `p99 ${besideSearches.figures.p99Ms} ms`,
            met: besideSearches.figures.p99Ms < 25,
          },
        ]
      : []),
    ...(keptList ? [{ target: `${KEPT_LIST}: within 10 % of the admin's list`, ...within(keptList, list) }] : []),
    ...(keptSearch ? [{ target: `${KEPT_SEARCH}: within 10 % of the admin's search`, ...within(keptSearch, search) }] : []),
    {
      target: 'bodega view ≥ 75 % of raw req/s',
      observed: `${percent(view.requestsPerSecond, raw.requestsPerSecond)} of raw`,
      met: view.requestsPerSecond >= 0.75 * raw.requestsPerSecond,
    },
  ];
}

/** The figures of each row and its share of raw's req/s, and of hello's when the run measured hello (the PostgreSQL run does not). */
export function resultsTable(rows: Measured[]): string {
  const raw = figuresOf(rows, 'raw');
  const hello = rows.find((row) => row.name === 'hello')?.figures;
  const cells = ({ name, request, figures }: Measured) => [
    name,
    `\`${request}\``,
    Math.round(figures.requestsPerSecond).toLocaleString('en-US'),
    figures.p50Ms,
    figures.p99Ms,
    percent(figures.requestsPerSecond, raw.requestsPerSecond),
    ...(hello ? [percent(figures.requestsPerSecond, hello.requestsPerSecond)] : []),
    figures.timeouts,
  ];
  return [
    `| Benchmark | Request | req/s | p50 ms | p99 ms | % of raw |${hello ? ' % of hello |' : ''} timeouts |`,
    `| --- | --- | ---: | ---: | ---: | ---: |${hello ? ' ---: |' : ''} ---: |`,
    ...rows.map((row) => `| ${cells(row).join(' | ')} |`),
  ].join('\n');
}

export function goalsTable(goals: Goal[]): string {
  return [
    '| Target | Observed | Met |',
    '| --- | --- | --- |',
    ...goals.map((goal) => `| ${goal.target} | ${goal.observed} | ${goal.met ? 'met' : '**not met**'} |`),
  ].join('\n');
}

export function machine(): string {
  const gib = (totalmem() / 1024 ** 3).toFixed(1);
  return `${availableParallelism()} CPUs (nproc; ${cpus().length} in os.cpus()), ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${gib} GiB memory, Node ${process.version}, ${platform()} ${release()}`;
}

/** results.md as an earlier run left it, or, when there is none, a new one's heading and machine. */
export function existingResults(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : `# Benchmark results\n\n- Machine: ${machine()}\n`;
}

export function resultsMarkdown(run: Run): string {
  const { seed } = run;
  return `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); method in bench/run.ts, the targets below.

- Date: ${run.date.toISOString()}
- Machine: ${machine()}
- Data: ${run.itemCount.toLocaleString('en-US')} items in one business, SQLite file in WAL mode
- Seed: ${seconds(seed.totalMs)} in all — app schema and seed ${seconds(seed.appSeedMs)}, items insert ${seconds(seed.itemInsertMs)} (FTS trigram triggers included), recount ${seconds(seed.recountMs)}
- Search terms: \`${run.terms.selective}\` matches ${seed.selectiveMatches.toLocaleString('en-US')} names; \`${run.terms.common}\` matches ${seed.commonMatches.toLocaleString('en-US')}, more than a search counts (${SEARCH_COUNT_LIMIT.toLocaleString('en-US')}): its answer says "more than"
- Load: autocannon in the parent process, each server in a child process of its own on 127.0.0.1, ${run.load.connections} connections, ${run.load.warmUpSeconds} s warm-up then ${run.load.seconds} s measured; latency has 1 ms resolution

${resultsTable(run.rows)}

## Targets

${goalsTable(goalsOf(run.rows))}

${readFileSync(NOT_MET_PATH, 'utf8').trimEnd()}
`;
}

// ---- Browser ---------------------------------------------------------------------------------

export const count = (value: number) => value.toLocaleString('en-US');
const milliseconds = (ms: number) => `${count(Math.round(ms))} ms`;
const replayTime = (ms: number) => `${seconds(ms)} (${count(Math.round(QUEUED_CREATES / (ms / 1000)))} creates/s)`;
const kilobytes = ({ gzipBytes }: ScriptSize) => `${(gzipBytes / 1000).toFixed(1)} kB`;

export function browserTable(figures: BrowserFigures): string {
  const row = (name: string, spread: Spread, format: (ms: number) => string) =>
    `| ${name} | ${format(spread.medianMs)} | ${format(spread.minMs)} | ${format(spread.maxMs)} | ${spread.runs} |`;
  return [
    '| Benchmark | Median | Min | Max | Runs |',
    '| --- | ---: | ---: | ---: | ---: |',
    row(`Cold offline start to first cached row painted, \`/items\`, ${count(CACHED_ITEMS)} items kept`, figures.coldStart, milliseconds),
    row(`Dexie \`bulkPut\` of ${count(CACHED_ITEMS)} item rows into a fresh database`, figures.bulkPut, milliseconds),
    row(`Replay of ${count(QUEUED_CREATES)} queued brand creates to the local server`, figures.replay, replayTime),
  ].join('\n');
}

/** Each first screen's JS, its total against the budget. */
export function firstScreenTable({ firstScreenJs: { entry, screens, dexie } }: BrowserFigures): string {
  const rows = screens.map(({ path, route }) => {
    const total = { files: entry.files + route.files, gzipBytes: entry.gzipBytes + route.gzipBytes };
    const met = total.gzipBytes <= FIRST_SCREEN_BUDGET_BYTES ? 'met' : '**not met**';
    return `| \`${path}\` | ${kilobytes(entry)} | ${kilobytes(route)} | **${kilobytes(total)}** | ${total.files} | ${met} |`;
  });
  return [
    `First-screen JS (gzip, node:zlib's default level): the entry script and its ${entry.files - 1} modulepreloads in dist/index.html, ` +
      `and the lazy chunks of the screen's route (dist/.vite/manifest.json). Target: at most ${kilobytes({ files: 0, gzipBytes: FIRST_SCREEN_BUDGET_BYTES })} for each. ` +
      `Not counted: Dexie's chunk, ${kilobytes(dexie)}, which a signed-in start loads after the first screen, for the offline store.`,
    '',
    '| Screen | entry | route | total | files | ≤ budget |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
}

export function browserSection(figures: BrowserFigures): string {
  return `## Browser

Written by \`npm run bench\` or \`npm run bench:browser\` (bench/browser.ts).

- Date: ${figures.date.toISOString()}
- Browser: Chromium ${figures.chromium}, headless, driven by playwright-core; one context signed in as the admin through the form, the service worker in control
- Server: the production build served by \`buildApp\` in the benchmark's process on 127.0.0.1, SQLite file in WAL mode, demo data plus items up to ${count(CACHED_ITEMS)} in business 1; the user's IndexedDB holds the first page of \`/items\` as the app kept it and all ${count(CACHED_ITEMS)} items as records
- Cold start: a new page (cold JS start, the shell from the service worker) opens \`/items\` offline; an init script's MutationObserver sees the first \`tbody tr\` and marks a task queued from the next animation frame, just after that frame's paint; the figure is that mark's time from navigation start. Each run must show the "Offline — showing data saved at" notice and 15 rows
- bulkPut: the ${count(CACHED_ITEMS)} kept item records, written with Dexie into a database opened just before (\`key, [businessId+resource]\`), timed in the page
- Replay: ${count(QUEUED_CREATES)} brand creates added to the outbox offline (the shape the create form queues), then from \`setOffline(false)\` (the app's \`online\` event sends the outbox) until the outbox is empty and the server holds exactly ${count(QUEUED_CREATES)} more brands, polled every 10 ms; the page shows the overview

${browserTable(figures)}

${firstScreenTable(figures)}
`;
}

/** results.md with its Browser section (always the last) replaced by `section`. */
export function withBrowserSection(markdown: string, section: string): string {
  const start = markdown.indexOf('\n## Browser\n');
  return `${(start === -1 ? markdown : markdown.slice(0, start)).trimEnd()}\n\n${section}`;
}

// ---- Overview --------------------------------------------------------------------------------

const OVERVIEW_TARGET_MS = 200;

function overviewTable(rows: CardFigures[]): string {
  return [
    '| Card | Request | p50 ms | p99 ms | max ms | answer bytes |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.name} | \`${row.request}\` | ${row.p50Ms} | ${row.p99Ms} | ${row.maxMs} | ${count(row.bytes)} |`),
  ].join('\n');
}

export function overviewGoal({ whole }: OverviewFigures): Goal {
  return {
    target: `whole overview (every card) p99 < ${OVERVIEW_TARGET_MS} ms server-side`,
    observed: `p50 ${whole.p50Ms} ms, p99 ${whole.p99Ms} ms`,
    met: whole.p99Ms < OVERVIEW_TARGET_MS,
  };
}

export function overviewSection(figures: OverviewFigures): string {
  const { seed } = figures;
  return `## Overview

Written by \`npm run bench\` or \`npm run bench -- --overview-only\` (bench/overview.ts).

- Date: ${figures.date.toISOString()}; 1-minute load average at the end ${figures.loadAverage.toFixed(1)} on ${availableParallelism()} CPUs
- Data: one business, two years to today written with bulk SQL in ${seconds(seed.totalMs)}: ${count(seed.movements)} stock movements, ${count(seed.invoices)} invoices (${count(seed.invoiceLines)} lines), ${count(seed.bills)} bills, ${count(seed.stocks)} stocks (${count(seed.lowStocks)} at or under their reorder level); SQLite file in WAL mode without ANALYZE statistics, as the app runs it
- Method: \`buildApp\` in the benchmark's process, each request through \`app.inject\` (routing, session and permission checks, the queries, the JSON; no network), one after another: ${OVERVIEW_SAMPLES.warmUp} untimed, then ${OVERVIEW_SAMPLES.perCard} timed per card; the whole overview is every card asked at once, as the screen does, timed until the last answer, ${OVERVIEW_SAMPLES.wholeOverview} times

${overviewTable([...figures.cards, figures.whole])}

Informative, no target — the longest periods the cards take:

${overviewTable(figures.longest)}

${goalsTable([overviewGoal(figures)])}
`;
}

/** results.md with its Overview section replaced by `section`, kept before the Browser section (always the last). */
/** Puts `section` (headed `## {heading}`) in place of its earlier run, before the Browser section. */
export function withSection(markdown: string, heading: string, section: string): string {
  let rest = markdown;
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start !== -1) {
    const next = markdown.indexOf('\n## ', start + 1);
    rest = markdown.slice(0, start) + (next === -1 ? '' : markdown.slice(next));
  }
  const browser = rest.indexOf('\n## Browser\n');
  const before = browser === -1 ? rest : rest.slice(0, browser);
  const after = browser === -1 ? '' : rest.slice(browser);
  return `${before.trimEnd()}\n\n${section}${after}`;
}

// ---- CSV export ------------------------------------------------------------------------------

export function exportSection(figures: ExportMeasure): string {
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  return [
    '## CSV export',
    '',
    `\`GET /api/items/export.csv?order_by=asc&order_by_field_name=name\` over HTTP on the same database: every one of the ${figures.rows.toLocaleString('en-US')} items, sorted by name.`,
    '',
    '| rows | size | first byte | whole list | rows/s | server memory before | growth while streaming |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${figures.rows.toLocaleString('en-US')} | ${mb(figures.megabytes)} | ${Math.round(figures.firstByteMs)} ms | ${seconds(figures.totalMs)} | ${Math.round(figures.rowsPerSecond).toLocaleString('en-US')} | ${mb(figures.baselineRssMb)} | ${mb(figures.peakRssGrowthMb)} |`,
    '',
  ].join('\n');
}
