import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { databaseKind, openDatabase, serverApplicationName, type DatabaseConfig } from '../db/dialect';
import { appliedMigrations, MIGRATION_NAMES } from '../db/migrate';
import { auditedRecords } from '../documents/audit';
import { startNewHistory } from '../sync/change-log';
import { copySqlite, fileTime, postgresToolMissing, runPostgresTool, runTool, sqliteFile } from './backup';
import { serverMarkPath, serverOnDatabase } from './server-marker';

/**
 * Puts a backup in the place of the database of a config (`npm run restore -- FILE`): the file is
 * checked first (whole, and written by migrations this code knows), refused while a server uses
 * the database, and the current database is kept aside before it is replaced. Every refusal is a
 * `RestoreRefused` whose message says what to do.
 *
 * The restored database's change log then begins another history (`startNewHistory`): devices
 * kept what the replaced database held, which the backup may not, so each downloads its working
 * set again instead of following a log that no longer matches what it keeps.
 */

export class RestoreRefused extends Error {}

export interface RestoreReport {
  /** What was checked of the backup, in words. */
  checked: string[];
  /** Where the database that was replaced is kept (none when there was none). */
  keptAside?: string;
  businesses: number;
  documents: number;
}

/** `backupDir`: where a PostgreSQL database is dumped before it is replaced. */
export async function restoreDatabase(database: DatabaseConfig, file: string, backupDir: string): Promise<RestoreReport> {
  if (!existsSync(file)) throw new RestoreRefused(`There is no file at ${file}.`);
  const report =
    databaseKind(database.url) === 'sqlite' ? await restoreSqlite(database, file) : await restorePostgres(database, file, backupDir);
  await beginNewHistory(database);
  return { ...report, ...(await holdings(database)) };
}

/** The name of the migration that made the change log: a backup from before it has none, and gets one at the next start. */
const CHANGE_LOG_MIGRATION = '2026-11-28-01-change-log';

/** Devices that followed the replaced database's change log are told to download again (a cursor of another history is reset). */
async function beginNewHistory(database: DatabaseConfig): Promise<void> {
  const { db, kind } = openDatabase(database);
  try {
    const applied = await appliedMigrations(db, kind === 'postgres' ? (database.schema ?? 'public') : undefined);
    if (applied.includes(CHANGE_LOG_MIGRATION)) await startNewHistory(db);
  } finally {
    await db.destroy();
  }
}

/** Names of migrations the backup holds that this code does not know: a newer Bodega wrote it. */
function checkMigrations(file: string, applied: string[]): string {
  if (applied.length === 0) throw new RestoreRefused(`${file} holds no Bodega migrations: it is not a backup of a Bodega database.`);
  const known = new Set(MIGRATION_NAMES);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new RestoreRefused(
      `${file} was written by a newer Bodega: its migrations ${unknown.join(', ')} are unknown to this code. Update Bodega, then restore.`,
    );
  }
  const pending = MIGRATION_NAMES.length - applied.length;
  return `its ${applied.length} migrations are all known to this code${pending > 0 ? ` (${pending} more will run at the next start)` : ''}`;
}

async function restoreSqlite(database: DatabaseConfig, file: string): Promise<Omit<RestoreReport, 'businesses' | 'documents'>> {
  const target = sqliteFile(database.url);
  const checked = checkSqliteBackup(file);
  const server = serverOnDatabase(target);
  if (server) {
    throw new RestoreRefused(
      `A Bodega server (pid ${server.pid} on ${server.host}, since ${server.since}) is using ${target}: stop it, then restore. ` +
        `If no server is running there, delete ${serverMarkPath(target)}.`,
    );
  }
  let keptAside: string | undefined;
  if (existsSync(target)) {
    keptAside = `${target}.before-restore-${fileTime(new Date())}`;
    await copySqlite(target, keptAside);
  }
  // Copied beside the target and renamed over it, so the database is never half a file; the old
  // one's write-ahead log goes first, or SQLite could replay it into the restored one.
  const incoming = `${target}.restoring`;
  copyFileSync(file, incoming);
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(incoming, target);
  return { checked, keptAside };
}

/** Opened read-only: whole (SQLite's integrity check) and written by known migrations. */
function checkSqliteBackup(file: string): string[] {
  let source: SQLite.Database | undefined;
  try {
    source = new SQLite(file, { readonly: true, fileMustExist: true });
    const integrity = source.pragma('integrity_check') as { integrity_check: string }[];
    const problems = integrity.map((row) => row.integrity_check).filter((message) => message !== 'ok');
    if (problems.length > 0) {
      throw new RestoreRefused(`${file} failed SQLite's integrity check: ${problems.slice(0, 3).join('; ')}. Restore another backup.`);
    }
    const table = source.prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
    const applied = table ? (source.prepare('select name from kysely_migration order by name').pluck().all() as string[]) : [];
    return ["SQLite's integrity check: ok", checkMigrations(file, applied)];
  } catch (error) {
    if (error instanceof RestoreRefused) throw error;
    throw new RestoreRefused(`${file} cannot be read as a SQLite database (${(error as Error).message}). Restore another backup.`);
  } finally {
    source?.close();
  }
}

async function restorePostgres(
  database: DatabaseConfig,
  file: string,
  backupDir: string,
): Promise<Omit<RestoreReport, 'businesses' | 'documents'>> {
  const schema = database.schema ?? 'public';
  const checked = await checkPostgresBackup(file, schema);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let databaseName: string;
  try {
    const { rows } = await client.query<{ name: string; servers: number }>(
      `select current_database() as name,
         (select count(*)::int from pg_stat_activity where datname = current_database() and application_name = $1) as servers`,
      [serverApplicationName(database)],
    );
    databaseName = rows[0].name;
    if (rows[0].servers > 0) {
      throw new RestoreRefused(
        `Bodega servers hold ${rows[0].servers} connection(s) to ${databaseName}${database.schema ? ` (schema ${schema})` : ''}: stop them, then restore.`,
      );
    }
  } finally {
    await client.end();
  }

  mkdirSync(backupDir, { recursive: true });
  const keptAside = join(backupDir, `${databaseName}${database.schema ? `.${schema}` : ''}.before-restore-${fileTime(new Date())}.pgdump`);
  await runPostgresTool('pg_dump', database, [
    '--format=custom',
    `--file=${keptAside}`,
    ...(database.schema ? [`--schema=${schema}`] : []),
  ]);
  await replaceSchema(database, schema, file);
  return { checked, keptAside };
}

/**
 * What pg_restore reads: the backup's table of contents, and its `kysely_migration` rows. The
 * dump must hold the migrations table in the schema it goes into: a dump of another schema
 * would land beside it, not in its place.
 */
async function checkPostgresBackup(file: string, schema: string): Promise<string[]> {
  const read = async (args: string[]) => {
    try {
      return await runTool('pg_restore', [...args, file]);
    } catch (error) {
      if ((error as Error).message === postgresToolMissing('pg_restore')) throw error;
      throw new RestoreRefused(`${file} cannot be read by pg_restore: ${(error as Error).message}. Restore another backup.`);
    }
  };
  const list = await read(['--list']);
  const entries = list.split('\n').filter((line) => line.trim() !== '' && !line.startsWith(';'));
  if (!entries.some((line) => line.includes(` TABLE ${schema} kysely_migration `))) {
    throw new RestoreRefused(`${file} holds no Bodega migrations in schema ${schema}: it is not a backup of this database.`);
  }
  const data = await read(['--data-only', `--schema=${schema}`, '--table=kysely_migration', '--file=-']);
  const copy = /^COPY [^\n]*kysely_migration [^\n]*FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(data);
  const applied = (copy?.[1] ?? '')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t')[0]);
  return [`pg_restore reads its ${entries.length} entries`, checkMigrations(file, applied)];
}

/**
 * The schema emptied and the backup put in its place, in one transaction that commits only once
 * pg_restore has written all of the backup: anything that fails leaves the database as it was.
 * Emptied, not cleaned object by object, since tables made after the backup (by later
 * migrations) would stay behind and stop the next start's migrations.
 */
async function replaceSchema(database: DatabaseConfig, schema: string, file: string): Promise<void> {
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  // A dump of one schema creates it; a dump of the database leaves public to exist.
  const empty = database.schema
    ? `drop schema if exists ${quoted} cascade;`
    : 'drop schema if exists public cascade; create schema public;';
  const url = new URL(database.url);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const script = spawn('pg_restore', ['--no-owner', '--file=-', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const psql = spawn('psql', ['--no-psqlrc', '--quiet', '--set=ON_ERROR_STOP=1', `--dbname=${url.toString()}`], {
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  // psql stopped at an error: its exit code says so, and pg_restore is not left writing to no one.
  psql.stdin.on('error', () => {});
  psql.once('close', () => script.kill());
  psql.stdin.write(`begin;\n${empty}\n`);
  script.stdout.pipe(psql.stdin, { end: false });
  const restored = finished(script, 'pg_restore').then(
    () => void psql.stdin.end('commit;\n'),
    (error: unknown) => {
      psql.stdin.end(); // no commit: psql's session ends and the transaction with it
      throw error;
    },
  );
  const [applied, dumped] = await Promise.allSettled([finished(psql, 'psql'), restored]);
  for (const outcome of [applied, dumped]) if (outcome.status === 'rejected') throw outcome.reason;
}

/** A client tool's end: resolved when it succeeded, else rejected with what it wrote to standard error. */
function finished(child: ChildProcess, tool: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const errors: Buffer[] = [];
    child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error(postgresToolMissing(tool)) : error));
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${tool} failed (exit code ${code}): ${Buffer.concat(errors).toString().trim()}`)),
    );
  });
}

/** How many live businesses and documents the restored database holds. */
async function holdings(database: DatabaseConfig): Promise<{ businesses: number; documents: number }> {
  const { db } = openDatabase(database);
  try {
    const businesses = await sql<{ count: number }>`select count(*) as count from businesses where deleted_at is null`.execute(db);
    const { documents } = await auditedRecords(db);
    return { businesses: Number(businesses.rows[0].count), documents };
  } finally {
    await db.destroy();
  }
}
