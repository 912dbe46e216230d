import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../tests/support/test-app';
import { composeEngine } from './composition';
import { openDatabase } from './db/dialect';
import { auditDatabase } from './documents/audit';

/**
 * The real server, stopped with SIGTERM in the middle of a burst of writes over keep-alive
 * connections: it exits 0 without waiting out idle connections, every write it answered with
 * success is in the database, and every other write is there whole or not at all.
 */

const PASSWORD = 'stop-test-password';
const WRITES = 200;
const CONNECTIONS = 8;
const directory = mkdtempSync(join(tmpdir(), 'bodega-stop-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Outcome {
  status?: number;
  body?: any;
  headers?: http.IncomingHttpHeaders;
  /** The connection failed or closed before an answer came. */
  error?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A database of its own for the child: a SQLite file, or a throwaway PostgreSQL database (the child works in `public`). */
async function childDatabase(kind: 'sqlite' | 'postgres'): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') return { url: `file:${join(directory, `${randomBytes(6).toString('hex')}.sqlite`)}`, drop: async () => {} };
  const admin = process.env.TEST_DATABASE_URL as string;
  const name = `bodega_stop_${randomBytes(6).toString('hex')}`;
  const asAdmin = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await asAdmin(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(`drop database ${name} with (force)`) };
}

function startServer(url: string, port: number): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn('node', ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: '0', ADMIN_PASSWORD: PASSWORD, LOG: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

// The audit reads the engine's stores, composed here without an app.
composeEngine();

describe.each(databaseKinds)('a graceful stop on %s', (kind) => {
  it('finishes what is in flight, refuses the rest, and leaves no half-written document', { timeout: 120_000 }, async () => {
    const database = await childDatabase(kind);
    const port = await freePort();
    const server = startServer(database.url, port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    // A client of its own, whose one write is in flight when the signal comes and who then keeps its connection.
    const lone = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let cookie = '';
    let businessId = '';
    /** Sends a JSON request; `held` bytes of the body wait until `release()`, so that it is in flight meanwhile. */
    const start = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, via = agent, held = 0) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      let request!: http.ClientRequest;
      const outcome = new Promise<Outcome>((resolve) => {
        request = http.request(
          {
            host: '127.0.0.1',
            port,
            path,
            method,
            agent: via,
            headers: {
              'x-requested-with': 'XMLHttpRequest',
              ...(cookie ? { cookie } : {}),
              ...(businessId ? { 'business-id': businessId } : {}),
              ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
              ...headers,
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk) => (text += String(chunk)));
            response.on('end', () =>
              resolve({ status: response.statusCode, body: text ? JSON.parse(text) : undefined, headers: response.headers }),
            );
            response.on('error', (error) => resolve({ error: error.message }));
          },
        );
        request.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
        request.write(payload.slice(0, payload.length - held));
        if (held === 0) request.end();
      });
      return { outcome, release: () => request.end(payload.slice(payload.length - held)) };
    };
    const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      start(method, path, body, headers).outcome;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    try {
      // Up: the health check answers once the server listens.
      const deadline = Date.now() + 60_000;
      while ((await send('GET', '/api/health')).status !== 200) {
        if (Date.now() > deadline) throw new Error(`The server did not start: ${server.stderr()}`);
        await pause(200);
      }
      const login = await send('POST', '/api/auth/login', { email: 'admin@example.com', password: PASSWORD });
      expect(login.status).toBe(200);
      cookie = String(login.headers?.['set-cookie']).split(';')[0];
      businessId = String(login.body.user.business_id);

      // What purchase orders need: a supplier, a warehouse, a unit and two items.
      const types = await send('GET', '/api/contact-types');
      const supplierType = types.body.data.find((type: { name: string }) => type.name === 'Supplier');
      const supplier = await send('POST', '/api/contacts', { contact_type_id: supplierType.id, name: 'Stop Supplier' });
      const warehouse = await send('POST', '/api/warehouses', { code: 'STOP', name: 'Stop Warehouse' });
      const unit = await send('POST', '/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' });
      const items = [
        await send('POST', '/api/items', { sku: 'STOP-1', name: 'Stop Item One', unit_of_measurement_id: unit.body.data.id }),
        await send('POST', '/api/items', { sku: 'STOP-2', name: 'Stop Item Two', unit_of_measurement_id: unit.body.data.id }),
      ];
      for (const made of [supplier, warehouse, unit, ...items]) expect(made.status, JSON.stringify(made.body)).toBe(201);

      // The lone client's write: headers and most of its body sent, the rest held back past the signal.
      expect((await start('GET', '/api/health', undefined, {}, lone).outcome).status).toBe(200);
      const inFlight = start('POST', '/api/brands', { name: 'stop-lone' }, { 'idempotency-key': 'stop-lone' }, lone, 2);
      await pause(200);

      // The burst: brands and three-line purchase orders, alternating, each with its Idempotency-Key.
      const tag = (index: number) => `stop-${String(index).padStart(3, '0')}`;
      const write = (index: number) =>
        index % 2 === 0
          ? send('POST', '/api/brands', { name: tag(index) }, { 'idempotency-key': tag(index) })
          : send(
              'POST',
              '/api/purchase-orders',
              {
                contact_id: supplier.body.data.id,
                warehouse_id: warehouse.body.data.id,
                date: '2026-11-20',
                notes: tag(index),
                lines: [0, 1, 0].map((which, position) => ({
                  item_id: items[which].body.data.id,
                  unit_of_measurement_id: unit.body.data.id,
                  quantity: position + 1,
                  unit_price: 100 * (position + 1),
                })),
              },
              { 'idempotency-key': tag(index) },
            );
      let answered = 0;
      let stoppedAt = 0;
      const outcomes = await Promise.all(
        Array.from({ length: WRITES }, async (_, index) => {
          const outcome = await write(index);
          if (++answered === WRITES / 4) {
            stoppedAt = performance.now();
            server.child.kill('SIGTERM');
            setTimeout(inFlight.release, 300);
          }
          return outcome;
        }),
      );
      const loneOutcome = await inFlight.outcome;

      const code = await server.exited;
      const stopMs = performance.now() - stoppedAt;
      expect(code, server.stderr()).toBe(0);
      // The lone client's idle keep-alive connection did not hold the stop (Fastify keeps one 72 s), nor did the deadline (10 s) end it.
      expect(stopMs).toBeLessThan(10_000);
      expect(loneOutcome.status, JSON.stringify(loneOutcome)).toBe(201);

      const succeeded = outcomes.filter((outcome) => outcome.status === 201);
      const refused = outcomes.filter((outcome) => outcome.status !== undefined && outcome.status !== 201);
      const unanswered = outcomes.filter((outcome) => outcome.status === undefined);
      // The stop came in the middle: some writes were done and some were not; those not done were
      // refused with 503 (arriving while the server closed) or found the connection closed.
      expect(succeeded.length).toBeGreaterThanOrEqual(WRITES / 4);
      expect(succeeded.length).toBeLessThan(WRITES);
      expect(new Set(refused.map((outcome) => outcome.status))).toEqual(new Set(refused.length > 0 ? [503] : []));
      expect(unanswered.every((outcome) => outcome.error !== undefined)).toBe(true);

      const db = openDatabase({ url: database.url }).db;
      try {
        const brands = new Set(
          (await db.selectFrom('brands').select('name').where('name', 'like', 'stop-%').execute()).map((row) => row.name),
        );
        const orders = await db.selectFrom('purchase_orders').select(['id', 'notes', 'total']).execute();
        const lines = await db.selectFrom('document_lines').select(['document_id']).where('document_type', '=', 'purchase-order').execute();
        const ordersByTag = new Map(orders.map((order) => [order.notes, order]));
        const keys = new Set((await db.selectFrom('idempotency_keys').select('key').execute()).map((row) => row.key));
        const present = (index: number) => (index % 2 === 0 ? brands.has(tag(index)) : ordersByTag.has(tag(index)));

        expect(brands.has('stop-lone')).toBe(true);
        outcomes.forEach((outcome, index) => {
          if (outcome.status === 201) expect(present(index), `${tag(index)} was answered 201`).toBe(true);
          if (outcome.status === 503) expect(present(index), `${tag(index)} was answered 503`).toBe(false);
          // Whatever is there is whole: the record with the answer kept for its key, an order with its three lines.
          expect(keys.has(tag(index)), tag(index)).toBe(present(index));
        });
        for (const order of orders) expect(lines.filter((line) => line.document_id === order.id)).toHaveLength(3);
        expect(new Set(orders.map((order) => order.total)).size).toBe(1);
        expect(await auditDatabase(db)).toEqual([]);
      } finally {
        await db.destroy();
      }
    } finally {
      agent.destroy();
      lone.destroy();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
      await database.drop();
    }
  });
});
