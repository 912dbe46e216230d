import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { APP_CONFIG, BUSINESS_ID, DATABASE_PATH, ITEM_COUNT } from './bench-database';

/**
 * One benchmark server, in a process of its own so that it never shares an event loop with
 * autocannon: `node --import tsx bench/serve.ts hello|raw|bodega|raw-pg|bodega-pg|bodega-heavy|bodega-costing`. It listens on a
 * free loopback port, prints `listening <url>`, and exits when its parent closes stdin (even if the
 * parent died). The `-pg` servers read the PostgreSQL database that bench/postgres.ts seeded and
 * names to its children in BENCH_POSTGRES_URL; `bodega-heavy` the one bench/heavy.ts made, named in BENCH_HEAVY_URL;
 * `bodega-costing` the one bench/costing.ts made, named in BENCH_COSTING_URL (started by it, with or without costing).
 */

/** The framework's ceiling. */
function helloServer(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  return app;
}

/** A raw server's answer: the page's rows and the list's meta for a total given, not counted. */
function rawAnswer(data: unknown[], total: number) {
  return { data, meta: { total, per_page: 15, current_page: 1, last_page: Math.ceil(total / 15), from: 1, to: data.length } };
}

/** The database + JSON ceiling: the list's rows from one prepared statement, with a constant total. */
function rawServer(): FastifyInstance {
  const db = new SQLite(DATABASE_PATH);
  const page = db.prepare('select * from items where business_id = ? and deleted_at is null order by id desc limit 15');
  const app = Fastify({ logger: false });
  app.addHook('onClose', async () => db.close());
  app.get('/raw/items', async () => rawAnswer(page.all(BUSINESS_ID), ITEM_COUNT));
  return app;
}

/** The bench database on PostgreSQL, as bench/postgres.ts names it to the servers it starts. */
function postgresUrl(): string {
  const url = process.env.BENCH_POSTGRES_URL;
  if (!url) throw new Error('BENCH_POSTGRES_URL is not set: `npm run bench -- --postgres` sets it for the servers it starts.');
  return url;
}

/**
 * raw on PostgreSQL: the same page through a pg Pool as large as the app's, each connection
 * preparing the statement once; the total is counted once, at start.
 */
async function rawPostgresServer(): Promise<FastifyInstance> {
  const pool = new pg.Pool({ connectionString: postgresUrl(), max: 10 });
  const counted = await pool.query<{ total: number }>(
    'select count(*)::int as total from items where business_id = $1 and deleted_at is null',
    [BUSINESS_ID],
  );
  const total = counted.rows[0].total;
  const app = Fastify({ logger: false });
  app.addHook('onClose', () => pool.end());
  app.get('/raw/items', async () => {
    const page = await pool.query({
      name: 'raw-page',
      text: 'select * from items where business_id = $1 and deleted_at is null order by id desc limit 15',
      values: [BUSINESS_ID],
    });
    return rawAnswer(page.rows, total);
  });
  return app;
}

/** The database bench/heavy.ts made and names to the server it starts in BENCH_HEAVY_URL. */
function heavyUrl(): string {
  const url = process.env.BENCH_HEAVY_URL;
  if (!url) throw new Error('BENCH_HEAVY_URL is not set: `npm run bench -- --heavy-only` sets it for the server it starts.');
  return url;
}

/** The database bench/costing.ts made and names to the servers it starts in BENCH_COSTING_URL. */
function costingUrl(): string {
  const url = process.env.BENCH_COSTING_URL;
  if (!url) throw new Error('BENCH_COSTING_URL is not set: `npm run bench -- --costing-only` sets it for the servers it starts.');
  return url;
}

async function serverOf(kind: string): Promise<FastifyInstance> {
  if (kind === 'hello') return helloServer();
  if (kind === 'raw') return rawServer();
  if (kind === 'bodega') return buildApp(APP_CONFIG);
  if (kind === 'raw-pg') return rawPostgresServer();
  if (kind === 'bodega-pg') return buildApp({ ...APP_CONFIG, database: { url: postgresUrl() } });
  if (kind === 'bodega-heavy') return buildApp({ ...APP_CONFIG, database: { url: heavyUrl() } });
  if (kind === 'bodega-costing') return buildApp({ ...APP_CONFIG, database: { url: costingUrl() } });
  throw new Error(`Unknown server "${kind}": expected hello, raw, bodega, raw-pg, bodega-pg, bodega-heavy or bodega-costing.`);
}

const app = await serverOf(process.argv[2] ?? '');
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdin.on('end', () => void app.close().then(() => process.exit(0)));
process.stdin.resume();
console.log(`listening ${url}`);
