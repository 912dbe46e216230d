import { readEnvironment } from '../src/server/config';
import { openDatabase } from '../src/server/db/dialect';
import { ledgerDiscrepancies } from '../src/server/documents/ledger';
import type { Db } from '../src/server/resources/store';

/**
 * `npm run check:stock`: proves every stock balance equals the sum of its movements, on the
 * database of DATABASE_URL (the app's own by default). Exits 1, listing them, when any differs.
 */

const env = readEnvironment();
const db = openDatabase({ url: env.DATABASE_URL }).db as unknown as Db;
try {
  const balances = Number(
    (
      await db
        .selectFrom('stocks')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );
  const wrong = await ledgerDiscrepancies(db);
  if (wrong.length === 0) {
    console.log(`Stock ledger is sound: ${balances} balances, each equal to the sum of its movements.`);
  } else {
    console.error(`${wrong.length} of ${balances} stock balances differ from their movements:`);
    for (const row of wrong) {
      console.error(
        `  stock ${row.stockId} (item ${row.itemId} at ${row.location}): on hand ${row.onHand / 1000} vs movements ${row.movementsOnHand / 1000}; ` +
          `in transit ${row.inTransit / 1000} vs movements ${row.movementsInTransit / 1000}`,
      );
    }
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
