import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureClientBuilt } from '../scripts/client-build';
import { todayInManila } from '../src/domain/documents';
import { buildApp } from '../src/server/app';
import { ADMIN, BUSINESS_ID, DATA_DIR, itemNames, itemValues } from './bench-database';
import { CHROMIUM } from './browser';
import {
  CASHIER,
  createWorkingSetDatabase,
  WORKING_SET_CONFIG,
  WORKING_SET_DATA,
  WORKING_SET_DATABASE_PATH,
  type WorkingSetSeed,
} from './working-set-database';

/**
 * The working-set benchmark (issue #28): what a device at a shop waits for when it keeps its
 * places' records offline. The production build, served by the real server over
 * bench/working-set-database.ts (50,000 items priced and stocked at three branches), in headless
 * Chromium with its CPU slowed 4× (CDP `Emulation.setCPUThrottlingRate`), as a cheap phone or
 * tablet. It measures, through the app's own code:
 *
 * - the first download after signing in, for the admin (every place) and the branch cashier (one
 *   branch): time until the engine follows the log, the page's peak JS heap, what IndexedDB holds,
 *   and the input delay of key presses typed into the list's search box meanwhile;
 * - deltas with the live stream open: 100 prices changed by an import of another user, and one
 *   price changed at a time, each timed from the change's commit to the cashier's kept record
 *   holding the new value;
 * - offline lookups through the pickers' own read path (`listQuery`'s fallback): 200 barcode
 *   lookups and 200 name searches, with the browser offline.
 *
 * The app exposes nothing for tests: the bench imports the built chunks of the app's modules into
 * the page (the same URLs the app loaded, so the same module instances), finding each export by
 * the build's source maps.
 */

export const CPU_SLOWDOWN = 4;

/** Issue #28's budgets. */
export const WORKING_SET_BUDGETS = {
  downloadMs: 60_000,
  heapMb: 300,
  indexedDbMb: 80,
  deltaMs: 1_000,
  crossDeviceMs: 2_000,
  barcodeP95Ms: 20,
  nameP95Ms: 50,
  inputDelayMs: 100,
};

export const DELTA_RECORDS = 100;
const DELTA_RUNS = 3;
const CROSS_DEVICE_RUNS = 10;
export const LOOKUPS = 200;
/** A key typed into the list's search box this often while the first download runs. */
export const KEY_PRESS_EVERY_MS = 1_000;
/** The Event Timing API reports only events that took at least this long (its least threshold). */
export const EVENT_THRESHOLD_MS = 16;
/** The page's JS heap is sampled this often during a first download. */
export const SAMPLE_EVERY_MS = 500;
/** The longest animation frames told of each download. */
const LONG_FRAMES = 3;
const DOWNLOAD_TIMEOUT_MS = 20 * 60_000;
const CHANGE_TIMEOUT_MS = 30_000;
/** Where each first download's CPU profile is written with `--working-set-profile`. */
export const profilePath = (user: string) => `${DATA_DIR}working-set-${user.split(',')[0].replaceAll(' ', '-')}.cpuprofile`;
/** The build served, copied from dist/: a build made meanwhile (tests build dist/ again) must not change what a page loads. */
const CLIENT_COPY = `${DATA_DIR}working-set-client`;
/** A fresh context's service worker installs (precaching the whole build) in less than this. */
const INSTALL_TIMEOUT_MS = 120_000;
/** A download that has not begun this long after signing in will not. */
const START_TIMEOUT_MS = 120_000;

export interface Percentiles {
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface DownloadFigures {
  user: string;
  /** The records the manifest named, and how many IndexedDB held afterwards. */
  records: number;
  kept: number;
  /** From the manifest's request to the engine's phase `following`. */
  downloadMs: number;
  /** From pressing "Sign in" to `following`. */
  signInToFollowingMs: number;
  /** The pages' fetches: how many, their summed duration (request start to last byte), bytes over the wire and decoded. */
  pages: number;
  fetchMs: number;
  wireMb: number;
  jsonMb: number;
  /** Each resource from its first progress to the next resource's (the order the engine downloads in). */
  resources: { name: string; total: number; ms: number }[];
  peakHeapMb: number;
  heapAfterMb: number;
  /** `navigator.storage.estimate()`: IndexedDB's part when the browser tells it, and the origin's whole usage. */
  indexedDbMb: number | null;
  storageMb: number;
  inputDelay: InputDelays;
  /** The longest animation frames during the download, and the script that ran longest in each. */
  longFrames: { atMs: number; durationMs: number; blockingMs: number; script: string }[];
  problem: string | null;
  /** Where the page's main thread spent the download, with `--working-set-profile`. */
  profile?: ProfileSummary;
}

export interface InputDelays {
  presses: number;
  /** Key presses the Event Timing API reported (they took at least EVENT_THRESHOLD_MS). */
  reported: number;
  maxMs: number;
  /** Presses not reported are counted at EVENT_THRESHOLD_MS, an upper bound of their delay. */
  p95Ms: number;
}

export interface ChangeTiming {
  /** From the change's answer (its transaction had committed) to the kept record holding the new value. */
  totalMs: number;
  /** Commit to the start of the first `/api/sync/changes` request that brought it: the feed's poll and the stream. */
  toRequestMs: number | null;
  /** That request, start to last byte. */
  requestMs: number | null;
  /** Last byte to the records in IndexedDB: parsing and writing. */
  applyMs: number | null;
}

export interface LookupFigures {
  barcode: Percentiles;
  name: Percentiles;
  /** The very first offline query (the device's index of the kept items is built for it, if the app builds one). */
  firstMs: number;
  /** Answers that were not what the server would have said (a barcode not found, a row not matching). */
  wrong: number;
}

export interface WorkingSetFigures {
  date: Date;
  chromium: string;
  seed: WorkingSetSeed;
  downloads: DownloadFigures[];
  live: boolean;
  delta: ChangeTiming[];
  crossDevice: ChangeTiming[];
  lookups: LookupFigures;
}

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];

export function percentilesOf(timesMs: number[]): Percentiles {
  const sorted = [...timesMs].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95), maxMs: sorted[sorted.length - 1] };
}

const mb = (bytes: number) => bytes / 1_000_000;
const count = (value: number) => value.toLocaleString('en-US');

// ---- The app's modules, from the build -------------------------------------------------------

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One segment of a source map's `mappings`: its base64 VLQ numbers. */
function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

interface SourceMap {
  sources: string[];
  names: string[];
  mappings: string;
}

/** A decoded mapping: generated column, source index, source line, source column, name index (-1: none). */
type Segment = [number, number, number, number, number];

/** A source map's mappings, by generated line. */
function decodeMappings(map: SourceMap): Segment[][] {
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let nameIndex = 0;
  return map.mappings.split(';').map((text) => {
    let column = 0;
    const segments: Segment[] = [];
    for (const part of text.split(',')) {
      if (part === '') continue;
      const values = decodeSegment(part);
      column += values[0];
      if (values.length < 4) continue;
      source += values[1];
      sourceLine += values[2];
      sourceColumn += values[3];
      if (values.length >= 5) nameIndex += values[4];
      segments.push([column, source, sourceLine, sourceColumn, values.length >= 5 ? nameIndex : -1]);
    }
    return segments;
  });
}

/** The generated identifiers that the source map says stand for `name` of the source at `sourceIndex`. */
function generatedNames(map: SourceMap, code: string, sourceIndex: number, name: string): Set<string> {
  const lines = code.split('\n');
  const found = new Set<string>();
  for (const [line, segments] of decodeMappings(map).entries()) {
    for (const [column, source, , , nameIndex] of segments) {
      if (source !== sourceIndex || map.names[nameIndex] !== name) continue;
      const identifier = /^[\w$]+/.exec(lines[line]?.slice(column) ?? '')?.[0];
      if (identifier) found.add(identifier);
    }
  }
  return found;
}

const decodedChunks = new Map<string, { code: string; map: SourceMap; lines: Segment[][] } | null>();

/** Where a character of a built chunk came from (`dexie/dist/dexie.js:3357`), by the chunk's source map; the chunk's name when it has none. */
export function originalPlace(clientDir: string, url: string, charPosition: number): string {
  const file = url.split('/').at(-1) ?? '';
  if (!decodedChunks.has(file)) {
    const path = join(clientDir, 'assets', file);
    if (!file.endsWith('.js') || !existsSync(`${path}.map`)) decodedChunks.set(file, null);
    else {
      const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as SourceMap;
      decodedChunks.set(file, { code: readFileSync(path, 'utf8'), map, lines: decodeMappings(map) });
    }
  }
  const chunk = decodedChunks.get(file);
  if (!chunk || charPosition < 0) return file || url;
  const before = chunk.code.slice(0, charPosition);
  const line = before.split('\n').length - 1;
  const column = charPosition - (before.lastIndexOf('\n') + 1);
  const segment = chunk.lines[line]?.filter(([generated]) => generated <= column).at(-1);
  if (!segment) return file;
  return `${chunk.map.sources[segment[1]].replace(/^(\.\.\/)+(node_modules\/)?/, '')}:${segment[2] + 1}`;
}

interface BuiltModule {
  /** The chunk's URL on the server. */
  file: string;
  /** Each name asked for, as the chunk exports it. */
  exports: Record<string, string>;
}

/** Where the build in `clientDir` put `names` of the source module `source` (`src/client/lib/working-set.ts`), read from its source maps. */
export function builtExports(source: string, names: string[], clientDir = 'dist'): BuiltModule {
  const assets = resolve(clientDir, 'assets');
  for (const mapFile of readdirSync(assets).filter((file) => file.endsWith('.js.map'))) {
    const map = JSON.parse(readFileSync(join(assets, mapFile), 'utf8')) as SourceMap;
    const sourceIndex = map.sources.findIndex((path) => path.endsWith(`/${source}`));
    if (sourceIndex === -1) continue;
    const jsFile = mapFile.slice(0, -'.map'.length);
    const code = readFileSync(join(assets, jsFile), 'utf8');
    const clause = [...code.matchAll(/export\s*\{([^}]*)\}/g)].at(-1)?.[1] ?? '';
    const exported = new Map(
      clause.split(',').map((entry) => {
        const [local, as] = entry.trim().split(/\s+as\s+/);
        return [local, as ?? local] as const;
      }),
    );
    const exports: Record<string, string> = {};
    for (const name of names) {
      const local = [...generatedNames(map, code, sourceIndex, name)].find((identifier) => exported.has(identifier));
      if (!local) throw new Error(`The build does not export ${name} of ${source} from assets/${jsFile}.`);
      exports[name] = exported.get(local)!;
    }
    return { file: `/assets/${jsFile}`, exports };
  }
  throw new Error(`No chunk of the build holds ${source}: is the web app built (npx vite build)?`);
}

/** The app's modules the bench calls, each export put on `window.__bench` under its source name. */
const APP_MODULES = [
  { source: 'src/client/lib/working-set.ts', names: ['workingSetStatus', 'subscribeToWorkingSet'] },
  { source: 'src/client/lib/resource-queries.ts', names: ['listQuery'] },
  { source: 'src/domain/resources/registry.ts', names: ['getResource'] },
];

type Bench = Record<string, (...args: never[]) => unknown>;
type BenchWindow = Window & {
  __bench: Bench;
  __benchEvents: { name: string; startTime: number; processingStart: number; duration: number }[];
  __benchFrames: LongFrame[];
  __benchPhases: BenchPhase[];
  __benchDb?: Promise<IDBDatabase>;
};

/** A long animation frame (the LoAF API), with the scripts that ran in it. */
interface LongFrame {
  startTime: number;
  duration: number;
  blockingDuration: number;
  scripts: { invoker: string; sourceURL: string; sourceFunctionName: string; sourceCharPosition: number; duration: number }[];
}

interface BenchPhase {
  at: number;
  phase: string;
  live: boolean;
  resource: string | null;
  done: number | null;
  total: number | null;
  problem: string | null;
}

/** Imports the app's chunks into the page, and notes every change of the working set's status with its time. */
async function loadAppModules(page: Page): Promise<void> {
  const modules = APP_MODULES.map(({ source, names }) => builtExports(source, names, CLIENT_COPY));
  await page.evaluate(async (built) => {
    const bench = window as unknown as BenchWindow;
    bench.__bench = {};
    for (const { file, exports } of built) {
      const module = (await import(file)) as Record<string, Bench[string]>;
      for (const [name, exported] of Object.entries(exports)) bench.__bench[name] = module[exported];
    }
    const status = bench.__bench.workingSetStatus as unknown as () => {
      phase: string;
      live: boolean;
      progress: { resource: string; done: number; total: number } | null;
      problem: string | null;
    };
    const subscribe = bench.__bench.subscribeToWorkingSet as unknown as (listener: () => void) => () => void;
    bench.__benchPhases = [];
    const note = () => {
      const now = status();
      const last = bench.__benchPhases.at(-1);
      const entry = {
        at: performance.now(),
        phase: now.phase,
        live: now.live,
        resource: now.progress?.resource ?? null,
        done: now.progress?.done ?? null,
        total: now.progress?.total ?? null,
        problem: now.problem,
      };
      if (last && (Object.keys(entry) as (keyof typeof entry)[]).every((key) => key === 'at' || last[key] === entry[key])) return;
      bench.__benchPhases.push(entry);
    };
    note();
    subscribe(note);
  }, modules);
}

// ---- In the page -----------------------------------------------------------------------------

/**
 * An init script: keeps every resource timing, every event the Event Timing API reports, and every
 * animation frame of 50 ms or more with the scripts that ran in it (the Long Animation Frames API).
 */
function observePage(threshold: number): void {
  performance.setResourceTimingBufferSize(100_000);
  const bench = window as unknown as BenchWindow;
  bench.__benchEvents = [];
  bench.__benchFrames = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as LongFrame[]) {
      const { startTime, duration, blockingDuration, scripts } = entry;
      bench.__benchFrames.push({
        startTime,
        duration,
        blockingDuration,
        scripts: scripts.map(({ invoker, sourceURL, sourceFunctionName, sourceCharPosition, duration: took }) => ({
          invoker,
          sourceURL,
          sourceFunctionName,
          sourceCharPosition,
          duration: took,
        })),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEventTiming[]) {
      bench.__benchEvents.push({
        name: entry.name,
        startTime: entry.startTime,
        processingStart: entry.processingStart,
        duration: entry.duration,
      });
    }
  }).observe({ type: 'event', durationThreshold: threshold, buffered: true } as PerformanceObserverInit);
}

/**
 * Waits in the page until each kept record (`{businessId}|{resource}|{id}` in the user's records
 * table, where the working set's changes go: kept-records.ts) has `field` equal to its expected value; answers Date.now() then. It reads one record
 * every 20 ms, and all that are left once that one has changed, so watching costs the page little.
 */
function watchKept({
  database,
  keys,
  field,
  expected,
  timeoutMs,
}: {
  database: string;
  keys: string[];
  field: string;
  expected: unknown[];
  timeoutMs: number;
}) {
  const bench = window as unknown as BenchWindow;
  bench.__benchDb ??= new Promise<IDBDatabase>((resolved, failed) => {
    const request = indexedDB.open(database);
    request.onsuccess = () => {
      request.result.onversionchange = () => {
        request.result.close();
        bench.__benchDb = undefined;
      };
      resolved(request.result);
    };
    request.onerror = () => failed(request.error);
  });
  const read = async (wanted: string[]) => {
    const db = await bench.__benchDb!;
    return new Promise<Map<string, unknown>>((resolved, failed) => {
      const found = new Map<string, unknown>();
      const store = db.transaction('records', 'readonly').objectStore('records');
      for (const key of wanted) {
        const request = store.get(key);
        request.onsuccess = () => found.set(key, (request.result as { record?: Record<string, unknown> } | undefined)?.record?.[field]);
      }
      store.transaction.oncomplete = () => resolved(found);
      store.transaction.onerror = () => failed(store.transaction.error);
    });
  };
  const pending = new Map(keys.map((key, index) => [key, expected[index]]));
  const started = Date.now();
  return new Promise<number>((resolved, failed) => {
    const poll = async () => {
      try {
        const first = pending.keys().next().value as string;
        if ((await read([first])).get(first) === pending.get(first)) {
          for (const [key, value] of await read([...pending.keys()])) if (value === pending.get(key)) pending.delete(key);
        }
        if (pending.size === 0) return resolved(Date.now());
        if (Date.now() - started > timeoutMs) return failed(new Error(`${pending.size} of ${keys.length} kept records never changed.`));
        setTimeout(() => void poll(), 20);
      } catch (error) {
        failed(error);
      }
    };
    void poll();
  });
}

/** How many records of each resource the user's database keeps for the business: in its pages (kept-records.ts), as the download writes them. */
function countKept({ database, businessId, resources }: { database: string; businessId: number; resources: string[] }) {
  return new Promise<Record<string, number>>((resolved, failed) => {
    const request = indexedDB.open(database);
    request.onerror = () => failed(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const counts: Record<string, number> = {};
      const pages = db.transaction('pages', 'readonly').objectStore('pages');
      for (const resource of resources) {
        counts[resource] = 0;
        const cursor = pages.openCursor(
          IDBKeyRange.bound([businessId, resource, -Infinity, -Infinity], [businessId, resource, Infinity, Infinity]),
        );
        cursor.onsuccess = () => {
          if (!cursor.result) return;
          counts[resource] += (cursor.result.value as { records: unknown[] }).records.length;
          cursor.result.continue();
        };
      }
      pages.transaction.oncomplete = () => {
        db.close();
        resolved(counts);
      };
      pages.transaction.onerror = () => failed(pages.transaction.error);
    };
  });
}

// ---- The server and the other device ---------------------------------------------------------

/** A signed-in session of the API, as another device would hold (the bench's process is that device). */
class ApiSession {
  private constructor(
    private readonly url: string,
    private readonly cookie: string,
  ) {}

  static async signIn(url: string, user: { email: string; password: string }): Promise<ApiSession> {
    const response = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify(user),
    });
    if (!response.ok) throw new Error(`Signing in as ${user.email}: ${response.status} ${await response.text()}`);
    return new ApiSession(
      url,
      response.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    );
  }

  async send<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        Cookie: this.cookie,
        'Business-ID': String(BUSINESS_ID),
        'X-Requested-With': 'XMLHttpRequest',
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }
}

// ---- The first download ----------------------------------------------------------------------

/** Signs in through the form, the service worker already in control, then follows the first download to its end. */
async function firstDownload(
  browser: Browser,
  url: string,
  user: { email: string; password: string },
  label: string,
  profile: boolean,
): Promise<{ figures: DownloadFigures; context: BrowserContext; page: Page; database: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: url });
  // The functions the bench runs in the page come through tsx, which names them with a helper of its own.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  await context.addInitScript(observePage, EVENT_THRESHOLD_MS);
  const page = await context.newPage();
  // A device's first visit: the service worker installs while the clerk types in the form.
  await page.goto('/login?redirect=%2Fitems');
  await page.evaluate(async (timeoutMs) => {
    const late = new Promise((_resolved, failed) =>
      setTimeout(() => failed(new Error(`The service worker did not install in ${timeoutMs / 1000} s.`)), timeoutMs),
    );
    await Promise.race([navigator.serviceWorker.ready, late]);
  }, INSTALL_TIMEOUT_MS);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await loadAppModules(page);

  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Performance.enable');
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  const signInAt = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Sign in' }).click();

  const heap: number[] = [];
  let presses = 0;
  let finished = false;
  const started = Date.now();
  let reported = started;
  const keys = ['s', 'a', 'u', 'c', 'e', 'Backspace', 'Backspace', 'Backspace', 'Backspace', 'Backspace'];
  const typing = (async () => {
    const box = page.getByPlaceholder('Quick Search');
    while (!finished && !(await box.isVisible())) await sleep(200);
    while (!finished) {
      const pressed = Date.now();
      await box.press(keys[presses % keys.length]);
      presses += 1;
      await sleep(Math.max(0, KEY_PRESS_EVERY_MS - (Date.now() - pressed)));
    }
  })();
  try {
    for (;;) {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      heap.push(metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0);
      const last = await page.evaluate(() => (window as unknown as BenchWindow).__benchPhases.at(-1));
      if (last?.phase === 'following' || last?.phase === 'unavailable') break;
      if (last?.phase !== 'downloading' && Date.now() - started > START_TIMEOUT_MS)
        throw new Error(`The working set of ${label} did not begin downloading ${START_TIMEOUT_MS / 1000} s after signing in.`);
      if (Date.now() - reported >= 30_000 && last?.total) {
        reported = Date.now();
        console.log(`    ${count(last.done ?? 0)} of ${count(last.total)} records after ${Math.round((reported - started) / 1000)} s`);
      }
      if (Date.now() - started > DOWNLOAD_TIMEOUT_MS)
        throw new Error(`The first download of ${label} did not end in ${DOWNLOAD_TIMEOUT_MS / 60_000} minutes.`);
      await sleep(SAMPLE_EVERY_MS);
    }
  } finally {
    finished = true;
    await typing;
  }
  let profileLines: ProfileSummary | undefined;
  if (profile) {
    const { profile: taken } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    writeFileSync(profilePath(label), JSON.stringify(taken));
    profileLines = profileSummary(taken);
  }

  const seen = await page.evaluate(
    async ({ businessId }) => {
      const bench = window as unknown as BenchWindow;
      const timings = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const manifest = timings.find((entry) => new URL(entry.name).pathname === '/api/sync');
      const pages = timings.filter((entry) => new URL(entry.name).pathname.startsWith('/api/sync/records/'));
      const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
      const answer = await fetch('/api/sync', {
        headers: { 'Business-ID': String(businessId), 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      });
      const totals = ((await answer.json()) as { data: { resources: { name: string; total: number }[] } }).data.resources;
      const databases = (await indexedDB.databases())
        .map((database) => database.name ?? '')
        .filter((name) => name.startsWith('bodega-user-'));
      return {
        phases: bench.__benchPhases,
        manifestAt: manifest?.startTime ?? null,
        pages: pages.length,
        fetchMs: pages.reduce((sum, entry) => sum + (entry.responseEnd - entry.startTime), 0),
        wire: pages.reduce((sum, entry) => sum + entry.transferSize, 0),
        json: pages.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
        indexedDb: estimate.usageDetails?.indexedDB ?? null,
        usage: estimate.usage ?? 0,
        totals,
        databases,
        keydowns: bench.__benchEvents.filter((entry) => entry.name === 'keydown').map((entry) => entry.processingStart - entry.startTime),
        frames: bench.__benchFrames,
      };
    },
    { businessId: BUSINESS_ID },
  );
  if (seen.databases.length !== 1) throw new Error(`Expected one user database in the page, found: ${seen.databases.join(', ')}`);
  const database = seen.databases[0];
  const kept = await page.evaluate(countKept, {
    database,
    businessId: BUSINESS_ID,
    resources: seen.totals.map((resource) => resource.name),
  });
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };

  const following = seen.phases.find((phase) => phase.phase === 'following' || phase.phase === 'unavailable');
  const end = following?.at ?? Number.NaN;
  const resources: DownloadFigures['resources'] = [];
  for (const [index, phase] of seen.phases.entries()) {
    if (phase.resource === null || resources.at(-1)?.name === phase.resource) continue;
    const next = seen.phases.slice(index + 1).find((later) => later.resource !== phase.resource);
    const total = seen.totals.find((resource) => resource.name === phase.resource)?.total ?? 0;
    resources.push({ name: phase.resource, total, ms: (next?.at ?? end) - phase.at });
  }
  const downloadStart = seen.manifestAt ?? signInAt;
  const longFrames = seen.frames
    .filter((frame) => frame.startTime >= downloadStart && frame.startTime <= end)
    .sort((a, b) => b.duration - a.duration)
    .slice(0, LONG_FRAMES)
    .map((frame) => {
      const script = [...frame.scripts].sort((a, b) => b.duration - a.duration)[0];
      return {
        atMs: frame.startTime - downloadStart,
        durationMs: frame.duration,
        blockingMs: frame.blockingDuration,
        script: script
          ? `${Math.round(script.duration)} ms in ${script.invoker}: ${script.sourceFunctionName || '(anonymous)'} at ${originalPlace(CLIENT_COPY, script.sourceURL, script.sourceCharPosition)}`
          : 'no script (rendering, or the browser’s own work)',
      };
    });
  const delays = [...seen.keydowns, ...Array.from({ length: Math.max(0, presses - seen.keydowns.length) }, () => EVENT_THRESHOLD_MS)];
  const records = seen.totals.reduce((sum, resource) => sum + resource.total, 0);
  const keptTotal = Object.values(kept).reduce((sum, count) => sum + count, 0);
  const missing = seen.totals.filter((resource) => kept[resource.name] !== resource.total);
  return {
    context,
    page,
    database,
    figures: {
      user: label,
      records,
      kept: keptTotal,
      downloadMs: end - downloadStart,
      signInToFollowingMs: end - signInAt,
      pages: seen.pages,
      fetchMs: seen.fetchMs,
      wireMb: mb(seen.wire),
      jsonMb: mb(seen.json),
      resources,
      peakHeapMb: mb(Math.max(...heap)),
      heapAfterMb: mb(metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0),
      indexedDbMb: seen.indexedDb === null ? null : mb(seen.indexedDb),
      storageMb: mb(seen.usage),
      inputDelay: {
        presses,
        reported: seen.keydowns.length,
        maxMs: delays.length === 0 ? 0 : Math.max(...delays),
        p95Ms: delays.length === 0 ? 0 : percentilesOf(delays).p95Ms,
      },
      longFrames,
      problem:
        following?.problem ??
        (missing.length === 0
          ? null
          : `IndexedDB holds ${missing.map((resource) => `${kept[resource.name] ?? 0} of ${resource.total} ${resource.name}`).join(', ')}`),
      profile: profileLines,
    },
  };
}

// ---- CPU profile -----------------------------------------------------------------------------

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileLine {
  what: string;
  selfMs: number;
  share: number;
}

export interface ProfileSummary {
  /** The functions the samples fell in most, by self time. */
  functions: ProfileLine[];
  /** The same by the file they come from (a chunk of the build, or the engine's own work: idle, GC, program). */
  files: ProfileLine[];
}

/** Where the page's main thread spent a profile: by function and by file, self time, the largest first. */
export function profileSummary(profile: CpuProfile, top = 15): ProfileSummary {
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const samples = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0) || 1;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, hits: number) => map.set(key, (map.get(key) ?? 0) + hits);
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').at(-1) ?? '';
    const name = functionName || '(anonymous)';
    add(byFunction, file ? `${name} ${file}:${lineNumber + 1}` : name, node.hitCount ?? 0);
    add(byFile, file || (name.startsWith('(') ? name : '(native)'), node.hitCount ?? 0);
  }
  const lines = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, hits]) => ({ what, selfMs: (hits / samples) * totalMs, share: hits / samples }));
  return { functions: lines(byFunction), files: lines(byFile) };
}

// ---- Deltas ----------------------------------------------------------------------------------

interface PriceRow {
  id: number;
  itemId: number;
  sku: string;
  price: number;
  version: number;
}

/** Sale prices of the cashier's branch, read from the database to pick what to change (the changes go through the API). */
function pricesAtBranch(branchId: number, count: number, offset: number): PriceRow[] {
  const raw = new SQLite(WORKING_SET_DATABASE_PATH, { readonly: true });
  try {
    return (
      raw
        .prepare(
          `select p.id, p.item_id as itemId, i.sku, p.price, p.version from sale_item_prices p join items i on i.id = p.item_id
           where p.business_id = ? and p.branch_id = ? and i.sku like 'SKU-%' order by p.id limit ? offset ?`,
        )
        .all(BUSINESS_ID, branchId, count, offset) as PriceRow[]
    ).map((row) => ({ ...row, price: row.price / 100 }));
  } finally {
    raw.close();
  }
}

/** Splits a change's time by the page's `/api/sync/changes` requests after the commit. */
async function timeChange(page: Page, committedAt: number, seenAt: number): Promise<ChangeTiming> {
  const requests = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname === '/api/sync/changes')
      .map((entry) => ({ start: performance.timeOrigin + entry.startTime, end: performance.timeOrigin + entry.responseEnd })),
  );
  // The request that brought it: the last one to end before the records were seen, begun after the commit.
  const bringing = requests.filter((request) => request.start >= committedAt && request.end <= seenAt).at(-1);
  const first = requests.find((request) => request.start >= committedAt);
  return {
    totalMs: seenAt - committedAt,
    toRequestMs: first ? first.start - committedAt : null,
    requestMs: bringing ? bringing.end - bringing.start : null,
    applyMs: bringing ? seenAt - bringing.end : null,
  };
}

/** 100 prices at the cashier's branch changed by another user's import, in one transaction. */
async function deltaRuns(page: Page, database: string, admin: ApiSession, branchName: string, branchId: number): Promise<ChangeTiming[]> {
  const today = todayInManila();
  const timings: ChangeTiming[] = [];
  for (let run = 0; run < DELTA_RUNS; run += 1) {
    const prices = pricesAtBranch(branchId, DELTA_RECORDS, run * DELTA_RECORDS);
    const newPrices = prices.map((row) => Math.round((row.price + 1 + run) * 100) / 100);
    const watching = page.evaluate(watchKept, {
      database,
      keys: prices.map((row) => `${BUSINESS_ID}|sale-item-prices|${row.id}`),
      field: 'price',
      expected: newPrices,
      timeoutMs: CHANGE_TIMEOUT_MS,
    });
    await sleep(200);
    const rows = prices.map((row, index) => ({
      sku: row.sku,
      branch: branchName,
      unit: 'pc',
      price: newPrices[index].toFixed(2),
      effective_date: today,
    }));
    const answer = await admin.send<{ data: { created: number; updated: number } }>('POST', '/api/imports/sale-prices', {
      rows,
      on_existing: 'update',
    });
    const committedAt = Date.now();
    if (answer.data.updated !== DELTA_RECORDS)
      throw new Error(`The import updated ${answer.data.updated} prices (created ${answer.data.created}), expected ${DELTA_RECORDS}.`);
    timings.push(await timeChange(page, committedAt, await watching));
    await sleep(1_000);
  }
  return timings;
}

/** One price changed at a time by another user (PATCH), while the cashier's page follows the live stream. */
async function crossDeviceRuns(page: Page, database: string, admin: ApiSession, branchId: number): Promise<ChangeTiming[]> {
  const timings: ChangeTiming[] = [];
  const prices = pricesAtBranch(branchId, CROSS_DEVICE_RUNS, DELTA_RUNS * DELTA_RECORDS);
  for (const row of prices) {
    const price = Math.round((row.price + 7) * 100) / 100;
    const watching = page.evaluate(watchKept, {
      database,
      keys: [`${BUSINESS_ID}|sale-item-prices|${row.id}`],
      field: 'price',
      expected: [price],
      timeoutMs: CHANGE_TIMEOUT_MS,
    });
    await sleep(200);
    await admin.send('PATCH', `/api/sale-item-prices/${row.id}`, { price }, { 'If-Match': String(row.version) });
    const committedAt = Date.now();
    timings.push(await timeChange(page, committedAt, await watching));
    // Changes some time apart, not back to back: the feed's poll lands anywhere in its period.
    await sleep(700 + timings.length * 53);
  }
  return timings;
}

async function waitForLive(page: Page, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const live = await page.evaluate(() => (window as unknown as BenchWindow).__benchPhases.at(-1)?.live ?? false);
    if (live) return true;
    await sleep(250);
  }
  return false;
}

// ---- Offline lookups -------------------------------------------------------------------------

/** What a clerk types into the item picker: two words of an item's name, the last one often half typed. */
export function nameSearches(count: number): string[] {
  const nextName = itemNames();
  const names = Array.from({ length: WORKING_SET_DATA.items }, () => nextName());
  return Array.from({ length: count }, (_, index) => {
    const words = names[(index * 7_919) % names.length].split(' ');
    const from = 1 + (index % 2);
    const picked = words.slice(from, from + 2);
    if (index % 3 === 0) picked[picked.length - 1] = picked[picked.length - 1].slice(0, 4);
    return picked.join(' ').toLowerCase();
  });
}

/** Barcodes of the bench's items, spread over the catalogue. */
export function barcodeLookups(count: number): string[] {
  return Array.from({ length: count }, (_, index) => itemValues(1 + ((index * 104_729) % WORKING_SET_DATA.items)).barcode);
}

/**
 * With the browser offline, the item picker's two searches through `listQuery`'s own fallback, as
 * the picker makes them (`reference-picker.tsx` `searchOf`: 15 rows, ordered by name; a scanned
 * barcode looked up as it is). Each is timed in the page around the query function the picker's
 * query runs: the answer a picker waits for, without its typing pause or its render.
 */
async function offlineLookups(context: BrowserContext, page: Page): Promise<LookupFigures> {
  await context.setOffline(true);
  try {
    return await page
      .evaluate(
        async ({ businessId, barcodes, terms }) => {
          const bench = (window as unknown as BenchWindow).__bench;
          type Options = {
            queryKey: unknown[];
            queryFn: (context: unknown) => Promise<{ data: Record<string, unknown>[]; savedOffline?: number }>;
          };
          const listQuery = bench.listQuery as unknown as (
            businessId: number,
            definition: unknown,
            params: Record<string, unknown>,
          ) => Options;
          const items = (bench.getResource as unknown as (name: string) => unknown)('items');
          const ask = async (params: Record<string, unknown>) => {
            const options = listQuery(businessId, items, { limit: 15, order_by_field_name: 'name', order_by: 'asc', ...params });
            const started = performance.now();
            const answer = await options.queryFn({ queryKey: options.queryKey, signal: new AbortController().signal, meta: undefined });
            const ms = performance.now() - started;
            // A moment between queries, as between a clerk's searches.
            await new Promise((resolved) => setTimeout(resolved, 10));
            return { ms, answer };
          };
          let wrong = 0;
          const barcode: number[] = [];
          for (const code of barcodes) {
            const { ms, answer } = await ask({ barcode: code, is_strict: 1 });
            barcode.push(ms);
            if (answer.savedOffline === undefined || answer.data.length !== 1 || answer.data[0].barcode !== code) wrong += 1;
          }
          const name: number[] = [];
          for (const term of terms) {
            const { ms, answer } = await ask({ q: term });
            name.push(ms);
            const holds = (row: Record<string, unknown>) =>
              ['name', 'sku', 'barcode'].some((field) =>
                String(row[field] ?? '')
                  .toLowerCase()
                  .includes(term),
              );
            if (answer.savedOffline === undefined || answer.data.length === 0 || !answer.data.every(holds)) wrong += 1;
          }
          return { barcode, name, wrong };
        },
        { businessId: BUSINESS_ID, barcodes: barcodeLookups(LOOKUPS), terms: nameSearches(LOOKUPS) },
      )
      .then(({ barcode, name, wrong }) => ({ barcode: percentilesOf(barcode), name: percentilesOf(name), firstMs: barcode[0], wrong }));
  } finally {
    await context.setOffline(false);
  }
}

// ---- The run ---------------------------------------------------------------------------------

/** Builds the app if needed, seeds the database, and measures every figure of issue #28. */
export async function runWorkingSetBench(): Promise<WorkingSetFigures> {
  return run(false) as Promise<WorkingSetFigures>;
}

/** The first downloads alone, each with a CPU profile of the page's main thread (which slows them): where their time goes. */
export async function profileWorkingSetDownloads(): Promise<DownloadFigures[]> {
  return run(true) as Promise<DownloadFigures[]>;
}

async function run(profile: boolean): Promise<WorkingSetFigures | DownloadFigures[]> {
  ensureClientBuilt();
  rmSync(CLIENT_COPY, { recursive: true, force: true });
  cpSync('dist', CLIENT_COPY, { recursive: true });
  if (!existsSync(join(CLIENT_COPY, 'index.html')))
    throw new Error('dist/ was being built again while it was copied: run the bench again.');
  console.log(`  seeding ${WORKING_SET_DATA.items.toLocaleString('en-US')} items at ${WORKING_SET_DATA.branches} branches …`);
  const seed = await createWorkingSetDatabase();
  console.log(`  seeded in ${(seed.totalMs / 1000).toFixed(1)} s`);
  const app = await buildApp({ ...WORKING_SET_CONFIG, clientDir: resolve(CLIENT_COPY) });
  let browser: Browser | undefined;
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
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
    const downloads: DownloadFigures[] = [];
    console.log('  first download as the admin (every place) …');
    const admin = await firstDownload(browser, url, ADMIN, 'admin, every place', profile);
    downloads.push(admin.figures);
    await admin.context.close();
    console.log('  first download as the branch cashier (one branch) …');
    const cashier = await firstDownload(browser, url, CASHIER, 'branch cashier, one branch', profile);
    downloads.push(cashier.figures);
    if (profile) return downloads;

    const other = await ApiSession.signIn(url, ADMIN);
    const branchId = seed.branchIds[0];
    const branch = await other.send<{ data: { name: string } }>('GET', `/api/branches/${branchId}`);
    const live = await waitForLive(cashier.page, 15_000);
    console.log(
      `  deltas: ${DELTA_RUNS} × ${DELTA_RECORDS} prices imported, then ${CROSS_DEVICE_RUNS} single price changes${live ? '' : ' (the live stream is not open)'} …`,
    );
    const delta = await deltaRuns(cashier.page, cashier.database, other, branch.data.name, branchId);
    const crossDevice = await crossDeviceRuns(cashier.page, cashier.database, other, branchId);
    console.log(`  offline lookups: ${LOOKUPS} barcodes, ${LOOKUPS} name searches …`);
    const lookups = await offlineLookups(cashier.context, cashier.page);
    return { date: new Date(), chromium: browser.version(), seed, downloads, live, delta, crossDevice, lookups };
  } finally {
    await browser?.close();
    await app.close();
  }
}
