import { databaseKind } from '../src/server/db/dialect';
import { DatabaseVersionError } from '../src/server/db/migrate';
import { copyDatabase, CopyRefused } from '../src/server/operations/copy-database';

/**
 * `npm run copy-database -- FROM TO`: copies a whole Bodega database from one URL to another
 * (`file:PATH` or `postgres://…`), typically a SQLite file into a new PostgreSQL database (see
 * src/server/operations/copy-database.ts). TO must be empty; it is migrated first. Prints each
 * table's rows on both sides and the time taken, then audits the copy; exits 1 when anything is
 * refused, the counts differ, or the audit finds a disagreement.
 */

const [from, to, ...rest] = process.argv.slice(2);
if (!from || !to || rest.length > 0) {
  console.error('Usage: npm run copy-database -- FROM TO   (each file:PATH or postgres://…; TO must be a new, empty database)');
  process.exit(1);
}
for (const url of [from, to]) {
  try {
    databaseKind(url);
  } catch (error) {
    console.error((error as Error).message.replace('DATABASE_URL', 'FROM and TO'));
    process.exit(1);
  }
}

try {
  const report = await copyDatabase({ url: from }, { url: to });
  const width = Math.max(...report.tables.map((count) => count.table.length));
  console.log(`${'table'.padEnd(width)}  ${'source'.padStart(10)}  ${'copy'.padStart(10)}`);
  for (const count of report.tables) {
    const mark = count.source === count.target ? '' : '  ← differs';
    console.log(`${count.table.padEnd(width)}  ${String(count.source).padStart(10)}  ${String(count.target).padStart(10)}${mark}`);
  }
  const seconds = report.milliseconds / 1000;
  console.log(`\n${report.rows} rows in ${seconds.toFixed(1)} s (${Math.round(report.rows / seconds)} rows/s).`);
  const differing = report.tables.filter((count) => count.source !== count.target);
  if (differing.length > 0) {
    console.error(`The copy differs from the source in ${differing.map((count) => count.table).join(', ')}.`);
    process.exitCode = 1;
  }
  if (report.findings.length > 0) {
    console.error(`The audit of the copy found ${report.findings.length} disagreements:`);
    for (const finding of report.findings) console.error(`  ${finding.check}: ${finding.message}`);
    process.exitCode = 1;
  } else {
    console.log('The copy audits clean (npm run check:stock).');
  }
} catch (error) {
  // A refusal (CopyRefused, or a source that a newer Bodega migrated) says what to do; anything else says what failed.
  console.error(
    error instanceof CopyRefused || error instanceof DatabaseVersionError ? error.message : `The copy failed: ${(error as Error).message}`,
  );
  process.exitCode = 1;
}
