import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as foundation from './migrations/2026-11-22-01-foundation';
import * as purchasing from './migrations/2026-11-22-02-purchasing';

/** Every migration, in order. Names are date-prefixed; a landed migration is never edited. */
const migrations: Record<string, Migration> = {
  '2026-11-22-01-foundation': foundation,
  '2026-11-22-02-purchasing': purchasing,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`, { cause: error });
  }
}
