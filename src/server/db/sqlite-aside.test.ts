import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, readAside } from './dialect';

/** Reads marked `readAside` on a SQLite file: answered by reader threads (sqlite-aside.ts), the event loop free meanwhile. */
describe('reads aside on a SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bodega-aside-'));
  // The tables of this test only.
  let db: Kysely<any>;

  beforeAll(async () => {
    db = openDatabase({ url: `file:${join(dir, 'aside.sqlite')}` }).db as unknown as Kysely<any>;
    await sql`create table shelf (id integer primary key, name text not null, note text, weight real)`.execute(db);
    await sql`insert into shelf (id, name, note, weight)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000) select i, 'shelf ' || i, null, i / 4.0 from n`.execute(
      db,
    );
  });

  afterAll(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const shelves = () => db.selectFrom('shelf').selectAll().where('name', 'like', '%7%').orderBy('id', 'desc').limit(500);

  it('answers the rows the event loop’s own reader answers, in order, with their types', async () => {
    const aside = await readAside(shelves()).execute();
    expect(aside).toEqual(await shelves().execute());
    expect(aside).toHaveLength(500);
    expect(aside[0]).toEqual({ id: 2997, name: 'shelf 2997', note: null, weight: 749.25 });
  });

  it('sees what was committed before it asked', async () => {
    await db.insertInto('shelf').values({ id: 3001, name: 'shelf new 7', note: 'x', weight: 1 }).execute();
    expect((await readAside(shelves()).execute())[0]).toEqual({ id: 3001, name: 'shelf new 7', note: 'x', weight: 1 });
  });

  it('leaves the event loop free while it reads', async () => {
    const slow = db
      .selectFrom(
        sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) as counted from n)`.as(
          'slow',
        ),
      )
      .select('counted');
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    const started = performance.now();
    const [{ counted }] = await readAside(slow).execute();
    const took = performance.now() - started;
    clearInterval(ticking);
    expect(counted).toBe(3_000_000);
    // A timer of 5 ms kept firing through the read: the loop was not held for it.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(took / 5 / 3));
  });

  it('fails a statement SQLite refuses with its code, and goes on answering', async () => {
    const refused = readAside(db.selectFrom('no_such_table').selectAll()).execute();
    await expect(refused).rejects.toMatchObject({ code: 'SQLITE_ERROR', message: expect.stringContaining('no_such_table') });
    expect(await readAside(shelves()).execute()).toHaveLength(500);
  });
});
