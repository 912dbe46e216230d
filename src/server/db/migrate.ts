import { readdirSync } from 'node:fs';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './dialect';

/**
 * A migration is a file in ./migrations/ named `YYYY-MM-DD-NN-what-it-does.ts`, exporting `up`;
 * its name is the file's without `.ts`, and names sort in the order they run. Other modules there
 * (the helpers migrations share) do not start with a date. A landed migration is never edited.
 */
const MIGRATION_FILE = /^(\d{4}-\d{2}-\d{2}-\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*)\.ts$/;
const MIGRATIONS_DIRECTORY = new URL('./migrations/', import.meta.url);

/** Every migration in ./migrations/, by name, in order. A misnamed one stops the load rather than being left out. */
async function loadMigrations(): Promise<Record<string, Migration>> {
  const found: Record<string, Migration> = {};
  for (const file of readdirSync(MIGRATIONS_DIRECTORY).sort()) {
    const name = MIGRATION_FILE.exec(file)?.[1];
    if (!name) {
      if (/^\d/.test(file)) throw new Error(`${file} in src/server/db/migrations is not named YYYY-MM-DD-NN-what-it-does.ts.`);
      continue;
    }
    const migration = (await import(new URL(file, MIGRATIONS_DIRECTORY).href)) as Partial<Migration>;
    if (typeof migration.up !== 'function') throw new Error(`Migration ${name} exports no up().`);
    found[name] = migration as Migration;
  }
  return found;
}

const migrations = await loadMigrations();

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
