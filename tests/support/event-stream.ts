import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Session } from './test-app';

/**
 * Reading a `text/event-stream` answer (`/api/sync/events`) over real HTTP, as a device does: an
 * answer that stays open cannot be read through `app.inject`, which waits for its end. Each event
 * is kept with the moment it arrived, for tests that measure how soon it came.
 */

export interface StreamEvent {
  event: string;
  data: string;
  /** performance.now() when its last line arrived. */
  at: number;
}

export interface EventStreamReader {
  status: number;
  headers: IncomingHttpHeaders;
  events: StreamEvent[];
  /** Comment lines (`: keep-alive`), without the colon. */
  comments: string[];
  /** The first event from index `from` on that matches, as soon as it arrives; rejects after `timeoutMs`. */
  next(match: (event: StreamEvent) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<StreamEvent>;
  /** Resolves when the server ended the answer (or the connection went). */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

/** Listens on a free port of 127.0.0.1 (once) and answers the base URL. */
export async function listening(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The headers a device sends: the session's cookie and business. */
export const sessionHeaders = (session: Session): Record<string, string> => ({
  cookie: session.cookie,
  ...(session.businessId === undefined ? {} : { 'business-id': String(session.businessId) }),
});

/** Opens the stream at `base + path`; resolves once the answer's head arrived. */
export function openEventStream(base: string, path: string, headers: Record<string, string>): Promise<EventStreamReader> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      const events: StreamEvent[] = [];
      const comments: string[] = [];
      const waiting = new Set<() => void>();
      let buffer = '';
      let ended = false;
      const ending = new Promise<void>((done) => {
        const finish = () => {
          ended = true;
          for (const wake of [...waiting]) wake();
          done();
        };
        response.once('end', finish);
        response.once('close', finish);
        response.once('error', finish);
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (data.length > 0 || event !== 'message') events.push({ event, data: data.join('\n'), at: performance.now() });
        }
        for (const wake of [...waiting]) wake();
      });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        comments,
        ended: ending,
        isEnded: () => ended,
        close: () => outgoing.destroy(),
        next(match, { from = 0, timeoutMs = 5000 } = {}) {
          return new Promise((found, missed) => {
            const look = () => {
              const hit = events.slice(from).find(match);
              if (hit) {
                clear();
                found(hit);
              } else if (ended) {
                clear();
                missed(new Error(`The stream ended without the event; it had ${JSON.stringify(events)}`));
              }
            };
            const timer = setTimeout(() => {
              clear();
              missed(new Error(`No such event within ${timeoutMs} ms; the stream had ${JSON.stringify(events)}`));
            }, timeoutMs);
            const clear = () => {
              clearTimeout(timer);
              waiting.delete(look);
            };
            waiting.add(look);
            look();
          });
        },
      });
    });
    outgoing.end();
  });
}

/** The resources a `changed` event names. */
export const resourcesOf = (event: StreamEvent): string[] => (JSON.parse(event.data) as { resources: string[] }).resources;
