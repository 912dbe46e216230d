import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';

/**
 * Bodega as a shop with several servers runs it: instances of the real server (`src/server/main.ts`,
 * serving the built client from `dist`) as processes of their own on one database, and a small
 * reverse proxy in front that streams every answer through as it comes (no buffering), so a live
 * feed reaches the browser as it would behind nginx with buffering off.
 */

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What the process wrote on stderr: empty unless something went wrong. */
  errors: string[];
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// A test that fails half-way leaves no server behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

/**
 * A new PostgreSQL database beside the one `url` names, with pg_trgm, for servers started as
 * processes: their `DATABASE_URL` names a database and no schema, and a database of their own
 * keeps their migration tables apart from every other suite's schemas. `drop` removes it (once
 * every server using it has stopped; connections left are ended).
 */
export async function freshPostgresDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bodega_e2e_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string, database?: string) => {
    const target = new URL(url);
    if (database) target.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: target.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  await admin('create extension if not exists pg_trgm with schema public', name);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * Starts `src/server/main.ts` with `environment` beside the defaults (a free port on 127.0.0.1,
 * no request log, a short graceful stop) and resolves once `/api/health` answers. `MIGRATE: '0'`
 * starts an instance that only checks the database is migrated, as a second server does.
 */
export async function startServerProcess(name: string, environment: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', resolve('src/server/main.ts')], {
    cwd: resolve('.'),
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG: '0', SHUTDOWN_TIMEOUT: '5', ...environment },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  const errors: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => errors.push(chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  void exited.then(() => running.delete(child));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 90_000;
  let early: number | null | undefined;
  void exited.then((code) => (early = code));
  for (;;) {
    if (early !== undefined) throw new Error(`The ${name} server exited (code ${early}) before it answered:\n${errors.join('')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The ${name} server did not answer /api/health within 90 s:\n${errors.join('')}`);
    }
    try {
      const answer = await fetch(`${url}/api/health`);
      if (answer.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  return { url, errors, stop };
}

export interface Proxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Each request passed on, as `{instance} {method} {path}`: which instance answered what. */
  passed: string[];
  /** Each chunk of an event stream (`text/event-stream`) passed on, with when (Date.now()) and which instance sent it. */
  streamed: { at: number; instance: number; text: string }[];
  close(): Promise<void>;
}

/** The cookie that says which instance a browser's requests go to (a sticky session, as load balancers keep one). */
export const INSTANCE_COOKIE = 'bodega-instance';

/**
 * A reverse proxy on a free port in front of `instances`: a request goes to the instance its
 * `bodega-instance` cookie names (1-based), else to the first. Headers are passed on as they
 * are, and the answer is written to the browser chunk by chunk as the instance sends it.
 */
export async function startProxy(instances: readonly string[]): Promise<Proxy> {
  const passed: string[] = [];
  const streamed: Proxy['streamed'] = [];
  const upstreams = instances.map((url) => new URL(url));
  const chosen = (incoming: IncomingMessage): number => {
    const match = new RegExp(`(?:^|;\\s*)${INSTANCE_COOKIE}=(\\d+)`).exec(incoming.headers.cookie ?? '');
    const at = match ? Number(match[1]) : 1;
    return at >= 1 && at <= upstreams.length ? at : 1;
  };
  const server: Server = createServer((incoming, outgoing) => {
    const instance = chosen(incoming);
    const upstream = upstreams[instance - 1];
    passed.push(`${instance} ${incoming.method} ${incoming.url}`);
    const onward = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        // Headers out at once, then every chunk as it arrives: a stream of events is not held back.
        outgoing.flushHeaders();
        const events = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
        answer.on('data', (chunk: Buffer) => {
          if (events) streamed.push({ at: Date.now(), instance, text: chunk.toString('utf8') });
          outgoing.write(chunk);
        });
        answer.on('end', () => outgoing.end());
        answer.on('error', () => outgoing.destroy());
      },
    );
    onward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end('The server behind the proxy did not answer.');
    });
    outgoing.on('close', () => onward.destroy());
    incoming.pipe(onward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    passed,
    streamed,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}
