import { sql } from 'kysely';
import { registry } from '../../domain/resources/registry';
import { inWorkingSet } from '../../domain/working-set';
import { isPostgres } from '../db/dialect';
import type { Db } from '../db/scope';

/**
 * The live feed of one app instance: while devices listen (`GET /api/sync/events`), it reads the
 * change log (migration 2026-11-28-01) every `every` ms and tells the listeners of each business
 * which resources changed there, so they pull their delta (`/api/sync/changes`) at once. It reads
 * the shared database, not anything of its own process, so a change written through another
 * instance reaches this instance's listeners too, on SQLite and PostgreSQL alike. It starts at the
 * log's end when the first device listens (what changed before, a device pulls when told `ready`)
 * and stops reading when the last one leaves.
 *
 * Each read is one small statement, answered by the log's indexes, that sends back only which
 * (business, table) pairs changed, however many rows did:
 * - SQLite writes one transaction at a time and hands out ids in commit order: the rows after the
 *   last id read are exactly what committed since.
 * - On PostgreSQL a row carries its writing transaction's id (`tx`), handed out before commit, so
 *   a later id may commit first (see `sync/change-log.ts`). Each read takes the statement's
 *   snapshot with it (`pg_current_snapshot()`): every transaction below its `xmax` and not in its
 *   list of running ones (`xip`) had ended, and its rows were all visible to that read. So the
 *   next read asks only for rows of the transactions that were running then, or began since
 *   (`tx = any(xip) or tx >= xmax`): each committed row is announced once, in the read that first
 *   sees it — the settled ones and the tail alike — and a transaction left running for hours
 *   costs a lookup of its own rows, not a read of everything after it.
 *
 * A read that fails is logged as a warning (at most once a minute while it keeps failing) and
 * tried again at the next turn: the feed never stops the app, and a device that missed an
 * announcement still pulls when it reconnects or comes back online.
 */

/** Told which resources changed in the business it listens to (a set of resource names, never records). */
export type FeedListener = (resources: ReadonlySet<string>) => void;

interface Logger {
  warn(details: object, message: string): void;
}

/** How often the log is read while anyone listens. */
export const FEED_EVERY_MS = 250;
/** A failing read is logged again after this long, not at every turn. */
const WARN_AGAIN_MS = 60_000;

const RESOURCE_OF_TABLE = new Map(
  registry.filter((definition) => inWorkingSet(definition.name)).map((definition) => [definition.table, definition.name]),
);

/** Where the feed has read up to. */
type Position = { kind: 'sqlite'; last: number } | { kind: 'postgres'; xmax: string; xip: string[] };

/** A snapshot as `pg_snapshot`'s text gives it, `xmin:xmax:xip,xip,…`. */
function fromSnapshot(text: string): Position {
  const [, xmax, running] = text.split(':');
  return { kind: 'postgres', xmax, xip: running ? running.split(',') : [] };
}

interface Read {
  position: Position;
  /** The resources changed, by business. */
  changed: Map<number, Set<string>>;
}

export class ChangeFeed {
  readonly #db: Db;
  readonly #log: Logger;
  readonly #every: number;
  readonly #listeners = new Map<number, Set<FeedListener>>();
  #count = 0;
  /** Bumped whenever reading stops: a turn of an earlier generation finds it and does nothing. */
  #generation = 0;
  #position: Position | undefined;
  #starting: Promise<void> | undefined;
  #reading: Promise<unknown> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #warnedAt = Number.NEGATIVE_INFINITY;

  constructor(db: Db, log: Logger, every = FEED_EVERY_MS) {
    this.#db = db;
    this.#log = log;
    this.#every = every;
  }

  /** How many listen now. */
  get listening(): number {
    return this.#count;
  }

  /** Whether it reads the log (someone listens). */
  get reading(): boolean {
    return this.#starting !== undefined;
  }

  /**
   * Listens to a business's changes: resolves once the feed knows where the log ends, so that
   * every change committed after that is announced; the function it resolves to stops listening.
   */
  async listen(businessId: number, listener: FeedListener): Promise<() => void> {
    if (this.#closed) throw new Error('The live feed is closed.');
    let listeners = this.#listeners.get(businessId);
    if (!listeners) this.#listeners.set(businessId, (listeners = new Set()));
    listeners.add(listener);
    this.#count++;
    let listening = true;
    const stop = () => {
      if (!listening) return;
      listening = false;
      if (this.#closed) return;
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(businessId) === listeners) this.#listeners.delete(businessId);
      if (--this.#count === 0) this.#stopReading();
    };
    this.#starting ??= this.#start(this.#generation);
    await this.#starting;
    return stop;
  }

  /** Stops reading for good (the app is closing): resolves once a read under way has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#count = 0;
    const starting = this.#starting;
    const reading = this.#reading;
    this.#stopReading();
    await Promise.allSettled([starting, reading]);
  }

  async #start(generation: number): Promise<void> {
    const position = await this.#guarded(this.#end());
    if (generation !== this.#generation) return;
    this.#position = position;
    this.#schedule(generation);
  }

  #schedule(generation: number): void {
    this.#timer = setTimeout(() => void this.#turn(generation), this.#every);
    this.#timer.unref();
  }

  async #turn(generation: number): Promise<void> {
    if (generation !== this.#generation) return;
    const position = this.#position;
    const reading = position ? this.#changesAfter(position) : this.#end().then((end) => ({ position: end, changed: new Map() }));
    this.#reading = reading;
    const read = await this.#guarded(reading);
    if (generation !== this.#generation) return;
    if (read) {
      this.#position = read.position;
      this.#announce(read.changed);
    }
    this.#schedule(generation);
  }

  #stopReading(): void {
    this.#generation++;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#position = undefined;
    this.#starting = undefined;
    this.#reading = undefined;
  }

  /** What the promise resolves to, or undefined when it failed (logged, not thrown). */
  async #guarded<T>(work: Promise<T>): Promise<T | undefined> {
    try {
      const result = await work;
      this.#warnedAt = Number.NEGATIVE_INFINITY;
      return result;
    } catch (error) {
      if (this.#closed) return undefined;
      const now = performance.now();
      if (now - this.#warnedAt >= WARN_AGAIN_MS) {
        this.#warnedAt = now;
        const message = (error as Error).message;
        this.#log.warn({ error: message }, `Live updates could not read the change log, and try again: ${message}`);
      }
      return undefined;
    }
  }

  #announce(changed: Map<number, Set<string>>): void {
    for (const [businessId, resources] of changed) {
      for (const listener of [...(this.#listeners.get(businessId) ?? [])]) {
        try {
          listener(resources);
        } catch (error) {
          // One listener's failure (a connection gone bad) is its own: the others are still told.
          this.#log.warn(
            { error: (error as Error).message },
            `A device listening for live updates could not be told: ${(error as Error).message}`,
          );
        }
      }
    }
  }

  /** Where the log ends now: nothing before it is announced. */
  async #end(): Promise<Position> {
    if (isPostgres(this.#db)) {
      const { rows } = await sql<{ snapshot: string }>`select pg_current_snapshot()::text as snapshot`.execute(this.#db);
      return fromSnapshot(rows[0].snapshot);
    }
    const row = await this.#db
      .selectFrom('change_log')
      .select(sql<number | null>`max(id)`.as('last'))
      .executeTakeFirst();
    return { kind: 'sqlite', last: Number(row?.last ?? 0) };
  }

  /** What committed after `position`: by business, the resources of the tables written. */
  async #changesAfter(position: Position): Promise<Read> {
    const changed = new Map<number, Set<string>>();
    const add = (businessId: number, table: string) => {
      const resource = RESOURCE_OF_TABLE.get(table);
      if (!resource) return;
      let resources = changed.get(businessId);
      if (!resources) changed.set(businessId, (resources = new Set()));
      resources.add(resource);
    };
    if (position.kind === 'sqlite') {
      const rows = await this.#db
        .selectFrom('change_log')
        .select(['business_id', 'table_name', sql<number>`max(id)`.as('last')])
        .where('id', '>', position.last)
        .groupBy(['business_id', 'table_name'])
        .execute();
      let last = position.last;
      for (const row of rows) {
        add(Number(row.business_id), row.table_name);
        last = Math.max(last, Number(row.last));
      }
      return { position: { kind: 'sqlite', last }, changed };
    }
    // The snapshot and the rows of one statement: the rows are exactly what that snapshot sees.
    const { rows } = await sql<{ snapshot: string; business_id: number | null; table_name: string | null }>`
      select s.snapshot, c.business_id, c.table_name
      from (select pg_current_snapshot()::text as snapshot) s
      left join lateral (
        select business_id, table_name from change_log
        where tx >= ${position.xmax}::bigint or tx = any(${position.xip}::bigint[])
        group by business_id, table_name
      ) c on true`.execute(this.#db);
    for (const row of rows) if (row.business_id !== null && row.table_name !== null) add(Number(row.business_id), row.table_name);
    return { position: fromSnapshot(rows[0].snapshot), changed };
  }
}
