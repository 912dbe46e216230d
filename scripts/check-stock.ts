import { composeEngine } from '../src/server/composition';
import { readEnvironment } from '../src/server/config';
import { openDatabase } from '../src/server/db/dialect';
import { AUDIT_CHECKS, auditDatabase, auditedRecords } from '../src/server/documents/audit';

/**
 * `npm run check:stock`: audits the database of DATABASE_URL (the app's own by default) — every
 * document's stock movements against its lines, every balance against its movements, goods in
 * transit against the open transfers, what was fulfilled of each line, what was paid and adjusted
 * of each bill and invoice, and the kept record counts. Exits 1, listing what disagrees by check,
 * when anything does.
 */

composeEngine();
const env = readEnvironment();
const db = openDatabase({ url: env.DATABASE_URL }).db;
try {
  const findings = await auditDatabase(db);
  if (findings.length === 0) {
    const records = await auditedRecords(db);
    console.log(
      `Database is sound: ${records.documents} documents (${records.lines} lines), ${records.movements} stock movements, ` +
        `${records.balances} stock balances and ${records.counts} kept counts agree (${AUDIT_CHECKS.join(', ')}).`,
    );
  } else {
    console.error(`The database audit found ${findings.length === 1 ? 'one disagreement' : `${findings.length} disagreements`}:`);
    for (const check of AUDIT_CHECKS) {
      const found = findings.filter((finding) => finding.check === check);
      if (found.length === 0) continue;
      console.error(`${check} (${found.length}):`);
      for (const finding of found) console.error(`  ${finding.message}`);
    }
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
