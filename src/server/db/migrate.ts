import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './dialect';
import * as foundation from './migrations/2026-11-22-01-foundation';
import * as purchasing from './migrations/2026-11-22-02-purchasing';
import * as sales from './migrations/2026-11-22-03-sales';
import * as memoranda from './migrations/2026-11-22-04-memoranda';
import * as logistics from './migrations/2026-11-22-05-logistics';
import * as stockReturns from './migrations/2026-11-22-06-stock-returns';
import * as attachments from './migrations/2026-11-22-07-attachments';
import * as activityLog from './migrations/2026-11-22-08-activity-log';
import * as overviewIndexes from './migrations/2026-11-22-09-overview-indexes';
import * as backups from './migrations/2026-11-23-10-backups';

/** Every migration, in order. Names are date-prefixed; a landed migration is never edited. */
const migrations: Record<string, Migration> = {
  '2026-11-22-01-foundation': foundation,
  '2026-11-22-02-purchasing': purchasing,
  '2026-11-22-03-sales': sales,
  '2026-11-22-04-memoranda': memoranda,
  '2026-11-22-05-logistics': logistics,
  '2026-11-22-06-stock-returns': stockReturns,
  '2026-11-22-07-attachments': attachments,
  '2026-11-22-08-activity-log': activityLog,
  '2026-11-22-09-overview-indexes': overviewIndexes,
  '2026-11-23-10-backups': backups,
};

/** The names of every migration this code knows, in order (a database holding any other is not ours to run). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema`: where Kysely keeps its migration tables on PostgreSQL (the search path's first).
 * Without it, Kysely takes a migration table in any other schema of the database for its own.
 * Returns the names of the migrations it applied. Kysely's migrator holds a PostgreSQL advisory
 * lock while it migrates, so instances starting at once apply each migration once.
 */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  refuseNewerDatabase(await appliedMigrations(db, schema));
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/**
 * The database cannot be used by this code as it stands: a newer Bodega migrated it, or it waits
 * for migrations that this instance was told not to run. The message says what to do.
 */
export class DatabaseVersionError extends Error {}

/** For instances that do not migrate (MIGRATE=0): refuses a database with migrations pending or unknown. */
export async function requireMigrated(db: Kysely<any>, schema?: string): Promise<void> {
  const pending = await pendingMigrations(db, schema);
  if (pending.length > 0) {
    throw new DatabaseVersionError(
      `The database needs ${pending.length === 1 ? 'a migration' : `${pending.length} migrations`} (${pending.join(', ')}) ` +
        'and this server does not migrate (MIGRATE=0): run `npm run migrate` first.',
    );
  }
}

/** The migrations this code would apply, in order; refuses a database that a newer Bodega migrated. */
export async function pendingMigrations(db: Kysely<any>, schema?: string): Promise<string[]> {
  const applied = await appliedMigrations(db, schema);
  refuseNewerDatabase(applied);
  return Object.keys(migrations).filter((name) => !applied.includes(name));
}

/** The names Kysely recorded as applied, or none when it never migrated the database. */
export async function appliedMigrations(db: Kysely<any>, schema?: string): Promise<string[]> {
  const table = schema ? `${schema}.kysely_migration` : 'kysely_migration';
  const exists = isPostgres(db)
    ? await sql<{ found: string | null }>`select to_regclass(${table}) as found`.execute(db)
    : await sql<{ found: string | null }>`select name as found from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  if (!exists.rows[0]?.found) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(db);
  return rows.rows.map((row) => row.name);
}

/** Migrations this code does not know mean a newer Bodega changed the tables: running on them would misread them. */
function refuseNewerDatabase(applied: string[]): void {
  const unknown = applied.filter((name) => !Object.hasOwn(migrations, name));
  if (unknown.length === 0) return;
  throw new DatabaseVersionError(
    `This database was upgraded by a newer Bodega (migrations ${unknown.join(', ')} unknown here). ` +
      'Run that version, or restore a backup taken before the upgrade.',
  );
}
