import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startDemo, type TestApp } from '../../../tests/support/test-app';
import { openDatabase } from '../db/dialect';
import { migrateToLatest } from '../db/migrate';
import type { Db } from '../db/scope';
import { ChangeFeed } from './change-feed';

/**
 * The live feed itself (`ChangeFeed`), on the database: each committed change is announced once,
 * to the listeners of its business, as resource names; nothing from before the first listener;
 * on PostgreSQL a transaction that began writing before another and commits after it is
 * announced when it commits, and the other's change is not announced again meanwhile. It stops
 * reading when the last listener leaves, and a read that fails is one warning, not an error.
 */

const EVERY = 40;

/** Collects what a listener is told. */
function recorder() {
  const heard: string[][] = [];
  return {
    heard,
    listener: (resources: ReadonlySet<string>) => void heard.push([...resources].sort()),
    /** Waits until `done` holds of what was heard; fails after `ms`. */
    async until(done: (heard: string[][]) => boolean, ms = 3000) {
      const started = performance.now();
      while (!done(heard)) {
        if (performance.now() - started > ms) throw new Error(`Not heard within ${ms} ms: ${JSON.stringify(heard)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseKinds)('the live feed on %s', (kind) => {
  let test: TestApp;
  let db: Db;
  let businesses: [number, number];
  const warnings: string[] = [];
  const log = { warn: (_details: object, message: string) => void warnings.push(message) };

  beforeAll(async () => {
    ({ test, businesses } = await startDemo(kind));
    db = test.app.db;
  });
  afterAll(() => test.close());

  const firstId = async (table: 'items' | 'brands' | 'contacts', businessId = businesses[0]) =>
    (await db.selectFrom(table).select('id').where('business_id', '=', businessId).orderBy('id').executeTakeFirstOrThrow()).id;
  const touch = async (table: 'items' | 'brands' | 'contacts', id: number, through: Db = db) =>
    through.updateTable(table).set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();

  it('announces each change once, to the listeners of its business, by resource, and nothing from before', async () => {
    await touch('contacts', await firstId('contacts'));
    const feed = new ChangeFeed(db, log, EVERY);
    const mine = recorder();
    const theirs = recorder();
    const stopMine = await feed.listen(businesses[0], mine.listener);
    const stopTheirs = await feed.listen(businesses[1], theirs.listener);
    await pause(EVERY * 3);
    // The contact changed before anyone listened: not announced.
    expect(mine.heard).toEqual([]);

    await touch('items', await firstId('items'));
    await touch('brands', await firstId('brands'));
    await mine.until((heard) => heard.flat().includes('items') && heard.flat().includes('brands'));
    await pause(EVERY * 3);
    expect(mine.heard.flat().sort()).toEqual(['brands', 'items']);
    expect(theirs.heard).toEqual([]);

    await touch('brands', await firstId('brands', businesses[1]));
    await theirs.until((heard) => heard.length > 0);
    expect(theirs.heard).toEqual([['brands']]);
    expect(mine.heard.flat().sort()).toEqual(['brands', 'items']);

    stopMine();
    stopTheirs();
    await feed.close();
    expect(warnings).toEqual([]);
  });

  it('stops reading when the last listener leaves, and starts again at the end of the log', async () => {
    const feed = new ChangeFeed(db, log, EVERY);
    const first = recorder();
    const stop = await feed.listen(businesses[0], first.listener);
    expect(feed.reading).toBe(true);
    stop();
    expect(feed.listening).toBe(0);
    expect(feed.reading).toBe(false);
    // Changed while nobody listened: the next listener starts after it.
    await touch('items', await firstId('items'));
    const second = recorder();
    const stopSecond = await feed.listen(businesses[0], second.listener);
    await pause(EVERY * 4);
    expect(second.heard).toEqual([]);
    await touch('brands', await firstId('brands'));
    await second.until((heard) => heard.length > 0);
    expect(second.heard).toEqual([['brands']]);
    expect(first.heard).toEqual([]);
    stopSecond();
    await feed.close();
  });

  if (kind === 'postgres')
    it('announces a transaction that began first when it commits, and the tail once', async () => {
      const feed = new ChangeFeed(db, log, EVERY);
      const heard = recorder();
      const stop = await feed.listen(businesses[0], heard.listener);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const first = db.transaction().execute(async (trx) => {
        await touch('items', await firstId('items'), trx);
        written();
        await released;
      });
      await wrote;
      await touch('brands', await firstId('brands'));
      await heard.until((all) => all.length > 0);
      // Many reads while the first transaction runs: the brand, of the tail, is told once.
      await pause(EVERY * 6);
      expect(heard.heard).toEqual([['brands']]);
      release();
      await first;
      await heard.until((all) => all.length > 1);
      await pause(EVERY * 4);
      expect(heard.heard).toEqual([['brands'], ['items']]);
      stop();
      await feed.close();
    });

  // The feed's own behaviour, whichever database: once, on a SQLite database of its own.
  if (kind === 'sqlite')
    it('warns once, not at every read, when the log cannot be read, and goes on once it can', async () => {
      // A database not yet migrated: no change log to read, until the migrations make it.
      const { db: bare } = openDatabase({ url: 'file::memory:' });
      const said: string[] = [];
      const feed = new ChangeFeed(bare, { warn: (_details, message) => void said.push(message) }, EVERY);
      try {
        const heard = recorder();
        const stop = await feed.listen(1, heard.listener);
        await pause(EVERY * 6);
        expect(said).toHaveLength(1);
        expect(said[0]).toMatch(/^Live updates could not read the change log, and try again: .*change_log/);
        await migrateToLatest(bare);
        await pause(EVERY * 3);
        const stamp = { created_at: '2026-11-28T00:00:00.000Z', updated_at: '2026-11-28T00:00:00.000Z' };
        const business = await bare
          .insertInto('businesses')
          .values({ name: 'Shop', ...stamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        await bare
          .insertInto('brands')
          .values({ business_id: business.id, name: 'First', description: null, ...stamp })
          .execute();
        await heard.until((all) => all.flat().includes('brands'));
        expect(said).toHaveLength(1);
        stop();
      } finally {
        await feed.close();
        await bare.destroy();
      }
    });
});
