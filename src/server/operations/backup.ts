import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import { databaseKind, isPostgres, toIsoTimestamp, type DatabaseConfig, type DatabaseKind } from '../db/dialect';
import { MIGRATION_NAMES } from '../db/migrate';
import type { Database } from '../db/schema';

/**
 * Backups of the whole database, taken while the app keeps serving: SQLite through its online
 * backup API, PostgreSQL through `pg_dump` (custom format). Each is written under a temporary
 * name and renamed when complete, so a file named `bodega-<time>.sqlite|.pgdump` in the backup
 * directory is always whole; the newest `keep` are kept. `npm run backup` takes one, the server
 * takes them every `BACKUP_EVERY`, and before migrations change an existing SQLite database.
 */

export interface BackupInterval {
  /** As it was written: `30m`, `6h`, `7d`. */
  label: string;
  ms: number;
}

export interface BackupSettings {
  dir: string;
  /** How many backups to keep, the newest. */
  keep: number;
  /** When set, the server takes a backup this often. */
  every?: BackupInterval;
}

export const BACKUP_DEFAULTS: BackupSettings = { dir: './data/backups', keep: 14 };

export type BackupKind = 'manual' | 'scheduled' | 'before-migrations';

/** A backup taken (`path`, `bytes`) or failed (`error`). */
export interface BackupOutcome {
  kind: BackupKind;
  startedAt: Date;
  seconds: number;
  path?: string;
  bytes?: number;
  error?: string;
}

/** `bodega-2026-11-23T19-05-12Z.sqlite`: sorts by time, and needs no quoting on any system. */
const BACKUP_FILE = /^bodega-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)(-before-migrations)?\.(sqlite|pgdump)$/;

/** A moment as a file name can hold it: `2026-11-23T19-05-12Z`. */
export function fileTime(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

function backupFileName(date: Date, kind: DatabaseKind, label: BackupKind): string {
  return `bodega-${fileTime(date)}${label === 'before-migrations' ? '-before-migrations' : ''}.${kind === 'sqlite' ? 'sqlite' : 'pgdump'}`;
}

/** The file of a `file:` URL; an in-memory database has none to back up or restore. */
export function sqliteFile(url: string): string {
  const path = url.slice('file:'.length);
  if (path === ':memory:' || path === '') throw new Error('An in-memory SQLite database (file::memory:) cannot be backed up or restored.');
  return path;
}

/**
 * Writes a backup into `settings.dir` and deletes the oldest beyond `settings.keep`. Never
 * throws: a failure is the outcome's `error`, a message the operator can act on.
 */
export async function takeBackup(
  database: DatabaseConfig,
  settings: Pick<BackupSettings, 'dir' | 'keep'>,
  kind: BackupKind,
): Promise<BackupOutcome> {
  const startedAt = new Date();
  const elapsed = () => (Date.now() - startedAt.getTime()) / 1000;
  let partial: string | undefined;
  try {
    const databaseType = databaseKind(database.url);
    mkdirSync(settings.dir, { recursive: true });
    const name = backupFileName(startedAt, databaseType, kind);
    const path = join(settings.dir, name);
    partial = join(settings.dir, `.${name}.partial`);
    if (databaseType === 'sqlite') await copySqlite(sqliteFile(database.url), partial);
    else await dumpPostgres(database, partial);
    renameSync(partial, path);
    pruneBackups(settings.dir, settings.keep);
    return { kind, startedAt, seconds: elapsed(), path, bytes: statSync(path).size };
  } catch (error) {
    if (partial) rmSync(partial, { force: true });
    return { kind, startedAt, seconds: elapsed(), error: (error as Error).message ?? String(error) };
  }
}

/** Deletes the backups beyond the newest `keep`; other files in the directory are left alone. */
export function pruneBackups(dir: string, keep: number): string[] {
  const backups = readdirSync(dir)
    .map((name) => ({ name, time: BACKUP_FILE.exec(name)?.[1] }))
    .filter((entry): entry is { name: string; time: string } => entry.time !== undefined)
    .sort((a, b) => (a.time === b.time ? b.name.localeCompare(a.name) : b.time.localeCompare(a.time)));
  const deleted = backups.slice(keep).map((entry) => join(dir, entry.name));
  for (const path of deleted) rmSync(path, { force: true });
  return deleted;
}

/**
 * The source is copied in one step of SQLite's backup API: one read transaction, so the copy is
 * the database as of one moment while the server goes on writing (WAL readers never block
 * writers). Copied in small steps instead, every write of another connection between two steps
 * would restart the copy, and a busy shop's might never finish. The step runs in a worker
 * thread with a connection of its own, so a server taking its scheduled backup keeps answering
 * meanwhile; the copy is left in rollback-journal mode, one self-contained file.
 */
const COPY_IN_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const source = new SQLite(workerData.source, { fileMustExist: true, timeout: 5000 });
source
  .backup(workerData.destination, { progress: () => 0x7fffffff })
  .then(() => {
    const copy = new SQLite(workerData.destination);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    parentPort.postMessage('copied');
  })
  .finally(() => source.close());
`;

const SQLITE_DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

export function copySqlite(source: string, destination: string): Promise<void> {
  if (!existsSync(source)) return Promise.reject(new Error(`There is no SQLite database at ${source}.`));
  return new Promise((resolve, reject) => {
    const worker = new Worker(COPY_IN_WORKER, { eval: true, workerData: { driver: SQLITE_DRIVER, source, destination } });
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The SQLite copy stopped (exit code ${code}) before it was complete.`)));
  });
}

/** What to install when a PostgreSQL client tool is missing. */
export function postgresToolMissing(tool: string): string {
  return (
    `${tool} was not found on the PATH: install the PostgreSQL client tools (apt-get install postgresql-client), ` +
    `of the server's major version or newer, to back up and restore a PostgreSQL database.`
  );
}

/**
 * Runs a PostgreSQL client tool against the database: the password travels in PGPASSWORD, not on
 * the command line, where any user of the machine could read it.
 */
export function runPostgresTool(tool: 'pg_dump' | 'pg_restore', database: DatabaseConfig, args: string[]): Promise<string> {
  const url = new URL(database.url);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  return runTool(tool, [...args, `--dbname=${url.toString()}`], env);
}

/** Runs a tool, answering its standard output; a failure carries what it wrote to standard error. */
export function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error(postgresToolMissing(tool)) : error));
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else reject(new Error(`${tool} failed (exit code ${code}): ${Buffer.concat(err).toString().trim()}`));
    });
  });
}

/** The database (or, when the config names one, only its schema) in pg_dump's custom format. */
async function dumpPostgres(database: DatabaseConfig, destination: string): Promise<void> {
  const schema = database.schema ? [`--schema=${database.schema}`] : [];
  await runPostgresTool('pg_dump', database, ['--format=custom', `--file=${destination}`, ...schema]);
}

/** Saves the outcome in the `backups` table, for the master's overview. */
export async function recordBackup(db: Kysely<Database>, outcome: BackupOutcome): Promise<void> {
  await db
    .insertInto('backups')
    .values({
      kind: outcome.kind,
      started_at: outcome.startedAt.toISOString(),
      duration_ms: Math.round(outcome.seconds * 1000),
      file: outcome.path ? outcome.path.split(/[\\/]/).pop()! : null,
      bytes: outcome.bytes ?? null,
      error: outcome.error ?? null,
    })
    .execute();
}

interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** A backup taken is an info line; a failed one a warning, as the operator can set it right. */
export function logBackup(log: Logger, outcome: BackupOutcome): void {
  const details = { kind: outcome.kind, seconds: Number(outcome.seconds.toFixed(2)) };
  if (outcome.error) log.warn({ ...details, error: outcome.error }, `Backup failed: ${outcome.error}`);
  else log.info({ ...details, file: outcome.path, bytes: outcome.bytes }, `Backup written to ${outcome.path}`);
}

/**
 * Claims the scheduled backup that is due, for this server alone: one guarded UPDATE of the
 * single `backup_schedule` row, which succeeds only while the last one started an interval
 * ago or longer. Servers sharing a PostgreSQL database race for the row lock; the loser's
 * UPDATE re-reads the row the winner committed and no longer matches, so exactly one takes the
 * backup. Chosen over an advisory lock because it needs no connection held for the lock, and
 * the database also remembers when the last backup started, so a restart does not take another
 * one early. PostgreSQL reads time off its own clock, so servers whose clocks differ still agree.
 */
export async function claimScheduledBackup(db: Kysely<Database>, every: BackupInterval, by: string): Promise<boolean> {
  const postgres = isPostgres(db);
  const now = postgres ? sql<Date>`now()` : new Date().toISOString();
  const dueBefore = postgres ? sql<Date>`now() - make_interval(secs => ${every.ms / 1000})` : new Date(Date.now() - every.ms).toISOString();
  const result = await db
    .updateTable('backup_schedule')
    .set({ last_started_at: now, started_by: by })
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('last_started_at', 'is', null), eb('last_started_at', '<=', dueBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How often a server asks whether a scheduled backup is due (or every interval, if shorter). */
const CHECK_EVERY_MS = 60_000;

export interface BackupSchedule {
  /** Stops asking; resolves once a backup under way is complete. */
  stop(): Promise<void>;
}

/** Takes a backup whenever one is due (at once, when none was ever taken), until stopped. */
export function scheduleBackups(
  db: Kysely<Database>,
  database: DatabaseConfig,
  settings: BackupSettings & { every: BackupInterval },
  log: Logger,
): BackupSchedule {
  const by = `${hostname()} pid ${process.pid}`;
  let running: Promise<void> | undefined;
  const backUpIfDue = async () => {
    try {
      if (!(await claimScheduledBackup(db, settings.every, by))) return;
    } catch (error) {
      log.warn({ error: (error as Error).message }, `Could not ask whether a backup is due: ${(error as Error).message}`);
      return;
    }
    const outcome = await takeBackup(database, settings, 'scheduled');
    logBackup(log, outcome);
    await recordBackup(db, outcome).catch((error: Error) =>
      log.warn({ error: error.message }, `Could not record the backup in the database: ${error.message}`),
    );
  };
  const check = () => {
    running ??= backUpIfDue().finally(() => (running = undefined));
  };
  check();
  const timer = setInterval(check, Math.min(settings.every.ms, CHECK_EVERY_MS));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Before migrations change an existing SQLite database (one with migrations applied and some of
 * this code's pending), a copy of it as it was; undefined when there is nothing to change.
 * A copy that cannot be written stops the start rather than migrate without one.
 */
export async function backUpBeforeMigrating(
  db: Kysely<Database>,
  database: DatabaseConfig,
  settings: Pick<BackupSettings, 'dir' | 'keep'>,
): Promise<BackupOutcome | undefined> {
  if (databaseKind(database.url) !== 'sqlite' || /^file:(:memory:)?$/.test(database.url)) return undefined;
  const table = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db);
  if (table.rows.length === 0) return undefined;
  const applied = new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((row) => row.name));
  if (applied.size === 0 || MIGRATION_NAMES.every((name) => applied.has(name))) return undefined;
  const outcome = await takeBackup(database, settings, 'before-migrations');
  if (outcome.error) throw new Error(`Could not back up the database before migrating it (${outcome.error}); nothing was changed.`);
  return outcome;
}

export interface BackupRecord {
  id: number;
  kind: BackupKind;
  started_at: string;
  seconds: number;
  file: string | null;
  bytes: number | null;
  error: string | null;
}

/** The newest backups, failed ones included, and the newest that succeeded. */
export async function recentBackups(
  db: Kysely<Database>,
  limit: number,
): Promise<{ data: BackupRecord[]; last_succeeded: BackupRecord | null }> {
  const newest = db.selectFrom('backups').selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc');
  const [rows, succeeded] = await Promise.all([
    newest.limit(limit).execute(),
    newest.where('error', 'is', null).limit(1).executeTakeFirst(),
  ]);
  const record = (row: (typeof rows)[number]): BackupRecord => ({
    id: Number(row.id),
    kind: row.kind as BackupKind,
    started_at: toIsoTimestamp(row.started_at) as string,
    seconds: Number(row.duration_ms) / 1000,
    file: row.file,
    bytes: row.bytes === null ? null : Number(row.bytes),
    error: row.error,
  });
  return { data: rows.map(record), last_succeeded: succeeded ? record(succeeded) : null };
}
