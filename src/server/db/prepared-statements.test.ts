import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './dialect';

/** PostgreSQL's statements prepared by name (dialect.ts `preparesRepeatedStatements`, `LiteralPaging`). */

const url = process.env.TEST_DATABASE_URL;

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('statements prepared by name on PostgreSQL', () => {
  const schema = `bodega_test_${randomBytes(6).toString('hex')}`;
  // The tables of this test only: the app's are not needed to see how statements are sent.
  let db: Kysely<any>;

  beforeEach((context) => {
    if (!url) context.skip('PostgreSQL only: TEST_DATABASE_URL is not set');
  });

  beforeAll(async () => {
    if (!url) return;
    await onServer(`create schema ${schema}`);
    db = openDatabase({ url: url!, schema }).db as unknown as Kysely<any>;
    await sql`create table shelf (id integer primary key, name text not null)`.execute(db);
    await sql`insert into shelf select n, 'shelf ' || n from generate_series(1, 50) n`.execute(db);
  });

  afterAll(async () => {
    if (!url) return;
    await db?.destroy();
    await onServer(`drop schema ${schema} cascade`);
  });

  /**
   * What this connection has prepared of the shelf's statements (the pattern is written in two
   * pieces, so as not to find this statement too): one transaction keeps them on one connection.
   */
  const prepared = (trx: Kysely<any>) =>
    sql<{ name: string; statement: string; generic_plans: number }>`
      select name, statement, generic_plans from pg_prepared_statements where statement like '%from "' || 'shelf"%'`.execute(trx);

  it('prepares a statement on its second sighting, with its limit and offset written in, and then keeps a generic plan', async () => {
    await db.transaction().execute(async (trx) => {
      const page = () => trx.selectFrom('shelf').select(['id', 'name']).orderBy('id').limit(5).offset(10).execute();
      expect((await page()).map((row) => row.id)).toEqual([11, 12, 13, 14, 15]);
      expect((await prepared(trx)).rows).toEqual([]);
      for (let run = 0; run < 7; run++) expect((await page()).map((row) => row.id)).toEqual([11, 12, 13, 14, 15]);
      const [statement, ...others] = (await prepared(trx)).rows;
      expect(others).toEqual([]);
      expect(statement.name).toMatch(/^bodega_\d+$/);
      expect(statement.statement).toMatch(/limit 5 offset 10$/);
      expect(Number(statement.generic_plans)).toBeGreaterThan(0);
    });
  });

  it('a page of another size is a statement of its own, and still right', async () => {
    const page = (limit: number, offset: number) => db.selectFrom('shelf').select('id').orderBy('id').limit(limit).offset(offset).execute();
    for (let run = 0; run < 3; run++) {
      expect((await page(3, 0)).map((row) => row.id)).toEqual([1, 2, 3]);
      expect((await page(2, 48)).map((row) => row.id)).toEqual([49, 50]);
    }
  });

  it('goes on answering after a table it prepared a statement for changes shape', async () => {
    // Statements run one after another take the pool's one idle connection each time.
    const everything = () => db.selectFrom('shelf').selectAll().where('id', '=', 7).execute();
    await everything();
    expect(await everything()).toEqual([{ id: 7, name: 'shelf 7' }]);
    await sql`alter table shelf add column aisle text not null default 'A'`.execute(db);
    expect(await everything()).toEqual([{ id: 7, name: 'shelf 7', aisle: 'A' }]);
    expect(await everything()).toEqual([{ id: 7, name: 'shelf 7', aisle: 'A' }]);
  });
});
