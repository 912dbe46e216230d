import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { PERMISSION_ACTIONS, permissionName } from '../../domain/permissions';
import type { ResourceDefinition } from '../../domain/resource';
import { registry } from '../../domain/resources/registry';
import type { DatabaseKind } from './dialect';
import type { Db } from './scope';

/**
 * What the migrations must build for each definition of the registry, read from the migrated
 * database's catalogue: its table with a column per stored field, a unique index per `unique`
 * field (with business_id first on business tables), and the trigram index behind each `fullText`
 * field's search (`fullTextContains` in ./dialect.ts). A resource added without them fails here
 * rather than at run time.
 */

/** Fields a definition's own table does not hold, and where they are kept instead. */
const STORED_ELSEWHERE: Readonly<Record<string, Readonly<Record<string, { table: string; column: string }>>>> = {
  // A user's secrets are kept hashed; where it works belongs to its membership of the business.
  users: {
    password: { table: 'users', column: 'password_hash' },
    security_pin: { table: 'users', column: 'security_pin_hash' },
    userable_type: { table: 'memberships', column: 'userable_type' },
    userable_id: { table: 'memberships', column: 'userable_id' },
  },
};

interface IndexShape {
  name: string;
  unique: boolean;
  columns: string[];
}

async function columnsOf(db: Db, kind: DatabaseKind, table: string): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows
      : (
          await sql<{ name: string }>`select column_name as name from information_schema.columns
            where table_schema = current_schema() and table_name = ${table}`.execute(db)
        ).rows;
  return rows.map((row) => row.name);
}

/** The table's whole (not partial) indexes, each with its columns in order. */
async function indexesOf(db: Db, kind: DatabaseKind, table: string): Promise<IndexShape[]> {
  if (kind === 'sqlite') {
    const list = (
      await sql<{ name: string; unique: number; partial: number }>`select name, "unique", partial from pragma_index_list(${table})`.execute(
        db,
      )
    ).rows.filter((index) => !index.partial);
    const shapes: IndexShape[] = [];
    for (const index of list) {
      const columns = (await sql<{ name: string }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(db)).rows;
      shapes.push({ name: index.name, unique: index.unique === 1, columns: columns.map((column) => column.name) });
    }
    return shapes;
  }
  const rows = (
    await sql<{ name: string; unique: boolean; columns: string[] }>`
      select i.relname as name, ix.indisunique as unique,
        array(select a.attname::text from unnest(ix.indkey) with ordinality as k(attnum, position)
          join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.position) as columns
      from pg_index ix
      join pg_class t on t.oid = ix.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      join pg_class i on i.oid = ix.indexrelid
      where n.nspname = current_schema() and t.relname = ${table} and ix.indpred is null`.execute(db)
  ).rows;
  return rows.map((row) => ({ name: row.name, unique: row.unique, columns: row.columns }));
}

/** SQLite: the FTS5 trigram table over the column and the three triggers that keep it in step. */
async function sqliteFullTextProblems(db: Db, table: string, column: string): Promise<string[]> {
  const fts = `${table}_${column}_fts`;
  const objects = (
    await sql<{ type: string; name: string; tbl_name: string; sql: string }>`select type, name, tbl_name, sql from sqlite_master
      where name = ${fts} or (type = 'trigger' and name like ${`${fts}_%`})`.execute(db)
  ).rows;
  const problems: string[] = [];
  const virtual = objects.find((object) => object.type === 'table' && object.name === fts);
  const definition = virtual?.sql.toLowerCase().replaceAll(/\s+/g, ' ') ?? '';
  if (
    !virtual ||
    !definition.includes('using fts5') ||
    !definition.includes(`content='${table}'`) ||
    !definition.includes("tokenize='trigram'")
  ) {
    problems.push(`${table}.${column}: no FTS5 trigram table ${fts} over ${table}`);
  }
  for (const event of ['insert', 'delete', 'update']) {
    const trigger = objects.find((object) => object.type === 'trigger' && object.name === `${fts}_${event}`);
    if (!trigger || trigger.tbl_name !== table || !trigger.sql.includes(fts))
      problems.push(`${table}.${column}: no ${event} trigger keeping ${fts} in step`);
  }
  return problems;
}

/** PostgreSQL: a pg_trgm GIN (or GiST) index on the column alone. */
async function postgresFullTextProblems(db: Db, table: string, column: string): Promise<string[]> {
  const found = await sql<{ name: string }>`
    select i.relname as name
    from pg_index ix
    join pg_class t on t.oid = ix.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    join pg_class i on i.oid = ix.indexrelid
    join pg_am am on am.oid = i.relam
    join pg_opclass oc on oc.oid = ix.indclass[0]
    join pg_attribute a on a.attrelid = t.oid and a.attnum = ix.indkey[0]
    where n.nspname = current_schema() and t.relname = ${table} and a.attname = ${column} and ix.indnatts = 1
      and ix.indpred is null and oc.opcname in ('gin_trgm_ops', 'gist_trgm_ops')`.execute(db);
  return found.rows.length > 0 ? [] : [`${table}.${column}: no trigram index on the column`];
}

/** Everything the migrated database lacks of what `definition` promises, in words. */
async function schemaProblems(db: Db, kind: DatabaseKind, definition: ResourceDefinition): Promise<string[]> {
  const problems: string[] = [];
  const columns = await columnsOf(db, kind, definition.table);
  if (columns.length === 0) return [`${definition.name}: no table ${definition.table}`];
  for (const name of Object.keys(definition.fields)) {
    const elsewhere = STORED_ELSEWHERE[definition.name]?.[name];
    if (elsewhere) {
      if (!(await columnsOf(db, kind, elsewhere.table)).includes(elsewhere.column)) {
        problems.push(`${definition.name}.${name}: no column ${elsewhere.table}.${elsewhere.column}`);
      }
    } else if (!columns.includes(name)) {
      problems.push(`${definition.name}.${name}: no column ${definition.table}.${name}`);
    }
  }
  const indexes = await indexesOf(db, kind, definition.table);
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.unique) {
      const expected = definition.tenancy === 'business' ? ['business_id', name] : [name];
      if (!indexes.some((index) => index.unique && index.columns.join() === expected.join())) {
        problems.push(`${definition.name}.${name}: no unique index on ${definition.table} (${expected.join(', ')})`);
      }
    }
    if (field.fullText) {
      problems.push(
        ...(kind === 'sqlite'
          ? await sqliteFullTextProblems(db, definition.table, name)
          : await postgresFullTextProblems(db, definition.table, name)),
      );
    }
  }
  if (definition.document && definition.places) problems.push(...placeIndexProblems(definition, indexes));
  return problems;
}

/** A document kind's indexes by place (`tables(db).placeIndexes`): by each end, and newest first with its ends. */
function placeIndexProblems(definition: ResourceDefinition, indexes: IndexShape[]): string[] {
  const ends = definition.document?.twoLocations
    ? [
        ['from_location_type', 'from_location_id'],
        ['to_location_type', 'to_location_id'],
      ]
    : [['branch_id'], ['warehouse_id']];
  const expected = [...ends.map((end) => ['business_id', ...end, 'id']), ['business_id', 'created_at', 'id', ...ends.flat()]];
  return expected
    .filter((columns) => !indexes.some((index) => index.columns.join() === columns.join()))
    .map((columns) => `${definition.name}: no index on ${definition.table} (${columns.join(', ')}): make it with tables(db).placeIndexes`);
}

describe.each(databaseKinds)('the migrated schema against the registry (%s)', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind, { demoData: false });
  });
  afterAll(async () => {
    await test.close();
  });

  it('has, for every definition, its table, a column per stored field, the unique, full-text and place indexes', async () => {
    const problems: string[] = [];
    for (const definition of registry) problems.push(...(await schemaProblems(test.app.db, kind, definition)));
    expect(problems).toEqual([]);
  });

  it('checks something: the registry has unique and full-text fields, on business and other tables', () => {
    const fields = registry.flatMap((definition) => Object.values(definition.fields).map((field) => ({ definition, field })));
    expect(fields.some(({ definition, field }) => field.unique && definition.tenancy === 'business')).toBe(true);
    expect(fields.some(({ definition, field }) => field.unique && definition.tenancy !== 'business')).toBe(true);
    expect(fields.some(({ field }) => field.fullText)).toBe(true);
    const placed = registry.filter((definition) => definition.document && definition.places);
    expect(placed.some((definition) => definition.document?.twoLocations)).toBe(true);
    expect(placed.some((definition) => !definition.document?.twoLocations)).toBe(true);
  });

  it('seeds the six permissions of every definition', async () => {
    const seeded = new Set((await test.app.db.selectFrom('permissions').select('name').execute()).map((row) => row.name));
    const missing = registry.flatMap((definition) =>
      PERMISSION_ACTIONS.map((action) => permissionName(action, definition.permission)).filter((name) => !seeded.has(name)),
    );
    expect(missing).toEqual([]);
  });
});
