import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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
 */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`, { cause: error });
  }
}
