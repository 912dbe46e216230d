import { readFileSync, rmSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { browserCookie, sessionCookie } from './api-targets';
import { BUSINESS_ID, DATA_DIR } from './bench-database';
import { CHROMIUM, startServer } from './browser';

/**
 * Where a page's load spends the main thread: `npx tsx bench/trace.ts /counter` loads the page of
 * the production build in dist/ (signed in as the Lighthouse runs are, except at /login) in a
 * fresh headless Chromium whose CPU is slowed four times (`RATE=1` for none), records a trace
 * for `WAIT` ms (10,000), and prints every task over 50 ms (12.5 ms at `RATE=1`, as Lighthouse counts it) with what it ran (script evaluation,
 * React's scheduler, microtasks, layout) and the paints, then the functions that took the most
 * time of their own. Build with `npx vite build --minify false --outDir /tmp/x` and set
 * `DIST=/tmp/x` to read the functions by their names. It uses the database of the Lighthouse
 * runs (bench/.data/lighthouse.sqlite): `npm run bench -- --lighthouse-page=/counter` makes it.
 * `KEEP_TRACE=1` leaves the trace in bench/.data/trace.json, to be read by other tools.
 * A diagnosis, not a benchmark: Lighthouse's figures (bench/lighthouse.ts) are the measure.
 */

const path = process.argv[2] ?? '/counter';
const rate = Number(process.env.RATE ?? 4);
const wait = Number(process.env.WAIT ?? 10_000);
/** A long task: 50 ms, as a 4× slower CPU makes a task of 12.5 ms (Lighthouse's simulation multiplies an unthrottled run's tasks so). */
const long = 50 / (4 / rate);
const traceFile = `${DATA_DIR}trace.json`;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    data?: { url?: string; functionName?: string; type?: string; documentLoaderURL?: string; isLoadingMainFrame?: boolean };
  };
}

const { app, url } = await startServer(`${DATA_DIR}lighthouse.sqlite`, process.env.DIST ?? `${process.cwd()}/dist`);
const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH ?? CHROMIUM, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 412, height: 823 });
  if (!path.startsWith('/login')) {
    await page.goto(new URL('/api/health', url).href);
    await page.evaluate((id) => localStorage.setItem('business_id', id), String(BUSINESS_ID));
    // As a cookie of the browser, not a header of the page's requests: the app's download worker sends it too.
    await browser.setCookie(browserCookie(await sessionCookie(url), url));
  }
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.tracing.start({
    path: traceFile,
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'],
  });
  await page.goto(new URL(path, url).href);
  await new Promise((resolve) => setTimeout(resolve, wait));
  await page.tracing.stop();
  const { profile } = await cdp.send('Profiler.stop');

  const events = (JSON.parse(readFileSync(traceFile, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  if (!process.env.KEEP_TRACE) rmSync(traceFile);
  const start = events.find(
    (event) =>
      event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame && event.args.data.documentLoaderURL?.endsWith(path),
  );
  if (!start) throw new Error('The trace holds no navigation.');
  const thread = (event: TraceEvent) => event.pid === start.pid && event.tid === start.tid;
  const ms = (ts: number) => Math.round((ts - start.ts) / 1000);
  for (const paint of events.filter(
    (event) => thread(event) && ['firstContentfulPaint', 'largestContentfulPaint::Candidate'].includes(event.name),
  ))
    console.log(`${ms(paint.ts)} ms ${paint.name}`);
  const slices = events.filter((event) => thread(event) && event.ph === 'X' && event.dur !== undefined);
  // The profile's samples, each at its time (the trace's clock) and in its function.
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const frameName = (id: number) => {
    const frame = nodes.get(id)!;
    return `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*\//, '')}:${frame.lineNumber + 1}`;
  };
  const samples: { ts: number; name: string; node: number }[] = [];
  let sampledAt = profile.startTime;
  profile.timeDeltas?.forEach((delta, i) => {
    sampledAt += delta;
    samples.push({ ts: sampledAt, name: frameName(profile.samples![i]), node: profile.samples![i] });
  });
  /** `TREE=1`: the functions whose calls (with what they called) took most of a task, as sampled. */
  const inclusiveWithin = (from: number, to: number) => {
    const counts = new Map<string, number>();
    let all = 0;
    for (const sample of samples) {
      if (sample.ts < from || sample.ts >= to) continue;
      all += 1;
      const seen = new Set<string>();
      for (let id: number | undefined = sample.node; id !== undefined; id = parents.get(id)) {
        const name = frameName(id);
        if (!/^\((root|program|idle|garbage collector)\)/.test(name)) seen.add(name);
      }
      for (const name of seen) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return [
      `of ${all} samples:`,
      ...[...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, Number(process.env.TREE) || 16)
        .map(([name, count]) => `${name} ×${count}`),
    ].join('\n      ');
  };
  /** The functions that took most of a task's own time, as the profile sampled them. */
  const ownWithin = (from: number, to: number) => {
    const counts = new Map<string, number>();
    for (const sample of samples)
      if (sample.ts >= from && sample.ts < to && !sample.name.startsWith('(')) counts.set(sample.name, (counts.get(sample.name) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name]) => name)
      .join(', ');
  };
  let blocking = 0;
  for (const task of slices.filter((event) => event.name === 'RunTask' && event.dur! > long * 1000)) {
    blocking += task.dur! / 1000 - long;
    const inner = slices.filter(
      (event) =>
        event !== task &&
        event.name !== 'RunTask' &&
        event.ts >= task.ts &&
        event.ts + event.dur! <= task.ts + task.dur! &&
        event.dur! > 3000,
    );
    const what = inner
      .slice(0, 8)
      .map((event) => {
        const data = event.args?.data;
        const detail = [data?.url?.replace(/.*\//, ''), data?.functionName, data?.type].filter(Boolean).join(' ');
        return `${event.name}${detail ? ` (${detail})` : ''} ${Math.round(event.dur! / 1000)}`;
      })
      .join(', ');
    console.log(`${ms(task.ts)} ms, ${Math.round(task.dur! / 1000)} ms: ${what}`);
    console.log(`    most in: ${ownWithin(task.ts, task.ts + task.dur!)}`);
    if (process.env.TREE) console.log(`    under: ${inclusiveWithin(task.ts, task.ts + task.dur!)}`);
  }
  console.log(`Beyond ${long} ms, all tasks: ${Math.round(blocking)} ms (CPU ${rate}× slower)`);

  const own = new Map<number, number>();
  profile.timeDeltas?.forEach((delta, i) => {
    const node = profile.samples![i];
    own.set(node, (own.get(node) ?? 0) + delta / 1000);
  });
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url: script, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${script.replace(/.*\//, '')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (own.get(node.id) ?? 0));
  }
  console.log('Most time of their own:');
  for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${time.toFixed(0).padStart(7)} ms ${name}`);
} finally {
  await browser.close();
  await app.close();
}
