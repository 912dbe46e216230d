import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  LimitNode,
  OffsetNode,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  SelectQueryNode,
  SqliteDialect,
  sql,
  type DatabaseConnection,
  ValueNode,
  type DatabaseIntrospector,
  type Expression,
  type Driver,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type RawBuilder,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { ReadersAside } from './sqlite-aside';

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
    const dialect = new SqliteReadingDialect(raw, reading);
    const db = new Kysely<Database>({ dialect });
    const driver = dialect.driver;
    if (driver) changeMarks.set(db, () => driver.changeMark());
    return { kind, db };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    application_name: serverApplicationName(config),
    options: config.schema ? `-c search_path=${config.schema},public` : undefined,
    types: { getTypeParser: postgresTypeParser },
  });
  pool.on('connect', preparesRepeatedStatements);
  return {
    kind,
    db: new Kysely<Database>({ dialect: new CatalogRetryingPostgresDialect({ pool }), plugins: [new LiteralPaging()] }),
  };
}

/**
 * Statements sent more than once are prepared by name, once per connection. PostgreSQL parses and
 * plans an unnamed statement every time it runs: a list's page with its five reference joins took
 * ~0.3 ms of the server's CPU to plan and under 0.1 ms to run. A named one is parsed once, and after
 * five runs PostgreSQL keeps a generic plan where it costs no more than the fresh ones (a limit and
 * an offset as parameters keep it planning each time: LiteralPaging writes them in). A statement
 * is named on its second sighting, so one-off texts (an IN list of a new length) are not; at most
 * NAMED_MOST texts are, in the whole process, so no connection holds more (PostgreSQL keeps a plan
 * of each a connection prepared: 300 × 10 connections stays in tens of MB). The hot statements are
 * a few dozen and named within the first minutes. Only plain reads and writes are named;
 * transaction control, `set` and DDL go unnamed.
 */
const NAMED_MOST = 300;
const SIGHTINGS_KEPT = 20_000;
const sightings = new Map<string, number>();
const statementNames = new Map<string, string>();
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** "cached plan must not change result type": a table's columns changed under a prepared statement. */
const PLAN_CHANGED_TYPE = '0A000';

function statementName(text: string): string | undefined {
  const named = statementNames.get(text);
  if (named || statementNames.size >= NAMED_MOST || !NAMEABLE.test(text)) return named;
  const seen = (sightings.get(text) ?? 0) + 1;
  if (seen < 2) {
    if (sightings.size >= SIGHTINGS_KEPT) sightings.clear();
    sightings.set(text, seen);
    return undefined;
  }
  sightings.delete(text);
  const name = `bodega_${statementNames.size + 1}`;
  statementNames.set(text, name);
  return name;
}

type QueryMethod = (config: unknown, values?: unknown) => Promise<unknown>;

/**
 * Wraps a new connection's `query` as Kysely calls it (text and parameters). A statement whose
 * tables changed shape since this connection prepared it (a migration or a restore while the
 * pool lived) runs unnamed on this connection from then on, and is sent again unnamed at once
 * (inside a transaction, the failure has already ended it, and is the answer).
 */
function preparesRepeatedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as QueryMethod;
  const stale = new Set<string>();
  const named: QueryMethod = async (config, values) => {
    const name = typeof config === 'string' && Array.isArray(values) && !stale.has(config) ? statementName(config) : undefined;
    if (!name) return query(config, values);
    try {
      return await query({ name, text: config, values });
    } catch (error) {
      if ((error as { code?: string }).code !== PLAN_CHANGED_TYPE) throw error;
      stale.add(config as string);
      return query(config, values);
    }
  };
  (client as unknown as { query: QueryMethod }).query = named;
}

/**
 * A whole-number limit and offset of a select written into the statement rather than sent as
 * parameters: a named statement's generic plan then knows them and is as good as a fresh one
 * (PostgreSQL only; each page's offset is a text of its own, and NAMED_MOST bounds them). Only the
 * statement's own, not a subquery's: this runs on every statement, and walks no tree.
 */
class LiteralPaging implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node) || (!node.limit && !node.offset)) return node;
    return Object.freeze({
      ...node,
      limit: node.limit && LimitNode.create(literalCount(node.limit.limit)),
      offset: node.offset && OffsetNode.create(literalCount(node.offset.offset)),
    });
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const literalCount = (node: OperationNode): OperationNode =>
  ValueNode.is(node) && Number.isSafeInteger(node.value) && (node.value as number) >= 0 ? ValueNode.createImmediate(node.value) : node;

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
  readonly #path: string;
  #aside: ReadersAside | undefined;
  readonly #turns = new Turns();
  /** Transactions and statements that write begun on the writer (in memory, reads run there too, uncounted). */
  #writes = 0;

  constructor(writer: SQLite.Database, opening: (() => SqliteStatements) | undefined) {
    this.#writer = reusingStatements(writer);
    this.#opening = opening;
    this.#reader = opening?.();
    this.#path = writer.name;
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
    this.#writes++;
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
    await this.#aside?.close();
    this.#reader?.close();
    this.#writer.close();
  }

  /** `changeMark` on SQLite: what this process began on the writer, and what other connections committed. */
  changeMark(): string {
    const committed = this.#reader?.prepare('pragma data_version').get() as { data_version: number } | undefined;
    return `${this.#writes}.${committed?.data_version ?? ''}`;
  }

  /**
   * A statement outside any transaction: one marked `readAside` on a reader thread (started at the
   * first), one that only reads on the reading connection, else on the writer in its turn.
   */
  async runAlone(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.#reader && query.sql.endsWith(READ_ASIDE))
      return (this.#aside ??= new ReadersAside(this.#path)).run(query.sql, query.parameters);
    if (this.#reader && this.#onlyReads(query.sql)) return run(this.#reader, query);
    await this.#turns.take();
    try {
      if (!this.#writer.prepare(query.sql).readonly) this.#writes++;
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

  /** The driver Kysely made, for `changeMark`. */
  driver: SqliteReadingDriver | undefined;

  override createDriver(): Driver {
    return (this.driver = new SqliteReadingDriver(this.writer, this.reading));
  }
}

/** How each SQLite database opened here tells whether it changed (`SqliteReadingDriver.changeMark`). */
const changeMarks = new WeakMap<object, () => string>();

/**
 * A mark that is the same only while the database has not changed: a count read under a mark
 * still holds while `changeMark` gives that mark. On SQLite, the writes this process began and
 * what other connections committed (`data_version`, as the reading connection sees it: the
 * writer's commits, another process's, a script's); on PostgreSQL the snapshot (the next
 * transaction id, and those still running), which any transaction that writes moves, here or on
 * another instance. Undefined inside a transaction, which may hold changes of its own.
 */
export async function changeMark(db: Connection & Pick<Kysely<unknown>, 'isTransaction'>): Promise<string | undefined> {
  if (db.isTransaction) return undefined;
  if (!isPostgres(db)) return changeMarks.get(db)?.();
  const { rows } = await sql<{ mark: string }>`select pg_current_snapshot()::text as mark`.execute(db);
  return rows[0].mark;
}

/** A connection or a transaction over any tables: all that telling the two databases apart needs. */
type Connection = Pick<Kysely<unknown>, 'getExecutor'>;

export function isPostgres(db: Connection): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const READ_ASIDE = '/* read aside */';

/**
 * Marks a long read (a search through a million names) to be read off the event loop: on a SQLite
 * file, outside a transaction, by a reader thread (`ReadersAside`, sqlite-aside.ts), so the requests
 * that come meanwhile are answered. PostgreSQL, whose server runs each statement on a process of
 * its own while the event loop waits on the network, reads it as any other.
 */
export function readAside<Q extends { modifyEnd(modifier: Expression<unknown>): Q }>(query: Q): Q {
  return query.modifyEnd(sql.raw(READ_ASIDE));
}

/** Case-insensitive "contains", with LIKE's wildcards in the term taken literally. */
export function containsIgnoringCase(db: Connection, column: string, term: string): RawBuilder<boolean> {
  const pattern = likePattern(term);
  return isPostgres(db)
    ? sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** A LIKE pattern holding the term anywhere, its wildcards taken literally (escaped with a backslash). */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
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
 * What a contains-search asks a column's trigram index for: on SQLite, FTS5's MATCH of the three
 * of the term's trigrams the fewest rows hold, ANDed (without positions: cheaper than the phrase);
 * on PostgreSQL, the three rarest of its trigrams, each as a contains of its own, which pg_trgm's
 * index answers from those three lists alone where the whole term's ILIKE reads every one of
 * them (a 17-letter term: 17 lists, 3 of them of a fifth of the rows). Either index reads each
 * asked trigram's whole list of rows, so the rarest make the shortest read; LIKE then keeps the
 * rows that really contain the term. Undefined where the index is best asked for the whole term:
 * terms under three characters, which have no trigram, and on PostgreSQL terms of no more trigrams
 * than would be asked.
 */
export type TrigramLookup = { match: string } | { parts: string[] };

/** The term's trigrams, lower-cased, each once: on PostgreSQL only letters and digits, as pg_trgm keeps them. */
function trigramsOf(term: string, lettersOnly: boolean): string[] {
  const folded = [...term.toLowerCase()];
  const windows = Array.from({ length: Math.max(folded.length - 2, 0) }, (_, at) => folded.slice(at, at + 3).join(''));
  return [...new Set(lettersOnly ? windows.filter((window) => /^[\p{L}\p{N}]{3}$/u.test(window)) : windows)];
}

export async function fullTextQuery(db: Connection, table: string, column: string, term: string): Promise<TrigramLookup | undefined> {
  if (isPostgres(db)) {
    const trigrams = trigramsOf(term, true);
    if (trigrams.length <= TRIGRAMS_ASKED) return undefined;
    const sampled = await trigramsSampled(db, table, column);
    const rows = (trigram: string) => sampled.counts.get(trigram) ?? 0;
    return { parts: trigrams.sort((a, b) => rows(a) - rows(b)).slice(0, TRIGRAMS_ASKED) };
  }
  const trigrams = trigramsOf(term, false);
  if (trigrams.length === 0) return undefined;
  const rows = await rowsHoldingTrigrams(db, fullTextIndex(table, column), trigrams);
  const match = trigrams
    .sort((a, b) => (rows.get(a) ?? 0) - (rows.get(b) ?? 0))
    .slice(0, TRIGRAMS_ASKED)
    .map((trigram) => `"${trigram.replaceAll('"', '""')}"`)
    .join(' AND ');
  return { match };
}

/** How many values hold each trigram, in a sample of a column's values, as last drawn, by table and column. */
const trigramSamples = new Map<string, { counts: Map<string, number>; drawnAt: number }>();
/** Values sampled: enough to rank trigrams held by more than a few in ten thousand. */
const SAMPLED_VALUES = 5_000;

/**
 * PostgreSQL keeps no count of a trigram's rows, and counting one takes as long as reading its
 * list; a sample of the column's values (TABLESAMPLE, about SAMPLED_VALUES rows) ranks them well
 * enough: a trigram the sample never holds is among the rarest. Drawn again every
 * TRIGRAM_COUNT_FOR_MS.
 */
async function trigramsSampled(db: Connection, table: string, column: string) {
  const key = `${table}.${column}`;
  const known = trigramSamples.get(key);
  if (known && Date.now() - known.drawnAt < TRIGRAM_COUNT_FOR_MS) return known;
  const { rows: estimated } = await sql<{ rows: number }>`
    select greatest(reltuples, 0) as rows from pg_class where oid = to_regclass(${table})`.execute(db);
  const percent = Math.min(100, Math.max(0.01, (100 * 2 * SAMPLED_VALUES) / Math.max(estimated[0]?.rows ?? 0, 1)));
  const { rows } = await sql<{ value: string | null }>`
    select ${sql.ref(column)} as value from ${sql.table(table)} tablesample system (${sql.lit(Number(percent.toFixed(4)))})
    limit ${sql.lit(SAMPLED_VALUES)}`.execute(db);
  const counts = new Map<string, number>();
  for (const { value } of rows)
    if (value) for (const trigram of trigramsOf(value, true)) counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  const drawn = { counts, drawnAt: Date.now() };
  trigramSamples.set(key, drawn);
  return drawn;
}

/**
 * A contains-search over a trigram-indexed column: on SQLite, the rows `fullTextQuery` finds in
 * the column's FTS5 table that LIKE says really contain the term; on PostgreSQL, ILIKE, asking the
 * index for the parts `fullTextQuery` chose when it chose any (the whole term's ILIKE then written
 * so that the index is not asked for it too).
 */
export function fullTextContains(
  db: Connection,
  table: string,
  column: string,
  term: string,
  lookup: TrigramLookup | undefined,
): RawBuilder<boolean> {
  const contains = containsIgnoringCase(db, `${table}.${column}`, term);
  if (lookup === undefined) return contains;
  if ('parts' in lookup) {
    const value = sql.ref(`${table}.${column}`);
    const parts = lookup.parts.map((part) => sql<boolean>`${value} ilike ${`%${part}%`}`);
    return sql<boolean>`${sql.join(parts, sql` and `)} and (${value} || '') ilike ${likePattern(term)} escape '\\'`;
  }
  const ftsTable = sql.table(fullTextIndex(table, column));
  return sql<boolean>`${sql.ref(`${table}.id`)} in (select rowid from ${ftsTable} where ${ftsTable} match ${lookup.match}) and ${contains}`;
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
