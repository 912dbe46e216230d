import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../errors';

/**
 * Imports and whole-business exports are the heavy requests: an import's body alone can be
 * 60 MB of JSON, parsed in one piece, and each runs for seconds. However well each gives other
 * requests their turns (yielding.ts), several at once would still share the server among
 * themselves — its memory, and on PostgreSQL the database's processors, which every list needs
 * too — and finish no sooner: on one event loop (and SQLite's one writer) they take turns anyway.
 * So a route that declares `config.heavy` runs only when its line lets it: one at a time on the
 * whole server, the next few waiting their turn — their bodies unread until then — and any more
 * refused with 429, in words, to be sent again later. The turn is taken before the body is read
 * and given back when the answer has gone out (or the client has gone away).
 */

export type HeavyWork = 'import' | 'export';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The line the route's requests wait in (plugins/heavy-work.ts). */
    heavy?: HeavyWork;
  }
}

/** How many of each run at once on the server, and how many more may wait their turn. */
interface LineSize {
  atOnce: number;
  waiting: number;
  /** What the refusal calls them. */
  plural: string;
}

export const HEAVY_LINES: Record<HeavyWork, LineSize> = {
  import: { atOnce: 1, waiting: 3, plural: 'imports' },
  export: { atOnce: 1, waiting: 4, plural: 'exports of all data' },
};

/** What a refused request is told to wait, in seconds (Retry-After). */
export const RETRY_AFTER_SECONDS = 60;

const abandoned = () => new HttpError(408, 'The request was abandoned while it waited its turn.');

class Line {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly size: LineSize) {}

  /** Waits for the request's turn, which it keeps until its answer is sent; refuses it when the line is full. */
  async enter(reply: FastifyReply): Promise<void> {
    const { atOnce, waiting, plural } = this.size;
    // Gone already (its close heard by no one): it must not take a turn it would never give back.
    if (reply.raw.destroyed) throw abandoned();
    if (this.#running < atOnce) this.#running += 1;
    else if (this.#waiting.length >= waiting) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new HttpError(
        429,
        `The server is busy with other ${plural} (${atOnce} at a time, ${waiting} more waiting their turn); try again in a minute.`,
      );
    } else await this.#turn(reply);
    reply.raw.once('close', () => this.#leave());
  }

  /** Waits until a request that ends hands its turn on to this one; a client gone meanwhile leaves the line. */
  #turn(reply: FastifyReply): Promise<void> {
    return new Promise((resolve, reject) => {
      const turn = () => {
        reply.raw.off('close', gone);
        resolve();
      };
      const gone = () => {
        this.#waiting.splice(this.#waiting.indexOf(turn), 1);
        reject(abandoned());
      };
      this.#waiting.push(turn);
      reply.raw.once('close', gone);
    });
  }

  #leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running -= 1;
  }
}

export function registerHeavyWork(app: FastifyInstance): void {
  const lines = { import: new Line(HEAVY_LINES.import), export: new Line(HEAVY_LINES.export) };
  app.addHook('onRequest', async (request, reply) => {
    const heavy = request.routeOptions.config?.heavy;
    if (heavy) await lines[heavy].enter(reply);
  });
}
