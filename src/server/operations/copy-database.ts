import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { composeEngine } from '../composition';
import { databaseKind, openDatabase, type DatabaseConfig, type DatabaseKind } from '../db/dialect';
import { appliedMigrations, migrateToLatest, pendingMigrations } from '../db/migrate';
import { auditDatabase, type AuditFinding } from '../documents/audit';
import { untyped, type Db, type Trx } from '../db/scope';
import { startNewHistory } from '../sync/change-log';

/**
 * Copies a whole Bodega database into a new, empty one — SQLite to PostgreSQL when a business
 * outgrows one file, or back. The target is migrated with this code's migrations first, so both
 * hold the same tables; then every table is read in batches (in one read transaction, so the copy
 * is of one moment) and written in one transaction, so a copy that fails leaves the target empty.
 *
 * Foreign keys and secondary indexes are set aside while the rows go in (a table may refer to
 * itself, and stock transfers and stock returns refer to each other) and put back at the end,
 * which checks every row against them: PostgreSQL's are dropped and made again, SQLite's indexes
 * too while its foreign keys are switched off and checked with foreign_key_check. Values are
 * converted where the dialects differ — SQLite's text timestamps and dates become timestamptz and
 * date, and blobs bytea, on PostgreSQL; back on SQLite, timestamps are ISO text again. Search
 * indexes are not data: SQLite's FTS tables are filled by their triggers as the rows go in, and
 * PostgreSQL's trigram indexes are built again with the others. PostgreSQL's identity sequences
 * are then moved past the copied ids.
 *
 * The change log (`change_log`, `change_log_epoch`) is not copied: the target's own triggers log
 * every row as it goes in, and once the rows are in, the target begins a history of its own
 * (`startNewHistory`), so devices that followed the source download their working set again.
 */

/** The source or target cannot be copied from or into; the message says why and what to do. */
export class CopyRefused extends Error {}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface CopyReport {
  tables: TableCount[];
  /** Rows copied, over all tables. */
  rows: number;
  milliseconds: number;
  /** What the audit of the copy found (src/server/documents/audit.ts): none when it is sound. */
  findings: AuditFinding[];
}

/** Rows read from the source at a time. */
const BATCH_ROWS = 5000;
/** Values bound in one SQLite insert (it allows 32,766). */
const SQLITE_VALUES_PER_INSERT = 30_000;
const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];
/** The target's own: its triggers write the log as the rows go in, and it begins a history of its own. */
const NOT_COPIED = ['change_log', 'change_log_epoch'];
/** Tables whose rows a migration writes itself (the backup schedule's one row): the source's replace them. */
const WRITTEN_BY_MIGRATIONS = ['backup_schedule'];

interface Side {
  db: Db;
  kind: DatabaseKind;
  /** PostgreSQL's schema of the tables; undefined on SQLite. */
  schema: string | undefined;
}

function open(config: DatabaseConfig): Side {
  const { db, kind } = openDatabase(config);
  return { db: db, kind, schema: kind === 'postgres' ? (config.schema ?? 'public') : undefined };
}

export async function copyDatabase(from: DatabaseConfig, to: DatabaseConfig): Promise<CopyReport> {
  const started = performance.now();
  if (databaseKind(from.url) === 'sqlite' && !existsSync(from.url.slice('file:'.length))) {
    throw new CopyRefused(`There is no SQLite database at ${from.url.slice('file:'.length)}.`);
  }
  const source = open(from);
  const target = open(to);
  try {
    await checkSource(source);
    await migrateToLatest(target.db, target.schema);
    const tables = await dataTables(target);
    const sourceTables = await dataTables(source);
    const missing = tables.filter((table) => !sourceTables.includes(table));
    if (missing.length > 0) throw new CopyRefused(`The source database lacks tables the target has: ${missing.join(', ')}.`);
    const filled = (await countRows(target, tables)).filter((count) => count.rows > 0 && !WRITTEN_BY_MIGRATIONS.includes(count.table));
    if (filled.length > 0) {
      throw new CopyRefused(
        `The target database is not empty (rows in ${filled.length === 1 ? 'one table' : `${filled.length} tables`}: ` +
          `${filled
            .slice(0, 3)
            .map((count) => `${count.table} ${count.rows}`)
            .join(', ')}${filled.length > 3 ? ', …' : ''}): ` +
          'copy into a new database, before any Bodega server has started on it.',
      );
    }

    const columns: Record<string, string[]> = {};
    for (const table of tables) columns[table] = await columnsOf(target, table);

    // Repeatable read: PostgreSQL's cursors, one per table, all read the same moment.
    const reading = source.db.transaction();
    await (source.kind === 'postgres' ? reading.setIsolationLevel('repeatable read') : reading).execute(async (read) => {
      if (target.kind === 'sqlite') await sql`pragma foreign_keys = off`.execute(target.db);
      try {
        await target.db.transaction().execute(async (write) => {
          const restore = await setAside(write, target);
          for (const table of WRITTEN_BY_MIGRATIONS) if (tables.includes(table)) await untyped(write).deleteFrom(table).execute();
          for (const table of tables) await copyTable(read, source.kind, write, target.kind, table, columns[table]);
          await restore();
        });
      } finally {
        if (target.kind === 'sqlite') await sql`pragma foreign_keys = on`.execute(target.db);
      }
    });
    await startNewHistory(target.db);

    const sourceCounts = await countRows(source, tables);
    const targetCounts = await countRows(target, tables);
    const counts = tables.map((table, index) => ({ table, source: sourceCounts[index].rows, target: targetCounts[index].rows }));
    composeEngine();
    const findings = await auditDatabase(target.db);
    return {
      tables: counts,
      rows: counts.reduce((sum, count) => sum + count.target, 0),
      milliseconds: performance.now() - started,
      findings,
    };
  } finally {
    await source.db.destroy();
    await target.db.destroy();
  }
}

/** A Bodega database migrated as far as this code goes: anything else would not fit the target's tables. */
async function checkSource({ db, schema }: Side): Promise<void> {
  if ((await appliedMigrations(db, schema)).length === 0) {
    throw new CopyRefused('The source is not a Bodega database: no migration was ever applied to it.');
  }
  const pending = await pendingMigrations(db, schema);
  if (pending.length > 0) {
    throw new CopyRefused(
      `The source database needs migrations (${pending.join(', ')}): run \`npm run migrate\` on it (DATABASE_URL set to it) first.`,
    );
  }
}

/** The tables that hold data: not Kysely's own, nor SQLite's FTS tables and their shadow tables, nor the change log. */
async function dataTables({ db, kind, schema }: Side): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(
          db,
        )
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = ${schema} and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.rows.map((row) => row.name).filter((name) => !KYSELY_TABLES.includes(name) && !NOT_COPIED.includes(name));
}

async function columnsOf({ db, kind, schema }: Side, table: string): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(db)
      : await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = ${schema} and table_name = ${table} order by ordinal_position`.execute(db);
  return rows.rows.map((row) => row.name);
}

async function countRows({ db }: Side, tables: string[]): Promise<{ table: string; rows: number }[]> {
  const counts = [];
  for (const table of tables) {
    const result = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)}`.execute(db);
    counts.push({ table, rows: Number(result.rows[0].count) });
  }
  return counts;
}

/** Inserts each batch while the next one is read: the two databases work at once. */
async function copyTable(
  read: Trx,
  sourceKind: DatabaseKind,
  write: Trx,
  targetKind: DatabaseKind,
  table: string,
  columns: string[],
): Promise<void> {
  const batches = readBatches(read, sourceKind, table, columns);
  let next = batches.next();
  for (;;) {
    const batch = await next;
    if (batch.done) return;
    next = batches.next();
    await (targetKind === 'postgres'
      ? insertIntoPostgres(write, table, columns, batch.value)
      : insertIntoSqlite(write, table, columns, batch.value));
  }
}

/**
 * One statement per batch, its rows in one JSON parameter that PostgreSQL turns into the table's
 * row type: text timestamps become timestamptz, dates date, and blobs (sent as `\x` hex) bytea.
 */
async function insertIntoPostgres(write: Trx, table: string, columns: string[], rows: Record<string, unknown>[]): Promise<void> {
  const list = sql.join(columns.map((column) => sql.ref(column)));
  const json = JSON.stringify(rows.map(forPostgres));
  await sql`insert into ${sql.table(table)} (${list}) select ${list} from json_populate_recordset(null::${sql.table(table)}, ${json})`.execute(
    write,
  );
}

/** Multi-row inserts, as many rows each as SQLite binds values. */
async function insertIntoSqlite(write: Trx, table: string, columns: string[], rows: Record<string, unknown>[]): Promise<void> {
  const perInsert = Math.max(1, Math.floor(SQLITE_VALUES_PER_INSERT / columns.length));
  const values = rows.map(forSqlite);
  for (let at = 0; at < values.length; at += perInsert) {
    await untyped(write)
      .insertInto(table)
      .values(values.slice(at, at + perInsert))
      .execute();
  }
}

/**
 * The table's rows, BATCH_ROWS at a time: from SQLite by rowid ranges (each batch a seek), from
 * PostgreSQL through a cursor; both inside the read transaction, so every batch sees one moment.
 */
async function* readBatches(read: Trx, kind: DatabaseKind, table: string, columns: string[]): AsyncGenerator<Record<string, unknown>[]> {
  const selected = sql.join(columns.map((column) => sql.ref(column)));
  if (kind === 'sqlite') {
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const batch = await sql<Record<string, unknown>>`select rowid as copy_rowid, ${selected} from ${sql.table(table)}
        where rowid > ${after} order by rowid limit ${BATCH_ROWS}`.execute(read);
      if (batch.rows.length === 0) return;
      after = batch.rows[batch.rows.length - 1].copy_rowid as number;
      yield batch.rows.map(({ copy_rowid: _rowid, ...row }) => row);
      if (batch.rows.length < BATCH_ROWS) return;
    }
  }
  await sql`declare copy_rows no scroll cursor for select ${selected} from ${sql.table(table)}`.execute(read);
  try {
    for (;;) {
      const batch = await sql<Record<string, unknown>>`fetch forward ${sql.lit(BATCH_ROWS)} from copy_rows`.execute(read);
      if (batch.rows.length === 0) return;
      yield batch.rows;
    }
  } finally {
    await sql`close copy_rows`.execute(read);
  }
}

/** PostgreSQL's values as SQLite keeps them: timestamps as ISO text, booleans as 0/1. */
function forSqlite(row: Record<string, unknown>): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    converted[column] = value instanceof Date ? value.toISOString() : typeof value === 'boolean' ? Number(value) : value;
  }
  return converted;
}

/** Blobs as bytea's hex text, for JSON; everything else JSON carries as it is. */
function forPostgres(row: Record<string, unknown>): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    converted[column] = value instanceof Uint8Array ? `\\x${Buffer.from(value).toString('hex')}` : value;
  }
  return converted;
}

/**
 * Sets the target's foreign keys and secondary indexes aside for the copy, returning what puts
 * them back. Building an index over a full table is several times faster than growing it row by
 * row (the trigram index above all), and a foreign key added or checked at the end sees every row.
 * Primary keys and unique constraints stay: they are what the rows are stored by.
 */
async function setAside(write: Trx, target: Side): Promise<() => Promise<void>> {
  if (target.kind === 'sqlite') {
    const indexes = await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
      where type = 'index' and sql is not null`.execute(write);
    for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(write);
    return async () => {
      for (const index of indexes.rows) await sql.raw(index.definition).execute(write);
      const broken = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(write);
      if (broken.rows.length > 0) {
        const first = broken.rows[0];
        throw new CopyRefused(
          `The source database has rows of ${first.table} that refer to missing rows of ${first.parent} (${broken.rows.length} in all).`,
        );
      }
    };
  }
  const schema = target.schema as string;
  const keys = await sql<{ table: string; name: string; definition: string }>`select conrelid::regclass::text as "table", conname as name,
      pg_get_constraintdef(oid) as definition
    from pg_constraint where contype = 'f' and connamespace = ${schema}::regnamespace order by conname`.execute(write);
  for (const key of keys.rows) await sql`alter table ${sql.raw(key.table)} drop constraint ${sql.id(key.name)}`.execute(write);
  const indexes = await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
    where schemaname = ${schema} and indexname not in (select conname from pg_constraint where connamespace = ${schema}::regnamespace)`.execute(
    write,
  );
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(write);
  return async () => {
    for (const index of indexes.rows) await sql.raw(index.definition).execute(write);
    for (const key of keys.rows) {
      await sql`alter table ${sql.raw(key.table)} add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(write);
    }
    await resetSequences(write, schema);
  };
}

/** Moves each identity sequence past the largest id copied, so that new records do not collide with copied ones. */
async function resetSequences(write: Trx, schema: string): Promise<void> {
  const identities = await sql<{ table: string; column: string }>`select table_name as "table", column_name as "column"
    from information_schema.columns where table_schema = ${schema} and is_identity = 'YES'`.execute(write);
  for (const { table, column } of identities.rows) {
    const qualified = `${schema}.${table}`;
    await sql`select setval(pg_get_serial_sequence(${qualified}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false)
      from ${sql.table(qualified)}`.execute(write);
  }
}
