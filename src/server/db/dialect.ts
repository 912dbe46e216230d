import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  SqliteDialect,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Driver,
  type QueryResult,
  type RawBuilder,
  type TransactionSettings,
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
    // A database in memory is this one connection's alone: no other connection can read it.
    const reading = path === ':memory:' ? undefined : () => readingConnection(path);
    return { kind, db: new Kysely<Database>({ dialect: new SqliteReadingDialect(raw, reading) }) };
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

/** better-sqlite3 with the statements it prepared kept for the next time. */
interface SqliteStatements {
  prepare(query: string): SQLite.Statement;
  close(): void;
}

/**
 * Kysely prepares every statement anew; better-sqlite3 statements are reusable, and preparing
 * costs more than running a small indexed query, so the hot paths keep theirs.
 */
function reusingStatements(raw: SQLite.Database): SqliteStatements {
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

/** A second connection to a SQLite file that only reads: WAL lets it read while the writer writes. */
function readingConnection(path: string): SqliteStatements {
  const raw = new SQLite(path, { readonly: true, fileMustExist: true });
  raw.pragma('busy_timeout = 5000');
  return reusingStatements(raw);
}

function run(connection: SqliteStatements, query: CompiledQuery): QueryResult<unknown> {
  const statement = connection.prepare(query.sql);
  const parameters = query.parameters as unknown[];
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** The fts5vocab tables `fullTextQuery` makes: TEMP, so a connection's own, which a read-only connection may make. */
const TEMP_TABLE = /^create virtual table if not exists temp\./;

/** Waits its turn for the one writing connection, as Kysely's own SQLite driver does. */
class Turns {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  async take(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  give(): void {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }
}

/**
 * SQLite through better-sqlite3, which is synchronous and has one writer: a transaction holds the
 * writing connection from BEGIN to COMMIT, and every other statement on it waits its turn. On a
 * file, what only reads and is not part of a transaction (a list, a record, the session of a
 * request) goes instead to a second, read-only connection, which WAL lets read the last commit
 * while a transaction is open: a list is answered while an import's transaction runs. A
 * transaction begun `read only` (an export, the audit) gets a read-only connection of its own for
 * its life, so that everything it reads is of one moment, and holds up no writer. In memory there
 * is only the one connection, and everything takes its turn on it.
 */
class SqliteReadingDriver implements Driver {
  readonly #writer: SqliteStatements;
  readonly #reader: SqliteStatements | undefined;
  readonly #opening: (() => SqliteStatements) | undefined;
  readonly #turns = new Turns();

  constructor(writer: SQLite.Database, opening: (() => SqliteStatements) | undefined) {
    this.#writer = reusingStatements(writer);
    this.#opening = opening;
    this.#reader = opening?.();
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<RoutedConnection> {
    return new RoutedConnection(this);
  }

  async beginTransaction(connection: RoutedConnection, settings: TransactionSettings): Promise<void> {
    if (settings.accessMode === 'read only' && this.#opening) {
      connection.holding = { statements: this.#opening(), own: true };
      await connection.executeQuery(CompiledQuery.raw('begin'));
      return;
    }
    await this.#turns.take();
    connection.holding = { statements: this.#writer, own: false };
    // The file's write lock from the start: another process writing the file (a second server, a
    // script) is waited for (busy_timeout), where a transaction that read first and wrote after a
    // commit of theirs would fail at once with "database is locked".
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: RoutedConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: RoutedConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: RoutedConnection): Promise<void> {
    const held = connection.holding;
    connection.holding = undefined;
    if (held?.own) held.statements.close();
    else if (held) this.#turns.give();
  }

  async destroy(): Promise<void> {
    this.#reader?.close();
    this.#writer.close();
  }

  /** A statement outside any transaction: on the reading connection when it only reads, else on the writer in its turn. */
  async runAlone(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.#reader && this.#onlyReads(query.sql)) return run(this.#reader, query);
    await this.#turns.take();
    try {
      return run(this.#writer, query);
    } finally {
      this.#turns.give();
    }
  }

  #onlyReads(text: string): boolean {
    if (TEMP_TABLE.test(text)) return true;
    try {
      const statement = this.#reader!.prepare(text);
      return statement.reader && statement.readonly;
    } catch {
      // Not a statement the reader can prepare (a TEMP table only the writer has): the writer runs it.
      return false;
    }
  }
}

/** A connection as Kysely sees it: the writer or a read-only one while it holds a transaction, else each statement where it belongs. */
class RoutedConnection implements DatabaseConnection {
  holding: { statements: SqliteStatements; own: boolean } | undefined;

  constructor(private readonly driver: SqliteReadingDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.holding) return run(this.holding.statements, query) as QueryResult<R>;
    return (await this.driver.runAlone(query)) as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(query);
    for (const row of rows) yield { rows: [row] };
  }
}

class SqliteReadingDialect extends SqliteDialect {
  constructor(
    private readonly writer: SQLite.Database,
    private readonly reading: (() => SqliteStatements) | undefined,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new SqliteReadingDriver(this.writer, this.reading);
  }
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

/** A table's full-text index over a column, as `trigramIndex` (migrations/indexes.ts) names it. */
export function fullTextIndex(table: string, column: string): string {
  return `${table}_${column}_fts`;
}

/** How many rows hold a trigram, as last counted, by index and trigram: a planning statistic only. */
const rowsHolding = new Map<string, { rows: number; countedAt: number }>();
const TRIGRAM_COUNTS_KEPT = 50_000;
const TRIGRAM_COUNT_FOR_MS = 10 * 60 * 1000;
/** Asking for more trigrams reads more of the index; three of the rarest leave few rows for LIKE to check. */
const TRIGRAMS_ASKED = 3;

/** How many rows hold each trigram, from the cache or, for those not counted lately, from the index's vocabulary. */
async function rowsHoldingTrigrams(db: Connection, index: string, trigrams: string[]): Promise<Map<string, number>> {
  const now = Date.now();
  const rows = new Map<string, number>();
  const uncounted: string[] = [];
  for (const trigram of trigrams) {
    const known = rowsHolding.get(`${index}:${trigram}`);
    if (known && now - known.countedAt < TRIGRAM_COUNT_FOR_MS) rows.set(trigram, known.rows);
    else uncounted.push(trigram);
  }
  if (uncounted.length === 0) return rows;
  // The index's vocabulary, as a table of this connection's own (TEMP): nothing is written to the database.
  const vocabulary = sql.id(`${index}_vocabulary`);
  await sql`create virtual table if not exists temp.${vocabulary} using fts5vocab(main, ${sql.lit(index)}, 'row')`.execute(db);
  for (const trigram of uncounted) {
    const found = (await sql<{ doc: number }>`select doc from temp.${vocabulary} where term = ${trigram}`.execute(db)).rows[0];
    if (rowsHolding.size >= TRIGRAM_COUNTS_KEPT) rowsHolding.clear();
    rowsHolding.set(`${index}:${trigram}`, { rows: found?.doc ?? 0, countedAt: now });
    rows.set(trigram, found?.doc ?? 0);
  }
  return rows;
}

/**
 * What a contains-search asks a column's FTS5 trigram table for on SQLite: the three of the term's
 * trigrams the fewest rows hold, ANDed (without positions: cheaper than the phrase). FTS5 reads
 * each asked trigram's whole list of rows, so the rarest make the shortest read; LIKE then keeps
 * the rows that really contain the term. Undefined on PostgreSQL (ILIKE uses the pg_trgm index
 * by itself) and for terms under three characters, which have no trigram to ask for.
 */
export async function fullTextQuery(db: Connection, table: string, column: string, term: string): Promise<string | undefined> {
  if (isPostgres(db) || [...term].length < 3) return undefined;
  const folded = term.toLowerCase();
  const trigrams = [...new Set(Array.from({ length: folded.length - 2 }, (_, at) => folded.slice(at, at + 3)))];
  const rows = await rowsHoldingTrigrams(db, fullTextIndex(table, column), trigrams);
  return trigrams
    .sort((a, b) => (rows.get(a) ?? 0) - (rows.get(b) ?? 0))
    .slice(0, TRIGRAMS_ASKED)
    .map((trigram) => `"${trigram.replaceAll('"', '""')}"`)
    .join(' AND ');
}

/**
 * A contains-search over a trigram-indexed column: on SQLite, the rows `fullTextQuery` finds in
 * the column's FTS5 table that LIKE says really contain the term; on PostgreSQL, ILIKE.
 */
export function fullTextContains(
  db: Connection,
  table: string,
  column: string,
  term: string,
  query: string | undefined,
): RawBuilder<boolean> {
  const contains = containsIgnoringCase(db, `${table}.${column}`, term);
  if (query === undefined) return contains;
  const ftsTable = sql.table(fullTextIndex(table, column));
  return sql<boolean>`${sql.ref(`${table}.id`)} in (select rowid from ${ftsTable} where ${ftsTable} match ${query}) and ${contains}`;
}

/**
 * Locks the rows a select reads until the transaction ends (`FOR UPDATE`), so that what a change
 * decides on cannot move under it: a second transaction locking the same row waits for the first
 * to commit and then reads what it left. PostgreSQL only: SQLite runs one writer at a time, and a
 * better-sqlite3 transaction holds the writing connection from BEGIN to COMMIT, so it needs none.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Connection, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * Holds the rows a select reads unchanged until the transaction ends (`FOR SHARE`): readers do
 * not wait for each other, but a change that locks them (`forUpdate`) waits for every reader, and
 * a reader waits for it. A document's lines read their items so: an item's base unit cannot change
 * between the read and the lines written in it. PostgreSQL only, as `forUpdate`.
 */
export function forShare<Q extends { forShare(): Q }>(db: Connection, query: Q): Q {
  return isPostgres(db) ? query.forShare() : query;
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
