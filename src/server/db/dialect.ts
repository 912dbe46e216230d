import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type RawBuilder,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

/**
 * The only module that knows which database is underneath: `file:PATH` (or `file::memory:`)
 * opens SQLite through better-sqlite3, `postgres://` / `postgresql://` opens a pg pool.
 */

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseConfig {
  url: string;
  /** PostgreSQL only: the schema to work in (tests give each run its own). */
  schema?: string;
}

export interface OpenDatabase {
  db: Kysely<Database>;
  kind: DatabaseKind;
}

export function databaseKind(url: string): DatabaseKind {
  if (url.startsWith('file:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`DATABASE_URL must start with file:, postgres:// or postgresql:// (got "${url}")`);
}

export function openDatabase(config: DatabaseConfig): OpenDatabase {
  const kind = databaseKind(config.url);
  if (kind === 'sqlite') {
    const path = config.url.slice('file:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const raw = new SQLite(path);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    raw.pragma('busy_timeout = 5000');
    return { kind, db: new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(raw) }) }) };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    application_name: serverApplicationName(config),
    options: config.schema ? `-c search_path=${config.schema},public` : undefined,
    types: { getTypeParser: postgresTypeParser },
  });
  return { kind, db: new Kysely<Database>({ dialect: new CatalogRetryingPostgresDialect({ pool }) }) };
}

/**
 * How a Bodega server's connections name themselves in pg_stat_activity (per schema, when it
 * works in one), so that a restore can tell whether a server is using the database.
 */
export function serverApplicationName(config: DatabaseConfig): string {
  return config.schema ? `bodega/${config.schema}` : 'bodega';
}

/**
 * PostgreSQL's catalog as Kysely's migrator reads it, read again when another schema of the
 * database vanished mid-read. The introspector checks every schema it lists
 * (`has_schema_privilege` by name), so a schema dropped by someone else between its listing and
 * that check fails the whole read with "schema … does not exist" (3F000), although nothing of
 * ours changed; a fresh read no longer lists it.
 */
class CatalogRetryingPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Parameters<PostgresDialect['createIntrospector']>[0]): DatabaseIntrospector {
    const catalog = new PostgresIntrospector(db);
    const again = async <T>(read: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await read();
        } catch (error) {
          if ((error as { code?: string }).code !== '3F000' || attempt >= 20) throw error;
        }
      }
    };
    return {
      getSchemas: () => again(() => catalog.getSchemas()),
      getTables: (options) => again(() => catalog.getTables(options)),
      getMetadata: (options) => again(() => catalog.getMetadata(options)),
    };
  }
}

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Counts and centavos (int8) as numbers, dates as their `YYYY-MM-DD` text. */
function postgresTypeParser(oid: number, format?: string) {
  if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
  if (oid === DATE) return (value: string) => value;
  return pg.types.getTypeParser(oid, format as 'text');
}

/**
 * Kysely prepares every statement anew; better-sqlite3 statements are reusable, and preparing
 * costs more than running a small indexed query, so the hot paths keep theirs.
 */
function reusingStatements(raw: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => raw.close(),
    prepare(query: string) {
      let statement = statements.get(query);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = raw.prepare(query);
        statements.set(query, statement);
      }
      return statement;
    },
  };
}

/** A connection or a transaction over any tables: all that telling the two databases apart needs. */
type Connection = Pick<Kysely<unknown>, 'getExecutor'>;

export function isPostgres(db: Connection): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Case-insensitive "contains", with LIKE's wildcards in the term taken literally. */
export function containsIgnoringCase(db: Connection, column: string, term: string): RawBuilder<boolean> {
  const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return isPostgres(db)
    ? sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** Trigrams that tile the term without overlap (the last flush with its end): "Canton" → can, ton. */
function tilingTrigrams(term: string): string[] {
  const folded = term.toLowerCase();
  const tiles: string[] = [];
  for (let at = 0; at + 3 <= folded.length; at += 3) tiles.push(folded.slice(at, at + 3));
  if (folded.length % 3 !== 0) tiles.push(folded.slice(-3));
  return [...new Set(tiles)];
}

/**
 * A contains-search over a trigram-indexed column. PostgreSQL's ILIKE uses the pg_trgm index by
 * itself. SQLite asks the column's FTS5 table for names holding the trigrams that tile the term
 * (an AND of a third of its trigrams, without positions: cheaper than the phrase), then LIKE
 * keeps those that really contain it. Terms under three characters have no trigram to ask for.
 */
export function fullTextContains(db: Connection, table: string, column: string, term: string): RawBuilder<boolean> {
  const contains = containsIgnoringCase(db, `${table}.${column}`, term);
  if (isPostgres(db) || [...term].length < 3) return contains;
  const ftsTable = sql.table(`${table}_${column}_fts`);
  const query = tilingTrigrams(term)
    .map((trigram) => `"${trigram.replaceAll('"', '""')}"`)
    .join(' AND ');
  return sql<boolean>`${sql.ref(`${table}.id`)} in (select rowid from ${ftsTable} where ${ftsTable} match ${query}) and ${contains}`;
}

/**
 * Locks the rows a select reads until the transaction ends (`FOR UPDATE`), so that what a change
 * decides on cannot move under it: a second transaction locking the same row waits for the first
 * to commit and then reads what it left. PostgreSQL only: SQLite runs one writer at a time, and a
 * better-sqlite3 transaction holds the one connection from BEGIN to COMMIT, so it needs none.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Connection, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * PostgreSQL gave up on a transaction that may pass when run again: a deadlock between two
 * writers (40P01) or a serialization failure (40001). Nothing of it was written.
 */
export function transientFailure(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}

export type ConstraintViolation = 'unique' | 'foreign-key' | undefined;

export function constraintViolation(error: unknown): ConstraintViolation {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505') return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') return 'foreign-key';
  return undefined;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** Timestamps are ISO text in SQLite and timestamptz (read as Date) in PostgreSQL. */
export function toIsoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return ISO_TIMESTAMP.test(String(value)) ? String(value) : new Date(String(value)).toISOString();
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
