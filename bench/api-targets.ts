import { SEARCH_COUNT_LIMIT } from '../src/server/resources/record-service';
import { ADMIN, BUSINESS_ID, CLERK, COMMON_TERM, PLACE_COUNT, SELECTIVE_TERM } from './bench-database';
import { backgroundLoad, LOAD, measure, startServer, type ServerKind } from './load';
import type { Measured } from './report';

/**
 * The API benchmarks' requests, the answers they must get and their measuring, on whichever
 * database the servers read: SQLite (run.ts) or PostgreSQL (postgres.ts).
 */

export interface Target {
  name: string;
  server: ServerKind;
  path: string;
  /** Who asks: the admin (every place), or the clerk kept to one place of many. */
  as?: 'admin' | 'clerk';
  /** Why the answer is not the one measured, or undefined when it is. */
  problem(body: any): string | undefined;
}

/** What the answers are checked against: the items of the business, the terms' matches and the item viewed. */
export interface BenchData {
  itemCount: number;
  selectiveMatches: number;
  commonMatches: number;
  viewId: number;
}

/** The servers a run loads on one database: its raw ceiling and Bodega itself. */
export interface Servers {
  raw: ServerKind;
  bodega: ServerKind;
}

export const SQLITE_SERVERS: Servers = { raw: 'raw', bodega: 'bodega' };

/** The framework's ceiling, the same whatever the database. */
export const HELLO: Target = {
  name: 'hello',
  server: 'hello',
  path: '/hello',
  problem: (body) => (body.hello === 'world' ? undefined : 'not {hello: "world"}'),
};

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

/** The newest 15 of `itemCount` items, as both raw and the list must return them. */
function newestPageProblem(itemCount: number) {
  return (body: any): string | undefined => {
    if (body.meta?.total !== itemCount) return `meta.total is ${body.meta?.total}, expected ${itemCount}`;
    const ids = (body.data ?? []).map((row: { id: number }) => row.id).join(',');
    const expected = Array.from({ length: 15 }, (_, index) => itemCount - index).join(',');
    return ids === expected ? undefined : `ids ${ids.slice(0, 60)}…, expected ${expected.slice(0, 60)}…`;
  };
}

/** The list and the search loaded as a user kept to one place of many: within 10 % of the admin's. */
export const KEPT_LIST = `bodega list, user kept to 1 of ${PLACE_COUNT} places`;
export const KEPT_SEARCH = `bodega search, user kept to 1 of ${PLACE_COUNT} places`;

/** The raw page, then Bodega's list, searches and view, on `servers`. */
export function targetsFor(data: BenchData, servers: Servers): Target[] {
  return [
    { name: 'raw', server: servers.raw, path: '/raw/items', problem: newestPageProblem(data.itemCount) },
    { name: 'bodega list', server: servers.bodega, path: '/api/items', problem: newestPageProblem(data.itemCount) },
    {
      name: 'bodega search',
      server: servers.bodega,
      path: searchPath(SELECTIVE_TERM),
      problem: searchProblem(SELECTIVE_TERM, data.selectiveMatches),
    },
    {
      name: 'bodega search, common term',
      server: servers.bodega,
      path: searchPath(COMMON_TERM),
      problem: searchProblem(COMMON_TERM, data.commonMatches),
    },
    {
      name: KEPT_LIST,
      server: servers.bodega,
      path: '/api/items',
      as: 'clerk',
      problem: newestPageProblem(data.itemCount),
    },
    {
      name: KEPT_SEARCH,
      server: servers.bodega,
      path: searchPath(SELECTIVE_TERM),
      as: 'clerk',
      problem: searchProblem(SELECTIVE_TERM, data.selectiveMatches),
    },
    {
      name: 'bodega view',
      server: servers.bodega,
      path: `/api/items/${data.viewId}`,
      problem: (body) => (body.data?.id === data.viewId ? undefined : `data.id is ${body.data?.id}, expected ${data.viewId}`),
    },
  ];
}

/** Bodega's servers answer only a signed-in user; the ceilings answer anyone. */
const signsIn = (kind: ServerKind) => kind === 'bodega' || kind === 'bodega-pg';

/** The seeded admin's (or the clerk's) session cookie, as the sign-in form gets it from POST /api/auth/login. */
export async function sessionCookie(baseUrl: string, who: 'admin' | 'clerk' = 'admin'): Promise<string> {
  const { email, password } = who === 'clerk' ? CLERK : ADMIN;
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password }),
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('bodega_session='));
  if (response.status !== 200 || !session) throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  return session.split(';')[0];
}

/**
 * The session cookie (`name=value`, as sessionCookie gives it) as a browser keeps it for the app at
 * `baseUrl`: set in a benchmark's browser, every request of the app carries it, its workers' too.
 */
export function browserCookie(cookie: string, baseUrl: string) {
  const at = cookie.indexOf('=');
  return { name: cookie.slice(0, at), value: cookie.slice(at + 1), domain: new URL(baseUrl).hostname, path: '/', httpOnly: true };
}

/** Signs in as the seeded admin (or the clerk) the way the web app does, for the session cookie and the business. */
async function signedInHeaders(baseUrl: string, who: 'admin' | 'clerk' = 'admin'): Promise<Record<string, string>> {
  return { cookie: await sessionCookie(baseUrl, who), 'business-id': String(BUSINESS_ID) };
}

/** One request before the load, so a wrong answer fails the run instead of being measured. */
async function checkAnswer(target: Target, url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  const problem = response.status === 200 ? target.problem(JSON.parse(text)) : `status ${response.status}: ${text.slice(0, 300)}`;
  if (problem) throw new Error(`${target.name} (${target.path}) answered wrongly: ${problem}`);
}

/** The target's server started alone, its answer checked, then loaded. */
export async function benchmark(target: Target): Promise<Measured> {
  const server = await startServer(target.server);
  try {
    const headers = signsIn(target.server) ? await signedInHeaders(server.url, target.as) : {};
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

export async function benchmarkListBesideSearches(data: BenchData, servers: Servers): Promise<Measured> {
  const server = await startServer(servers.bodega);
  try {
    const headers = await signedInHeaders(server.url);
    const list = targetsFor(data, servers).find((target) => target.name === 'bodega list')!;
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

/** One search timed with its count counted afresh: after a write, which ends any count kept. */
export interface AfreshSearch {
  term: string;
  matches: number;
  timesMs: number[];
}

const AFRESH_RUNS = 30;

/**
 * A search's count is kept while the database does not change (src/server/resources/search-counts.ts),
 * so under the load above, where nothing writes, every search after the first reads only its page.
 * What a search costs when it counts afresh — the first after any write — is timed here: AFRESH_RUNS
 * searches of each term one after another, each after `touch` wrote to the database (past the
 * server, as another instance or a script would), each timed from sending to its last byte.
 */
export async function searchesAfresh(data: BenchData, servers: Servers, touch: () => Promise<void>): Promise<AfreshSearch[]> {
  const server = await startServer(servers.bodega);
  try {
    const headers = await signedInHeaders(server.url);
    const searched: AfreshSearch[] = [];
    for (const [term, matches] of [
      [SELECTIVE_TERM, data.selectiveMatches],
      [COMMON_TERM, data.commonMatches],
    ] as const) {
      const target = { name: term, server: servers.bodega, path: searchPath(term), problem: searchProblem(term, matches) };
      await checkAnswer(target, `${server.url}${target.path}`, headers);
      const timesMs: number[] = [];
      for (let run = 0; run < AFRESH_RUNS; run++) {
        await touch();
        const started = performance.now();
        const response = await fetch(`${server.url}${target.path}`, { headers });
        const problem = response.status === 200 ? target.problem(await response.json()) : `status ${response.status}`;
        timesMs.push(performance.now() - started);
        if (problem) throw new Error(`A search of "${term}" counted afresh answered wrongly: ${problem}`);
      }
      searched.push({ term, matches, timesMs });
      console.log(`  "${term}" counted afresh: median ${Math.round(median(timesMs))} ms, max ${Math.round(Math.max(...timesMs))} ms`);
    }
    return searched;
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One list timed read afresh (each after a write) and answered from what was kept (nothing written between). */
export interface AfreshList {
  name: string;
  path: string;
  afreshMs: number[];
  keptMs: number[];
}

/**
 * A list's answer is kept while the database does not change (src/server/routes/kept-lists.ts),
 * so under the load above, where nothing writes, every list after the first is a kept answer.
 * What a list costs read afresh — the first after any write — is timed here: AFRESH_RUNS of each
 * list one after another, each after `touch` wrote to the database (past the server, as another
 * instance or a script would); then as many with nothing written between, answered from what was
 * kept. Each timed from sending to its last byte.
 */
export async function listsAfresh(data: BenchData, servers: Servers, touch: () => Promise<void>): Promise<AfreshList[]> {
  const server = await startServer(servers.bodega);
  try {
    const timed: AfreshList[] = [];
    for (const target of targetsFor(data, servers).filter((candidate) => ['bodega list', KEPT_LIST].includes(candidate.name))) {
      const headers = await signedInHeaders(server.url, target.as);
      const url = `${server.url}${target.path}`;
      await checkAnswer(target, url, headers);
      const timedRun = async (write: boolean) => {
        if (write) await touch();
        const started = performance.now();
        const response = await fetch(url, { headers });
        const problem = response.status === 200 ? target.problem(await response.json()) : `status ${response.status}`;
        const ms = performance.now() - started;
        if (problem) throw new Error(`${target.name} ${write ? 'read afresh' : 'kept'} answered wrongly: ${problem}`);
        return ms;
      };
      const afreshMs: number[] = [];
      for (let run = 0; run < AFRESH_RUNS; run++) afreshMs.push(await timedRun(true));
      const keptMs: number[] = [];
      for (let run = 0; run < AFRESH_RUNS; run++) keptMs.push(await timedRun(false));
      timed.push({ name: target.name, path: target.path, afreshMs, keptMs });
      console.log(
        `  ${target.name} read afresh: median ${median(afreshMs).toFixed(1)} ms, max ${Math.max(...afreshMs).toFixed(1)} ms; ` +
          `kept: median ${median(keptMs).toFixed(1)} ms`,
      );
    }
    return timed;
  } finally {
    await server.stop();
  }
}

/** The lists read afresh as a table, for information (no target: the targets are under load). */
export function listsAfreshTable(lists: AfreshList[]): string {
  const ms = (value: number) => value.toFixed(1);
  return [
    `For information, a list read afresh (\`listsAfresh\`, bench/api-targets.ts): a list's answer is kept while the database does not change, so under the load above, where nothing writes, each list after the first is the answer kept. Here ${AFRESH_RUNS} lists one after another, each after a write to the database past the server, so each is read again; then ${AFRESH_RUNS} with nothing written between, answered from what was kept; from sending to the last byte, one at a time:`,
    '',
    '| List | request | runs | afresh median ms | afresh max ms | kept median ms | kept max ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...lists.map(
      (row) =>
        `| ${row.name} | \`GET ${row.path}\` | ${row.afreshMs.length} | ${ms(median(row.afreshMs))} | ${ms(Math.max(...row.afreshMs))} | ${ms(median(row.keptMs))} | ${ms(Math.max(...row.keptMs))} |`,
    ),
  ].join('\n');
}

/** The afresh searches as a table, for information (no target: the targets are under load). */
export function afreshTable(searched: AfreshSearch[]): string {
  const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')}`;
  return [
    `For information, a search counted afresh (\`searchesAfresh\`, bench/api-targets.ts): a search's count is kept while the database does not change, so under the load above, where nothing writes, each search after the first reads its page only. Here ${AFRESH_RUNS} searches of each term one after another, each after a write to the database past the server, so each counts again; from sending to the last byte, one at a time:`,
    '',
    '| Search | matches | runs | median ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...searched.map(
      (row) =>
        `| \`${row.term}\` | ${row.matches.toLocaleString('en-US')} | ${row.timesMs.length} | ${ms(median(row.timesMs))} | ${ms(Math.max(...row.timesMs))} |`,
    ),
  ].join('\n');
}
