import { readEnvironment } from '../src/server/config';
import { openDatabase } from '../src/server/db/dialect';
import { migrateToLatest } from '../src/server/db/migrate';

/**
 * `npm run migrate`: migrates the database of DATABASE_URL (the app's own by default) and says
 * which migrations it applied, or that it was up to date. For deployments of several instances
 * started with MIGRATE=0: run it once before starting them on a new version. Exits 1 with a
 * message when a newer Bodega migrated the database, or when a migration fails.
 */

let env: ReturnType<typeof readEnvironment>;
try {
  env = readEnvironment();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const { db, kind } = openDatabase({ url: env.DATABASE_URL });
try {
  const applied = await migrateToLatest(db, kind === 'postgres' ? 'public' : undefined);
  console.log(
    applied.length === 0
      ? 'The database is up to date: no migration to apply.'
      : `Applied ${applied.length === 1 ? 'one migration' : `${applied.length} migrations`}: ${applied.join(', ')}.`,
  );
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
