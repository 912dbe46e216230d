import { resolve } from 'node:path';
import { readEnvironment } from '../src/server/config';
import { restoreDatabase, RestoreRefused } from '../src/server/operations/restore';

/**
 * `npm run restore -- FILE`: puts a backup (`npm run backup`'s .sqlite or .pgdump) in the place of
 * the database of DATABASE_URL, once it is checked and no server is using the database, keeping
 * the current one aside. Says what it checked and did; exits 1, saying why, when it refuses.
 */

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('Usage: npm run restore -- FILE (a backup written by npm run backup)');
  process.exit(1);
}
let env: ReturnType<typeof readEnvironment>;
try {
  env = readEnvironment();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
try {
  const report = await restoreDatabase({ url: env.DATABASE_URL }, resolve(file), env.BACKUP_DIR);
  console.log(`Checked ${file}: ${report.checked.join('; ')}.`);
  console.log(report.keptAside ? `The database it replaced is kept at ${report.keptAside}.` : 'There was no database to keep aside.');
  console.log(
    `Restored into ${env.DATABASE_URL.replace(/\/\/[^@/]*@/, '//')}: ${report.businesses} businesses, ${report.documents} documents.`,
  );
} catch (error) {
  console.error(error instanceof RestoreRefused ? `Not restored: ${error.message}` : `Restore failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
