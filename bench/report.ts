import { SEARCH_COUNT_LIMIT } from '../src/server/resources/record-service';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import type { SeedReport } from './bench-database';
import { afreshTable, KEPT_LIST, KEPT_SEARCH, listsAfreshTable, type AfreshList, type AfreshSearch } from './api-targets';
import { CACHED_ITEMS, FIRST_SCREEN_BUDGET_BYTES, QUEUED_CREATES, type BrowserFigures, type ScriptSize, type Spread } from './browser';
import type { ExportMeasure } from './export';
import type { LoadFigures } from './load';
import { OVERVIEW_SAMPLES, type CardFigures, type OverviewFigures } from './overview';
import {
  CPU_SLOWDOWN,
  DELTA_RECORDS,
  EVENT_THRESHOLD_MS,
  KEY_PRESS_EVERY_MS,
  LOOKUPS,
  SAMPLE_EVERY_MS,
  WORKING_SET_BUDGETS,
  profilePath,
  type ChangeTiming,
  type ProfileLine,
  type DownloadFigures,
  type WorkingSetFigures,
} from './working-set';

/** The hand-kept reasons and next steps for the targets not met, copied under the API targets. */
const NOT_MET_PATH = new URL('not-met.md', import.meta.url);

/** bench/results.md: the machine, the data, the raw figures, their ratios and the targets; then the overview's, the working set's and the browser's figures. */

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
  afresh: AfreshSearch[];
  listsAfresh: AfreshList[];
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

export function figuresOf(rows: Measured[], name: string): LoadFigures {
  const row = rows.find((candidate) => candidate.name === name);
  if (!row) throw new Error(`No figures for ${name}.`);
  return row.figures;
}

/** The API targets (issue #33's table), judged against raw measured in the same run. */
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
      target: 'bodega search, common term: p99 < 100 ms, no timeouts',
      observed: `p99 ${common.p99Ms} ms, ${common.timeouts} timeouts`,
      met: common.p99Ms < 100 && common.timeouts === 0,
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
      target: 'bodega view ≥ 80 % of raw req/s',
      observed: `${percent(view.requestsPerSecond, raw.requestsPerSecond)} of raw`,
      met: view.requestsPerSecond >= 0.8 * raw.requestsPerSecond,
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

${afreshTable(run.afresh)}

${listsAfreshTable(run.listsAfresh)}

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
    row(`… to the app's own list painted (the kept look gone), for information`, figures.coldStartApp, milliseconds),
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
    `First-screen JS (gzip, node:zlib's default level): the scripts and modulepreloads dist/index.html names (${entry.files} files: ` +
      `the entry, the files it preloads, and the kept look's script), ` +
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
- Cold start: a new page (cold JS start, the shell from the service worker) opens \`/items\` offline; an init script's MutationObserver sees the first \`tbody tr\` and marks a task queued from the next animation frame, just after that frame's paint; the figure is that mark's time from navigation start. The first rows are the list's kept look (src/client/lib/kept-look.ts: the list as the app last drew it, drawn by a small script before the app's code); the next line times the app's own rows, in its root, the kept look gone. Each run must show the "Offline — showing data saved at" notice and 15 rows
- bulkPut: the ${count(CACHED_ITEMS)} kept item records, written with Dexie into a database opened just before (\`key, [businessId+resource]\`), timed in the page
- Replay: ${count(QUEUED_CREATES)} brand creates added to the outbox offline (the shape the create form queues), then from \`setOffline(false)\` (the app's \`online\` event sends the outbox) until the outbox is empty and the server holds exactly ${count(QUEUED_CREATES)} more brands, polled every 10 ms; the page shows the overview

${browserTable(figures)}

${firstScreenTable(figures)}

${goalsTable(browserGoals(figures))}
`;
}

/** Issue #33's cold offline start, 10,000 items kept: the median under 400 ms. */
const COLD_START_TARGET_MS = 400;

export function browserGoals(figures: BrowserFigures): Goal[] {
  return [
    {
      target: `Cold offline start, \`/items\` with ${count(CACHED_ITEMS)} items kept: median < ${COLD_START_TARGET_MS} ms`,
      observed: `median ${milliseconds(figures.coldStart.medianMs)}`,
      met: figures.coldStart.medianMs < COLD_START_TARGET_MS,
    },
  ];
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

// ---- Working set -----------------------------------------------------------------------------

const ms = (value: number | null) => (value === null ? '–' : `${count(Math.round(value))} ms`);
const megabytes = (value: number | null) => (value === null ? '–' : `${value.toFixed(1)} MB`);
const worst = (timings: ChangeTiming[]) => Math.max(...timings.map((timing) => timing.totalMs));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
};
const medianOf = (timings: ChangeTiming[], part: keyof ChangeTiming) =>
  median(timings.map((timing) => timing[part]).filter((value): value is number => value !== null));

/** Issue #28's budgets against the figures of one run. */
export function workingSetGoals(figures: WorkingSetFigures): Goal[] {
  const budgets = WORKING_SET_BUDGETS;
  const perUser = figures.downloads.flatMap((download): Goal[] => [
    {
      target: `${download.user}: every record of the manifest kept`,
      observed: `${count(download.kept)} of ${count(download.records)}${download.problem ? ` (${download.problem})` : ''}`,
      met: download.kept === download.records && download.problem === null,
    },
    {
      target: `${download.user}: first download < ${seconds(budgets.downloadMs)}`,
      observed: `${seconds(download.downloadMs)} (${count(download.records)} records)`,
      met: download.downloadMs < budgets.downloadMs,
    },
    {
      target: `${download.user}: page's JS heap < ${budgets.heapMb} MB during it`,
      observed: `peak ${megabytes(download.peakHeapMb)}`,
      met: download.peakHeapMb < budgets.heapMb,
    },
    {
      target: `${download.user}: IndexedDB < ${budgets.indexedDbMb} MB`,
      observed:
        download.indexedDbMb === null ? `not told; the origin uses ${megabytes(download.storageMb)}` : megabytes(download.indexedDbMb),
      met: (download.indexedDbMb ?? download.storageMb) < budgets.indexedDbMb,
    },
    {
      target: `${download.user}: input delay < ${budgets.inputDelayMs} ms while downloading`,
      observed: `max ${ms(download.inputDelay.maxMs)}, p95 ${ms(download.inputDelay.p95Ms)} over ${download.inputDelay.presses} key presses`,
      met: download.inputDelay.presses > 0 && download.inputDelay.maxMs < budgets.inputDelayMs,
    },
  ]);
  const { lookups } = figures;
  return [
    ...perUser,
    {
      target: `a delta of ${DELTA_RECORDS} changed records < ${count(budgets.deltaMs)} ms`,
      observed: `worst ${ms(worst(figures.delta))} of ${figures.delta.length}${figures.live ? '' : ', the live stream not open'}`,
      met: worst(figures.delta) < budgets.deltaMs,
    },
    {
      target: `a change on another device kept here < ${seconds(budgets.crossDeviceMs)}`,
      observed: `worst ${ms(worst(figures.crossDevice))} of ${figures.crossDevice.length}, median ${ms(median(figures.crossDevice.map((timing) => timing.totalMs)))}`,
      met: worst(figures.crossDevice) < budgets.crossDeviceMs,
    },
    {
      target: `offline barcode lookup p95 < ${budgets.barcodeP95Ms} ms`,
      observed: `p95 ${lookups.barcode.p95Ms.toFixed(1)} ms over ${lookups.barcode.count}`,
      met: lookups.barcode.p95Ms < budgets.barcodeP95Ms && lookups.wrong === 0,
    },
    {
      target: `offline name search p95 < ${budgets.nameP95Ms} ms`,
      observed: `p95 ${lookups.name.p95Ms.toFixed(1)} ms over ${lookups.name.count}`,
      met: lookups.name.p95Ms < budgets.nameP95Ms && lookups.wrong === 0,
    },
  ];
}

export function downloadTable(downloads: DownloadFigures[]): string {
  const row = (download: DownloadFigures) =>
    `| ${download.user} | ${count(download.records)} | ${download.pages} | ${megabytes(download.wireMb)} / ${megabytes(download.jsonMb)} | ` +
    `**${seconds(download.downloadMs)}** | ${seconds(download.signInToFollowingMs)} | ${seconds(download.fetchMs)} | ` +
    `**${megabytes(download.peakHeapMb)}** | ${megabytes(download.heapAfterMb)} | **${megabytes(download.indexedDbMb)}** | ${megabytes(download.storageMb)} | ` +
    `**${ms(download.inputDelay.maxMs)}** / ${ms(download.inputDelay.p95Ms)} (${download.inputDelay.presses}, ${download.inputDelay.reported} reported) |`;
  return [
    '| User | records | pages | over the wire / JSON | download | sign-in to following | pages fetched (sum) | peak JS heap | heap after | IndexedDB | origin usage | input delay max / p95 (presses) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...downloads.map(row),
  ].join('\n');
}

function resourceTable(downloads: DownloadFigures[]): string {
  const names = [...new Set(downloads.flatMap((download) => download.resources.map((resource) => resource.name)))];
  const cell = (download: DownloadFigures, name: string) => {
    const resource = download.resources.find((candidate) => candidate.name === name);
    return resource ? `${count(resource.total)} in ${seconds(resource.ms)}` : '';
  };
  const shown = names.filter((name) =>
    downloads.some((download) => (download.resources.find((resource) => resource.name === name)?.ms ?? 0) >= 500),
  );
  return [
    `| Resource | ${downloads.map((download) => download.user).join(' | ')} |`,
    `| --- | ${downloads.map(() => '---:').join(' | ')} |`,
    ...shown.map((name) => `| ${name} | ${downloads.map((download) => cell(download, name)).join(' | ')} |`),
  ].join('\n');
}

/** The longest frames of each download (the Long Animation Frames API), each with its longest script. */
function longFramesList(downloads: DownloadFigures[]): string {
  return downloads
    .flatMap((download) =>
      download.longFrames.map(
        (frame) =>
          `- ${download.user}: ${ms(frame.durationMs)} (blocking ${ms(frame.blockingMs)}) at ${seconds(frame.atMs)} into the download — ${frame.script}`,
      ),
    )
    .join('\n');
}

function changeTable(rows: [string, ChangeTiming[]][]): string {
  const line = ([name, timings]: [string, ChangeTiming[]]) =>
    `| ${name} | ${timings.length} | ${ms(median(timings.map((timing) => timing.totalMs)))} | **${ms(worst(timings))}** | ` +
    `${ms(medianOf(timings, 'toRequestMs'))} | ${ms(medianOf(timings, 'requestMs'))} | ${ms(medianOf(timings, 'applyMs'))} |`;
  return [
    '| Change | runs | median | worst | commit to the pull (median) | the pull (median) | into IndexedDB (median) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(line),
  ].join('\n');
}

/** Where each profiled download's main thread went: by file, then by function. */
export function profileTable(downloads: DownloadFigures[]): string {
  const table = (title: string, lines: ProfileLine[]) =>
    [
      `| ${title} | self time | share |`,
      '| --- | ---: | ---: |',
      ...lines.map((line) => `| \`${line.what}\` | ${seconds(line.selfMs)} | ${(100 * line.share).toFixed(1)} % |`),
    ].join('\n');
  return downloads
    .filter((download) => download.profile)
    .map((download) =>
      [
        `CPU profile of the ${download.user}'s download, the page's main thread (${profilePath(download.user)}):`,
        '',
        table('File', download.profile!.files),
        '',
        table('Function', download.profile!.functions),
      ].join('\n'),
    )
    .join('\n\n');
}

export function workingSetSection(figures: WorkingSetFigures): string {
  const { seed, lookups } = figures;
  return `## Working set

Written by \`npm run bench\` or \`npm run bench -- --working-set-only\` (bench/working-set.ts), issue #28's budgets.

- Date: ${figures.date.toISOString()}; 1-minute load average at the end ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs
- Browser: Chromium ${figures.chromium}, headless, driven by playwright-core, the page's CPU slowed ${CPU_SLOWDOWN}× (CDP \`Emulation.setCPUThrottlingRate\`); each user in a fresh context whose service worker installed before signing in
- Server: the production build served by \`buildApp\` in the benchmark's process on 127.0.0.1 (answers compressed as the browser accepts), SQLite file in WAL mode
- Data (bench/working-set-database.ts, seeded in ${seconds(seed.totalMs)}): the demo business grown by ${count(seed.rows.items)} items (SKU, barcode, name, brand, type, classification, unit, VAT, SC/PWD), each with a sale price and a stock row (opening balance posted) at each of the ${seed.branchIds.length} branches — ${count(seed.rows.prices)} prices, ${count(seed.rows.stocks)} stocks — ${count(seed.rows.contacts)} contacts and ${count(seed.rows.openDocuments)} open quotations and purchase orders; the change log emptied after
- Users: the admin (every place and resource) and the demo's Branch Cashier, kept to one branch; each signs in through the form and lands on \`/items\`
- First download: from the manifest's request (\`GET /api/sync\`) to the engine's phase \`following\` (\`workingSetStatus()\`, watched through \`subscribeToWorkingSet\` by importing the built chunk into the page); JS heap is CDP \`Performance.getMetrics\` JSHeapUsedSize every ${SAMPLE_EVERY_MS} ms; IndexedDB is \`navigator.storage.estimate()\`'s \`usageDetails.indexedDB\` after it; every resource's records counted in IndexedDB against the manifest
- Input delay: a key typed into the list's Quick Search every ${count(KEY_PRESS_EVERY_MS)} ms through the download ("sauce", then five backspaces, again), measured by the Event Timing API (\`processingStart - startTime\` of each keydown, \`durationThreshold\` ${EVENT_THRESHOLD_MS}); a press it did not report took under ${EVENT_THRESHOLD_MS} ms and is counted at ${EVENT_THRESHOLD_MS}
- Deltas: with the cashier's page open on \`/items\` and the live stream open${figures.live ? '' : ' (**it was not open**)'}, another session (the admin's, from the benchmark's process) changes prices at the cashier's branch through the API: ${DELTA_RECORDS} at once by an import of sale prices (one transaction), and one at a time by \`PATCH /api/sale-item-prices/{id}\`. Each is timed from its answer (the transaction had committed) until every changed record in the cashier's IndexedDB holds the new price (read in the page every 20 ms), and split by the page's \`/api/sync/changes\` requests
- Offline lookups: the browser offline (\`context.setOffline(true)\`), the item picker's own queries through \`listQuery\`'s fallback (the built chunk's export, called in the page as \`reference-picker.tsx\` calls it: 15 rows ordered by name), each timed around the query function: what a picker waits for, without its 350 ms typing pause and its render. ${LOOKUPS} barcodes spread over the catalogue (\`barcode\`, strict), then ${LOOKUPS} name searches as a clerk types them (\`q\`: two words of an item's name, every third with its last word half typed); each answer checked (the one item with that barcode; rows holding the words)

${downloadTable(figures.downloads)}

Time by resource, from its first page to the next resource's (resources taking under 0.5 s left out):

${resourceTable(figures.downloads)}

The longest animation frames during each download (Long Animation Frames API; where the script came from, by the build's source maps):

${longFramesList(figures.downloads)}

${changeTable([
  [`${DELTA_RECORDS} prices imported at once`, figures.delta],
  ['one price changed (PATCH)', figures.crossDevice],
])}

| Offline lookup | queries | p50 | p95 | max |
| --- | ---: | ---: | ---: | ---: |
| barcode | ${lookups.barcode.count} | ${lookups.barcode.p50Ms.toFixed(1)} ms | **${lookups.barcode.p95Ms.toFixed(1)} ms** | ${lookups.barcode.maxMs.toFixed(1)} ms |
| name search | ${lookups.name.count} | ${lookups.name.p50Ms.toFixed(1)} ms | **${lookups.name.p95Ms.toFixed(1)} ms** | ${lookups.name.maxMs.toFixed(1)} ms |

The first offline query took ${lookups.firstMs.toFixed(1)} ms; ${lookups.wrong === 0 ? 'every answer was right' : `**${lookups.wrong} answers were wrong**`}.

${goalsTable(workingSetGoals(figures))}
`;
}
