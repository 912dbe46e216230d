import { sql } from 'kysely';
import { documentNumber, referenceNumber, type Location } from '../../domain/documents';
import type { Db, Scope, Trx } from '../db/scope';

/**
 * Document numbers and reference numbers, unique per business and readable at a glance. Each series — a document type at a location,
 * or a document type for a contact — has one counter row per business, bumped by a single
 * upsert inside the creating transaction: the row stays locked until that transaction ends, so
 * concurrent creations (on one server or several sharing PostgreSQL) never share a number.
 */

/** A series: a document type at a location. */
export const numberSeries = (type: string, location: Location) => `${type}|${location.type === 'branch' ? 'B' : 'W'}${location.id}`;
const referenceSeries = (type: string, contactId: number) => `${type}|RN|${contactId}`;

/** Moves a series' counter `by` numbers (a block's at once) and answers the last of them. */
export async function bump(trx: Trx, businessId: number, series: string, by = 1): Promise<number> {
  const row = await trx
    .insertInto('document_counters')
    .values({ business_id: businessId, series, value: by })
    .onConflict((conflict) => conflict.columns(['business_id', 'series']).doUpdateSet({ value: sql`document_counters.value + ${by}` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

async function current(db: Db, businessId: number, series: string): Promise<number> {
  const row = await db
    .selectFrom('document_counters')
    .select('value')
    .where('business_id', '=', businessId)
    .where('series', '=', series)
    .executeTakeFirst();
  return row?.value ?? 0;
}

export async function nextDocumentNumber(trx: Trx, scope: Scope, type: string, prefix: string, date: string, location: Location) {
  return documentNumber(prefix, date, location, await bump(trx, scope.businessId, numberSeries(type, location)));
}

export async function nextReferenceNumber(trx: Trx, scope: Scope, type: string, date: string, contactId: number) {
  return referenceNumber(contactId, date, await bump(trx, scope.businessId, referenceSeries(type, contactId)));
}

/** How many numbers a series has given: the preview's `{total}`, the next number being total + 1. */
export const numberTotal = (db: Db, scope: Scope, type: string, location: Location) =>
  current(db, scope.businessId, numberSeries(type, location));

export const referenceNumberTotal = (db: Db, scope: Scope, type: string, contactId: number) =>
  current(db, scope.businessId, referenceSeries(type, contactId));
