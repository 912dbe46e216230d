import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { databaseKinds } from '../../../tests/support/test-app';
import { openDatabase } from '../db/dialect';
import type { Database } from '../db/schema';
import { getResource } from '../../domain/resources/registry';
import { settledStatus } from './payments';

/**
 * The one rule of a bill's or an invoice's settled status, as each database reads it: what
 * `followBalance` writes and what the audit checks every document against.
 */
describe.each(databaseKinds)('the settled status on %s', (kind) => {
  let db: Kysely<Database>;

  beforeAll(() => {
    db = openDatabase({ url: kind === 'sqlite' ? 'file::memory:' : process.env.TEST_DATABASE_URL! }).db;
  });

  afterAll(async () => {
    await db.destroy();
  });

  /** The status of a document of `total` centavos with so much paid and adjusted. */
  const statusOf = async (total: number, paid: number, adjusted: number) => {
    const { rows } = await sql<{ status: string }>`
      select ${settledStatus('documents')} as status
      from (select cast(${total} as bigint) as total, cast(${paid} as bigint) as amount_paid,
        cast(${adjusted} as bigint) as amount_adjusted) as documents`.execute(db);
    return rows[0].status;
  };

  it('is unpaid while nothing is settled, paid once all of it is, partially paid between', async () => {
    expect(await statusOf(10_000, 0, 0)).toBe('unpaid');
    expect(await statusOf(10_000, 1, 0)).toBe('partially_paid');
    expect(await statusOf(10_000, 4_000, 5_999)).toBe('partially_paid');
    expect(await statusOf(10_000, 4_000, 6_000)).toBe('paid');
    expect(await statusOf(10_000, 0, 10_000)).toBe('paid');
    expect(await statusOf(10_000, 10_000, 0)).toBe('paid');
  });

  it('leaves a document of no total unpaid until something settles it, as it is made', async () => {
    expect(await statusOf(0, 0, 0)).toBe('unpaid');
  });

  it('is what the lifecycles of bills and invoices derive from the same figures', async () => {
    for (const kind of ['bills', 'invoices']) {
      const derived = getResource(kind).document!.lifecycle.derived!;
      for (const [total, paid, adjusted] of [
        [10_000, 0, 0],
        [10_000, 1, 0],
        [10_000, 0, 9_999],
        [10_000, 4_000, 6_000],
        [10_000, 10_000, 0],
        [0, 0, 0],
      ]) {
        const status = await statusOf(total, paid, adjusted);
        expect(status).toBe(derived.of({ total, amount_paid: paid, amount_adjusted: adjusted }));
        expect(derived.statuses).toContain(status);
      }
    }
  });
});
