import { existsSync } from 'node:fs';
import { readEnvironment } from '../src/server/config';
import { databaseKind, openDatabase } from '../src/server/db/dialect';
import { recordBackup, sqliteFile, takeBackup } from '../src/server/operations/backup';

/**
 * `npm run backup`: a consistent copy of the database of DATABASE_URL, taken while the server
 * keeps serving, written into BACKUP_DIR (the newest BACKUP_KEEP are kept) and recorded in the
 * database, where masters see it on the overview. Exits 1, saying why, when it cannot be taken.
 */

let env: ReturnType<typeof readEnvironment>;
try {
  env = readEnvironment();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const database = { url: env.DATABASE_URL };
const outcome = await takeBackup(database, { dir: env.BACKUP_DIR, keep: env.BACKUP_KEEP }, 'manual');
if (outcome.error) {
  console.error(`Backup failed after ${outcome.seconds.toFixed(1)} s: ${outcome.error}`);
  process.exitCode = 1;
} else {
  console.log(`Backup written: ${outcome.path} (${megabytes(outcome.bytes ?? 0)}, ${outcome.seconds.toFixed(1)} s)`);
}

// Recorded only in a database that is there: opening a missing SQLite file would create one.
if (databaseKind(database.url) === 'postgres' || (database.url !== 'file::memory:' && existsSync(sqliteFile(database.url)))) {
  const { db } = openDatabase(database);
  try {
    await recordBackup(db, outcome);
  } catch (error) {
    console.warn(`The backup was not recorded in the database: ${(error as Error).message}`);
  } finally {
    await db.destroy();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
