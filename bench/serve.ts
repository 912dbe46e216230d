import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { APP_CONFIG, BUSINESS_ID, DATABASE_PATH, ITEM_COUNT } from './bench-database';

/**
 * One benchmark server, in a process of its own so that it never shares an event loop with
 * autocannon: `node --import tsx bench/serve.ts hello|raw|bodega`. It listens on a free loopback
 * port, prints `listening <url>`, and exits when its parent closes stdin (even if the parent died).
 */

/** The framework's ceiling. */
function helloServer(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  return app;
}

/** The database + JSON ceiling: the list's rows from one prepared statement, with a constant total. */
function rawServer(): FastifyInstance {
  const db = new SQLite(DATABASE_PATH);
  const page = db.prepare('select * from items where business_id = ? and deleted_at is null order by id desc limit 15');
  const app = Fastify({ logger: false });
  app.addHook('onClose', async () => db.close());
  app.get('/raw/items', async () => {
    const data = page.all(BUSINESS_ID);
    return {
      data,
      meta: { total: ITEM_COUNT, per_page: 15, current_page: 1, last_page: Math.ceil(ITEM_COUNT / 15), from: 1, to: data.length },
    };
  });
  return app;
}

async function serverOf(kind: string): Promise<FastifyInstance> {
  if (kind === 'hello') return helloServer();
  if (kind === 'raw') return rawServer();
  if (kind === 'bodega') return buildApp(APP_CONFIG);
  throw new Error(`Unknown server "${kind}": expected hello, raw or bodega.`);
}

const app = await serverOf(process.argv[2] ?? '');
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdin.on('end', () => void app.close().then(() => process.exit(0)));
process.stdin.resume();
console.log(`listening ${url}`);
