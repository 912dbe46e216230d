import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { ensureClientBuilt } from '../scripts/client-build';
import { browserCookie, sessionCookie } from './api-targets';
import { BUSINESS_ID, DATA_DIR } from './bench-database';
import { CACHED_ITEMS, CHROMIUM, startServer } from './browser';
import { goalsTable, type Goal } from './report';

/**
 * Lighthouse 12 on five pages of the production build: `/login` signed out; `/items`, `/`, the
 * counter and a new invoice's create screen signed in. Its default (mobile) config, a fresh headless Chromium for every run, RUNS runs per
 * page; the median run by performance score is reported and its whole report kept under
 * bench/.data/ for the trace details. `npm run bench -- --lighthouse-only` runs it alone;
 * `npm run bench -- --lighthouse-page=/counter` audits one page and prints it, writing nothing.
 */

/** chrome-launcher's own variable first, then the browser benchmark's Chromium. */
export const LIGHTHOUSE_CHROME = process.env.CHROME_PATH ?? CHROMIUM;
/** Odd, so that the median is one run. */
const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const DATABASE_PATH = `${DATA_DIR}lighthouse.sqlite`;
/** The build as it was when the runs began: a rebuild of dist/ meanwhile cannot mix two builds into one page load. */
const CLIENT_COPY = `${DATA_DIR}lighthouse-dist`;

interface AuditedPage {
  path: string;
  signedIn: boolean;
  /** The status each of these API paths must answer the page with (calls the app cancelled aside), or the run audited another state of the app. */
  answers: Record<string, number>;
  /** Its median run's report, in bench/.data/. */
  reportFile: string;
}

const PAGES: AuditedPage[] = [
  // Signed out, the page the server sends says so: nothing asks who is signed in (client/lib/early-user.ts).
  { path: '/login', signedIn: false, answers: {}, reportFile: 'lighthouse-login.json' },
  {
    path: '/items',
    signedIn: true,
    answers: { '/api/items': 200 },
    reportFile: 'lighthouse-items.json',
  },
  {
    path: '/',
    signedIn: true,
    answers: { '/api/overview/sales-purchases': 200 },
    reportFile: 'lighthouse-overview.json',
  },
  {
    path: '/counter',
    signedIn: true,
    answers: { '/api/places': 200 },
    reportFile: 'lighthouse-counter.json',
  },
  // A document's create screen: a new sales invoice, its places and customers asked for.
  {
    path: '/invoices/create',
    signedIn: true,
    answers: { '/api/places': 200 },
    reportFile: 'lighthouse-invoice-create.json',
  },
];

/** An audit that cost its category points: scored below 1 with a weight. */
export interface FailingAudit {
  category: string;
  id: string;
  title: string;
  weight: number;
  /** What it found, shortened: console messages, elements, URLs. */
  found: string[];
}

export interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  failing: FailingAudit[];
}

export interface PageFigures {
  path: string;
  signedIn: boolean;
  /** Every run's performance score, in run order. */
  performanceScores: number[];
  median: RunFigures;
  reportFile: string;
}

export interface LighthouseFigures {
  date: Date;
  chromium: string;
  lighthouse: string;
  /** Lighthouse's measure of the machine's speed during each median run (higher is faster). */
  benchmarkIndexes: number[];
  throttling: string;
  loadAverage: number;
  build: { builtAt: Date; entry: string };
  pages: PageFigures[];
}

export function lighthouseChromeAvailable(): boolean {
  return existsSync(LIGHTHOUSE_CHROME);
}

/** The Chromium's whole version: the user agent in Lighthouse's report has only its major one (156.0.0.0). */
function chromiumVersion(): string {
  const output = execFileSync(LIGHTHOUSE_CHROME, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return /\d+(\.\d+){3}/.exec(output)?.[0] ?? output.trim();
}

// ---- The build and the server ----------------------------------------------------------------

/** Copies the build to audit to CLIENT_COPY: dist/ as it is, built first only when it holds none; says which. */
function copyBuild(): { builtAt: Date; entry: string } {
  if (existsSync('dist/index.html')) console.log('  auditing dist/ as it is (npm run build first to audit the current sources)');
  else ensureClientBuilt();
  const html = readFileSync('dist/index.html', 'utf8');
  const entry = /<script type="module"[^>]* src="\/([^"]+)"/.exec(html)?.[1] ?? 'no module script';
  const builtAt = statSync('dist/index.html').mtime;
  rmSync(CLIENT_COPY, { recursive: true, force: true });
  cpSync('dist', CLIENT_COPY, { recursive: true });
  console.log(`  build of ${builtAt.toISOString()}, entry ${entry}`);
  return { builtAt, entry };
}

// ---- One run ---------------------------------------------------------------------------------

/**
 * One Lighthouse run in a Chromium of its own: a fresh profile, so no run inherits another's storage.
 * Signed in, the session cookie is set in that browser, as signing in would (the app's download
 * worker sends it too: a header added to the page's requests reaches none of a worker's), and the
 * active business goes in localStorage, where the app keeps it (`business_id`, src/client/lib/api.ts):
 * without it the app asks the server which businesses there are first, and its screens ask for data
 * before it knows. Both are written from a page of the app's origin that runs none of its code;
 * Lighthouse then clears the service worker and the caches, not cookies or localStorage.
 */
async function audit(url: string, cookie: string | undefined): Promise<Result> {
  const chrome = await launch({ chromePath: LIGHTHOUSE_CHROME, chromeFlags: ['--headless=new', '--no-sandbox'] });
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    if (cookie) {
      await page.goto(new URL('/api/health', url).href);
      await page.evaluate((id) => localStorage.setItem('business_id', id), String(BUSINESS_ID));
      await browser.setCookie(browserCookie(cookie, url));
    }
    const result = await lighthouse(url, { logLevel: 'error', onlyCategories: [...CATEGORIES] }, undefined, page);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}.`);
    const { runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
    return result.lhr;
  } finally {
    await browser?.disconnect();
    chrome.kill();
  }
}

interface NetworkRequest {
  url: string;
  statusCode: number;
}

/** Why the run did not audit the page in the state asked for (signed in or out), or undefined when it did. */
function stateProblem(page: AuditedPage, lhr: Result): string | undefined {
  if (new URL(lhr.finalDisplayedUrl).pathname !== page.path) return `the page ended on ${lhr.finalDisplayedUrl}`;
  const requests = (lhr.audits['network-requests'].details as unknown as { items: NetworkRequest[] }).items;
  // Signed in, nothing of the app (its workers included) may be refused as signed out; signed out, nobody is signed in.
  const refused = page.signedIn ? requests.find((request) => request.statusCode === 401) : undefined;
  if (refused) return `${new URL(refused.url).pathname} answered 401 while signed in`;
  const user = page.signedIn
    ? undefined
    : requests.find((request) => new URL(request.url).pathname === '/api/auth/user' && request.statusCode === 200);
  if (user) return `/api/auth/user answered 200 while signed out`;
  for (const [path, status] of Object.entries(page.answers)) {
    // -1: a request the page cancelled, a query superseded before its answer.
    const statuses = requests
      .filter((request) => new URL(request.url).pathname === path && request.statusCode !== -1)
      .map((request) => request.statusCode);
    if (statuses.length === 0 || statuses.some((answered) => answered !== status))
      return `${path} answered ${statuses.join(', ') || 'nothing'}, expected ${status}`;
  }
  return undefined;
}

/** A few words for one item of an audit's details: a console message, an element, a URL. */
function itemLabel(item: Record<string, any>): string {
  const label = [item.description, item.node?.nodeLabel, item.node?.snippet, item.url, item.value, item.issueType].find(
    (candidate) => typeof candidate === 'string' && candidate !== '',
  );
  const text = String(label ?? JSON.stringify(item)).replace(/\s+/g, ' ');
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

/** The weighted audits of the accessibility and best-practices categories that scored below 1. */
function failingAudits(lhr: Result): FailingAudit[] {
  return (['accessibility', 'best-practices'] as const).flatMap((category) =>
    lhr.categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score! < 1)
      .map((ref) => {
        const { title, details } = lhr.audits[ref.id];
        const items = details && 'items' in details ? (details.items as Record<string, any>[]) : [];
        return { category, id: ref.id, title, weight: ref.weight, found: items.map(itemLabel) };
      }),
  );
}

const score = (lhr: Result, category: (typeof CATEGORIES)[number]) => Math.round(100 * (lhr.categories[category].score ?? 0));
const numeric = (lhr: Result, id: string) => lhr.audits[id].numericValue ?? NaN;

function runFigures(lhr: Result): RunFigures {
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    speedIndexMs: numeric(lhr, 'speed-index'),
    failing: failingAudits(lhr),
  };
}

// ---- The benchmark ---------------------------------------------------------------------------

/** How many times a run whose trace Lighthouse failed to record is tried, in all. */
const TRACE_TRIES = 3;

/**
 * One run, tried again when Lighthouse could not record its trace (NO_NAVSTART, NO_FCP…: it says
 * "Please run Lighthouse again"): a failure of the recording, which says nothing of the page.
 */
async function auditAgainOnTraceFailure(url: string, cookie: string | undefined): Promise<Result> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await audit(url, cookie);
    } catch (error) {
      const again = error instanceof Error && /Please run Lighthouse again/.test(error.message);
      if (!again || tried >= TRACE_TRIES) throw error;
      console.log(`  ${new URL(url).pathname}: ${error.message.replace(/^Lighthouse on \S+: /, '')} — trying again`);
    }
  }
}

/** RUNS runs of one page; the median by performance score is kept, its report written to bench/.data/ (and each run's beside it, `-run<n>`). */
async function auditPage(page: AuditedPage, baseUrl: string, cookie: string): Promise<{ figures: PageFigures; lhr: Result }> {
  const runs: { lhr: Result; figures: RunFigures }[] = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const lhr = await auditAgainOnTraceFailure(`${baseUrl}${page.path}`, page.signedIn ? cookie : undefined);
    const problem = stateProblem(page, lhr);
    if (problem) throw new Error(`Lighthouse on ${page.path} (${page.signedIn ? 'signed in' : 'signed out'}): ${problem}.`);
    const figures = runFigures(lhr);
    console.log(
      `  ${page.path} run ${run}: performance ${figures.performance}, accessibility ${figures.accessibility}, ` +
        `best practices ${figures.bestPractices}; LCP ${Math.round(figures.lcpMs)} ms, TBT ${Math.round(figures.tbtMs)} ms`,
    );
    runs.push({ lhr, figures });
    // Every run's report beside the median's, to read why one run differs from another.
    writeFileSync(`${DATA_DIR}${page.reportFile.replace(/\.json$/, `-run${run}.json`)}`, JSON.stringify(lhr));
  }
  const median = [...runs].sort((a, b) => a.figures.performance - b.figures.performance)[Math.floor(RUNS / 2)];
  writeFileSync(`${DATA_DIR}${page.reportFile}`, JSON.stringify(median.lhr));
  return {
    figures: {
      path: page.path,
      signedIn: page.signedIn,
      performanceScores: runs.map((run) => run.figures.performance),
      median: median.figures,
      reportFile: page.reportFile,
    },
    lhr: median.lhr,
  };
}

/** The throttling Lighthouse applied, in its own terms. */
function throttlingOf({ configSettings: settings }: Result): string {
  const { rttMs, throughputKbps, cpuSlowdownMultiplier } = settings.throttling;
  return (
    `${settings.formFactor}, throttling method "${settings.throttlingMethod}": ${rttMs} ms RTT, ` +
    `${((throughputKbps ?? 0) / 1024).toFixed(1)} Mbit/s, ${cpuSlowdownMultiplier}× CPU slowdown; ` +
    `screen ${settings.screenEmulation.width}×${settings.screenEmulation.height}`
  );
}

/** Serves a copy of the build over a fresh demo database and audits each page (or the one named) RUNS times. */
export async function runLighthouseBench(only?: string): Promise<LighthouseFigures> {
  const audited = PAGES.filter((page) => only === undefined || page.path === only);
  if (audited.length === 0) throw new Error(`No audited page ${only}: ${PAGES.map((page) => page.path).join(', ')}`);
  mkdirSync(DATA_DIR, { recursive: true });
  const build = copyBuild();
  const { app, url } = await startServer(DATABASE_PATH, CLIENT_COPY);
  try {
    const cookie = await sessionCookie(url);
    const pages: PageFigures[] = [];
    const medians: Result[] = [];
    for (const page of audited) {
      const { figures, lhr } = await auditPage(page, url, cookie);
      pages.push(figures);
      medians.push(lhr);
    }
    const [first] = medians;
    return {
      date: new Date(),
      chromium: chromiumVersion(),
      lighthouse: first.lighthouseVersion,
      benchmarkIndexes: medians.map((lhr) => Math.round(lhr.environment.benchmarkIndex)),
      throttling: throttlingOf(first),
      loadAverage: loadavg()[0],
      build,
      pages,
    };
  } finally {
    await app.close();
  }
}

// ---- bench/results.md ------------------------------------------------------------------------

const TARGETS = { performance: 90, accessibility: 100, bestPractices: 100 };
const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const pageName = ({ path, signedIn }: PageFigures) => `\`${path}\` ${signedIn ? 'signed in' : 'signed out'}`;

export function lighthouseTable({ pages }: LighthouseFigures): string {
  const cells = (page: PageFigures) => {
    const run = page.median;
    return [
      pageName(page),
      run.performance,
      run.accessibility,
      run.bestPractices,
      ms(run.fcpMs),
      ms(run.lcpMs),
      ms(run.tbtMs),
      run.cls.toFixed(3),
      ms(run.speedIndexMs),
      page.performanceScores.join(', '),
    ];
  };
  return [
    '| Page | Performance | Accessibility | Best practices | FCP | LCP | TBT | CLS | Speed Index | Performance of each run |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...pages.map((page) => `| ${cells(page).join(' | ')} |`),
  ].join('\n');
}

/** Performance ≥ 90, accessibility 100 and best practices 100 on each page. */
export function lighthouseGoals({ pages }: LighthouseFigures): Goal[] {
  return pages.flatMap((page) => [
    {
      target: `${pageName(page)}: performance ≥ ${TARGETS.performance}`,
      observed: String(page.median.performance),
      met: page.median.performance >= TARGETS.performance,
    },
    {
      target: `${pageName(page)}: accessibility ${TARGETS.accessibility}`,
      observed: String(page.median.accessibility),
      met: page.median.accessibility >= TARGETS.accessibility,
    },
    {
      target: `${pageName(page)}: best practices ${TARGETS.bestPractices}`,
      observed: String(page.median.bestPractices),
      met: page.median.bestPractices >= TARGETS.bestPractices,
    },
  ]);
}

/** One line per audit that cost a median run points, with what it found. */
function failingLines({ pages }: LighthouseFigures): string {
  const lines = pages.flatMap((page) =>
    page.median.failing.map(({ category, id, title, weight, found }) => {
      const shown = found.slice(0, 3).map((text) => `\`${text.replaceAll('`', "'")}\``);
      const more = found.length > 3 ? `, and ${found.length - 3} more` : '';
      return `- ${pageName(page)}, ${category} (weight ${weight}): \`${id}\` ${title}${shown.length ? ` — ${shown.join('; ')}${more}` : ''}`;
    }),
  );
  return lines.length ? lines.join('\n') : 'None.';
}

export function lighthouseSection(figures: LighthouseFigures): string {
  return `## Lighthouse

Written by \`npm run bench\` or \`npm run bench -- --lighthouse-only\` (bench/lighthouse.ts).

- Date: ${figures.date.toISOString()}; 1-minute load average at the end ${figures.loadAverage.toFixed(1)} on ${availableParallelism()} CPUs; Lighthouse's benchmark index ${figures.benchmarkIndexes.join(', ')} (the median runs)
- Browser: Chromium ${figures.chromium}, \`--headless=new --no-sandbox\`, a fresh one (and profile) per run from chrome-launcher; Lighthouse ${figures.lighthouse}, its default config: ${figures.throttling}
- Build: dist/ of ${figures.build.builtAt.toISOString()} (entry \`${figures.build.entry}\`), built only when missing, served from a copy by \`buildApp\` on 127.0.0.1 over a fresh SQLite file with the demo data and ${CACHED_ITEMS.toLocaleString('en-US')} items
- Method: categories performance, accessibility and best practices, ${RUNS} runs per page; the row is the median run by performance score, whose whole report is kept in bench/.data/ (${figures.pages.map((page) => page.reportFile).join(', ')}). Signed in = the admin's session cookie from \`POST /api/auth/login\` in Lighthouse's \`extraHeaders\`, and business ${BUSINESS_ID} in localStorage (\`business_id\`, set by puppeteer-core from \`/api/health\`), nothing else kept. Each run must end on the page asked for, with the app's API answering as signed in (or out)

${lighthouseTable(figures)}

Audits that cost the median runs accessibility or best-practices points:

${failingLines(figures)}

${goalsTable(lighthouseGoals(figures))}
`;
}
