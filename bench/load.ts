import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/** Starting the servers of serve.ts as child processes, and loading them with autocannon. */

export type ServerKind = 'hello' | 'raw' | 'bodega' | 'raw-pg' | 'bodega-pg' | 'bodega-heavy';

export interface Server {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

const SERVE_SCRIPT = fileURLToPath(new URL('serve.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const running = new Set<ChildProcess>();

// Closing stdin lets a child close its database cleanly; a kill is the fallback on any way out.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startServer(kind: ServerKind): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE_SCRIPT, kind], { stdio: ['pipe', 'pipe', 'inherit'] });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const stop = async () => {
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop().then(() => reject(error));
    };
    const exitedEarly = (code: number | null) => fail(new Error(`The ${kind} server exited (code ${code}) before it was ready.`));
    const timer = setTimeout(
      () => fail(new Error(`The ${kind} server did not start within ${START_TIMEOUT_MS / 1000} s.`)),
      START_TIMEOUT_MS,
    );
    child.once('exit', exitedEarly);
    // serve.ts announces itself with `listening <url>`.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const ready = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!ready) return;
      clearTimeout(timer);
      child.off('exit', exitedEarly);
      resolve({ url: ready[1], stop });
    });
  });
}

export async function stopAllServers(): Promise<void> {
  const alive = [...running].filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(alive.map((child) => new Promise<void>((resolve) => child.once('exit', () => resolve()).kill('SIGKILL'))));
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest answer. */
  maxMs: number;
  requests: number;
  /** Requests unanswered after autocannon's 10 s: counted, not fatal, since they are a finding. */
  timeouts: number;
}

function figuresOf(result: Awaited<ReturnType<typeof autocannon>>): LoadFigures {
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    timeouts: result.timeouts,
  };
}

export const LOAD = { connections: 10, warmUpSeconds: 2, seconds: 10 };

/** A short untimed warm-up (JIT, page cache, statement caches), then the measured run. */
export async function measure(url: string, headers: Record<string, string>): Promise<LoadFigures> {
  await autocannon({ url, headers, connections: LOAD.connections, duration: LOAD.warmUpSeconds });
  const result = await autocannon({ url, headers, connections: LOAD.connections, duration: LOAD.seconds });
  const failures = result.errors - result.timeouts;
  if (failures > 0 || result.non2xx > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${failures} connection errors under load.`);
  return figuresOf(result);
}

/** Other clients looping over `url` for `seconds` (started before, ended after, a measured run beside them). */
export async function backgroundLoad(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return figuresOf(result);
}
