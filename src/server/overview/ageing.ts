import { sql, type RawBuilder } from 'kysely';
import { AGEING_BUCKETS, AGEING_SIDES, type AgeingBucketKey, type AgeingSide } from '../../domain/ageing';
import type { PlaceType } from '../../domain/places';
import type { Db, Scope } from '../db/scope';
import { csvRow, inert } from '../resources/csv-export';
import { addDays } from './calendar';
import { liveDocuments, pesos } from './live-documents';

/**
 * What each customer owes (unpaid invoices) or each supplier is owed (unpaid bills), by how long
 * it is past due on `today` (domain/ageing.ts): one row per party, with the balances of its
 * documents in each bucket, their total and count and the oldest due day; of the places the user
 * views, or of one of them. Documents with no party are one row of their own (party null).
 */

export interface AgeingQuery {
  today: string;
  place?: { type: PlaceType; id: number };
}

export type AgeingAmounts = Record<AgeingBucketKey, number>;

export type AgeingRow = {
  contact_id: number | null;
  contact: string | null;
  buckets: AgeingAmounts;
  total: number;
  count: number;
  oldest_due: string;
};

export type Ageing = {
  as_of: string;
  data: AgeingRow[];
  totals: { buckets: AgeingAmounts; total: number; count: number };
};

/** When a document falls due: its due date, else its own date (as the overview's card reckons it). */
const dueDay = (table: string) => sql<string>`coalesce(${sql.ref(`${table}.due_date`)}, ${sql.ref(`${table}.date`)})`;

/** Whether a document falls in `bucket` on `today`: its due day between the bucket's bounds, counted back from today. */
function inBucket(table: string, bucket: (typeof AGEING_BUCKETS)[number], today: string): RawBuilder<boolean> {
  const due = dueDay(table);
  const latest = bucket.fromDays === null ? null : addDays(today, -bucket.fromDays);
  const earliest = bucket.toDays === null ? null : addDays(today, -bucket.toDays);
  if (latest !== null && earliest !== null) return sql<boolean>`${due} between ${earliest} and ${latest}`;
  if (earliest !== null) return sql<boolean>`${due} >= ${earliest}`;
  return sql<boolean>`${due} <= ${latest}`;
}

const noAmounts = (): AgeingAmounts => Object.fromEntries(AGEING_BUCKETS.map(({ key }) => [key, 0])) as AgeingAmounts;

export async function ageing(db: Db, side: AgeingSide, scope: Scope, { today, place }: AgeingQuery): Promise<Ageing> {
  const table = AGEING_SIDES[side].resource;
  let unpaid = liveDocuments(db, table, scope).where(`${table}.balance`, '>', sql.lit(0));
  if (place) unpaid = unpaid.where(`${table}.${place.type}_id`, '=', place.id);
  const balance = sql.ref(`${table}.balance`);
  const rows = await unpaid
    .leftJoin('contacts', 'contacts.id', `${table}.contact_id`)
    .select([
      `${table}.contact_id as contact_id`,
      'contacts.name as contact',
      ...AGEING_BUCKETS.map((bucket) => sql`sum(case when ${inBucket(table, bucket, today)} then ${balance} else 0 end)`.as(bucket.key)),
      sql`sum(${balance})`.as('total'),
      sql`count(*)`.as('count'),
      sql`min(${dueDay(table)})`.as('oldest_due'),
    ])
    .groupBy([`${table}.contact_id`, 'contacts.name'])
    .execute();

  const totals = { buckets: noAmounts(), total: 0, count: 0 };
  const data = rows.map((row: Record<string, unknown>): AgeingRow => {
    const buckets = noAmounts();
    for (const { key } of AGEING_BUCKETS) {
      buckets[key] = pesos(row[key]);
      totals.buckets[key] += Number(row[key] ?? 0);
    }
    totals.total += Number(row.total ?? 0);
    totals.count += Number(row.count);
    return {
      contact_id: row.contact_id === null ? null : Number(row.contact_id),
      contact: row.contact === null ? null : String(row.contact),
      buckets,
      total: pesos(row.total),
      count: Number(row.count),
      oldest_due: String(row.oldest_due).slice(0, 10),
    };
  });
  // The most owed first; a party with no name (documents without one) after those with the same.
  data.sort(
    (a, b) =>
      b.total - a.total || (a.contact ?? '\uffff').localeCompare(b.contact ?? '\uffff') || (a.contact_id ?? 0) - (b.contact_id ?? 0),
  );
  for (const { key } of AGEING_BUCKETS) totals.buckets[key] = pesos(totals.buckets[key]);
  return { as_of: today, data, totals: { ...totals, total: pesos(totals.total) } };
}

/** The ageing as CSV lines (UTF-8 with a byte-order mark): a row per party, then the totals. */
export function ageingCsv(side: AgeingSide, { data, totals }: Ageing): string {
  const { party, resource } = AGEING_SIDES[side];
  const money = (amounts: AgeingAmounts) => AGEING_BUCKETS.map(({ key }) => amounts[key].toFixed(2));
  return [
    csvRow([party, ...AGEING_BUCKETS.map(({ label }) => label), 'Total', `Unpaid ${resource}`, 'Oldest due']),
    ...data.map((row) =>
      csvRow([
        inert(row.contact ?? `No ${party.toLowerCase()}`),
        ...money(row.buckets),
        row.total.toFixed(2),
        String(row.count),
        row.oldest_due,
      ]),
    ),
    csvRow(['Total', ...money(totals.buckets), totals.total.toFixed(2), String(totals.count), '']),
  ].join('');
}
