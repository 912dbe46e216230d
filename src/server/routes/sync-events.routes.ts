import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { nowIso } from '../db/dialect';
import type { Db } from '../db/scope';
import { scopeOf } from '../plugins/auth';
import { ChangeFeed } from '../sync/change-feed';
import { schedulePruning, type PruneSchedule } from '../sync/prune';
import { bytesAnswer, refusals } from './responses';
import { resourcesOf } from './sync.routes';

/**
 * Live updates: `GET /api/sync/events` keeps a `text/event-stream` answer open while a device is
 * online, and says when its working set changed, so it pulls its delta (`/api/sync/changes`) at
 * once rather than at its next look:
 *   event: ready     data: {}                                   listening from now: pull once
 *   event: changed   data: {"resources":["items","stocks"]}     these changed: pull again
 *   : keep-alive                                                every 20 s, so proxies keep it open
 * Only resource names, of the caller's business, that the caller may view (the rule of
 * `/api/sync`); what changed, and whether it is at the caller's places, the delta tells. The
 * device reads it with fetch(), so the session cookie and `Business-ID` go as on every call.
 *
 * The answer is written to the socket as it comes (the reply is hijacked: no hook runs on it,
 * so @fastify/compress never holds it back to fill a compressed block). The app's feed
 * (`sync/change-feed.ts`) reads the shared log, so a change through any instance is told here.
 * Every 20 s the stream also checks its session is still signed in to the business, and ends
 * when it is not. When the app closes, every stream ends first, so a stop is not held up by
 * devices listening; a device reconnects to another instance, or when this one is back.
 *
 * The plugin also keeps the change log bounded while the app runs (`sync/prune.ts`).
 */

/** A comment this often keeps proxies (nginx reads for 300 s) and the device's own watch from taking the stream for dead. */
export const KEEP_ALIVE_MS = 20_000;
/** A device that reads nothing while this much waits for it is let go: it reconnects when it can read again. */
const MOST_UNREAD = 64 * 1024;

/** Whether the session still holds a live membership of the business: a signed-out device stops hearing. */
async function stillSignedIn(db: Db, tokenHash: string, businessId: number): Promise<boolean> {
  const { rows } = await sql<{ signed_in: number }>`
    select 1 as signed_in from sessions s
    join memberships m on m.user_id = s.user_id and m.business_id = ${businessId} and m.deleted_at is null
    join businesses b on b.id = m.business_id and b.deleted_at is null
    where s.token_hash = ${tokenHash} and s.expires_at > ${nowIso()}`.execute(db);
  return rows.length > 0;
}

export async function syncEventsRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const feed = new ChangeFeed(app.db, app.log);
  /** What ends each open stream, resolving once its connection is closed. */
  const open = new Set<() => Promise<void>>();
  let pruning: PruneSchedule | undefined;

  app.addHook('onReady', async () => void (pruning = schedulePruning(app.db, app.log)));
  // Before the server stops listening and waits for its connections: the streams are ended first
  // (their connections closed, or a second gone by).
  app.addHook('preClose', async () => {
    let waited: NodeJS.Timeout | undefined;
    const aSecond = new Promise<void>((resolve) => (waited = setTimeout(resolve, 1000)));
    await Promise.race([Promise.all([...open].map((end) => end())), aSecond]);
    clearTimeout(waited);
    await feed.close();
    await pruning?.stop();
  });

  routes.get(
    '/api/sync/events',
    {
      config: { access: 'business' },
      schema: {
        tags: ['sync'],
        summary: "Live updates: which resources of the user's working set changed, as they change",
        response: {
          200: bytesAnswer(
            String,
            'Server-Sent Events, kept open: `ready` once listening, then `changed` with {"resources": [names]} ' +
              'whenever those resources changed in the business (pull /api/sync/changes), and a comment every 20 s',
            ['text/event-stream'],
          ),
          ...refusals(401, 403),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const viewed = new Set(resourcesOf(scope));
      reply.hijack();
      const raw: ServerResponse = reply.raw;
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        // Its connection is not used again: the stream ends only when the device or the server goes.
        connection: 'close',
      });
      // HEAD (which Fastify answers with the GET's handler) learns what the answer would be, and no more.
      if (request.method === 'HEAD') return void raw.end();

      let ended = false;
      let stopListening: (() => void) | undefined;
      const closed = new Promise<void>((resolve) => raw.once('close', resolve));
      const end = async () => {
        if (!ended) {
          ended = true;
          open.delete(end);
          clearInterval(keepAlive);
          stopListening?.();
          raw.end();
        }
        await closed;
      };
      const write = (text: string) => {
        if (ended) return;
        if (raw.writableLength > MOST_UNREAD) void end();
        else raw.write(text);
      };
      raw.once('close', () => void end());
      raw.on('error', () => void end());
      open.add(end);
      const tokenHash = scope.sessionTokenHash;
      const keepAlive = setInterval(() => {
        write(': keep-alive\n\n');
        if (!tokenHash) return;
        stillSignedIn(app.db, tokenHash, scope.businessId).then(
          (signedIn) => void (signedIn || end()),
          () => {}, // the database is away a moment: the stream stays, and the next look decides
        );
      }, KEEP_ALIVE_MS);
      keepAlive.unref();

      try {
        stopListening = await feed.listen(scope.businessId, (resources) => {
          const names = [...resources].filter((name) => viewed.has(name));
          if (names.length > 0) write(`event: changed\ndata: ${JSON.stringify({ resources: names })}\n\n`);
        });
      } catch {
        // The app is closing: nothing to listen to.
        return void end();
      }
      if (ended) return void stopListening();
      write('event: ready\ndata: {}\n\n');
    },
  );
}
