import { sql } from 'kysely';
import type { Location } from '../../domain/documents';
import { nowIso, toIsoTimestamp } from '../db/dialect';
import type { Db, Scope, Trx } from '../db/scope';
import { notFound } from '../errors';
import type { ApiRecord } from '../resources/codec';

/**
 * A document is printed with what it was issued with, not with what its business, place and
 * contact say today: the seller's registered and trade names, address, TIN and VAT registration;
 * the place (its name, address and BIR branch code); the customer's or supplier's name, address
 * and TIN. They are kept when the document is made, in its creating transaction, in
 * `document_particulars` (one row per document, by type and id), and never change after — no
 * document kind lets an edit change its contact or place. Every read of a document carries them
 * (`particulars`), whoever reads it: a user who may not view contacts still prints the buyer.
 *
 * The same row counts the document's prints (`prints`): the first is the original, every later
 * one a reprint, decided by one increment in the database.
 */

/** The particulars of a document as its reads carry them. */
export interface IssuedParticulars {
  seller: { name: string; trade_name: string | null; address: string | null; tin: string | null; vat_registered: boolean };
  place: { type: 'branch' | 'warehouse'; name: string; address: string | null; branch_code: string | null } | null;
  party: { name: string; address: string | null; tin: string | null } | null;
}

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Keeps what the document `id` of `type` is issued with, read in its creating transaction: the
 * business of the scope, its place (where goods between two places leave) and its contact.
 */
export async function keepParticulars(
  trx: Trx,
  scope: Scope,
  document: { type: string; id: number; location: Location | undefined; contactId: unknown },
): Promise<void> {
  const { location, contactId } = document;
  const business = await trx
    .selectFrom('businesses')
    .select(['name', 'registered_name', 'trade_name', 'address', 'tin', 'vat_registered'])
    .where('id', '=', scope.businessId)
    .executeTakeFirstOrThrow();
  const place = location
    ? await trx
        .selectFrom(location.type === 'branch' ? 'branches' : 'warehouses')
        .select(['name', 'address', 'branch_code'])
        .where('id', '=', location.id)
        .where('business_id', '=', scope.businessId)
        .executeTakeFirst()
    : undefined;
  const party =
    contactId === null || contactId === undefined
      ? undefined
      : await trx
          .selectFrom('contacts')
          .select(['name', 'address', 'tin'])
          .where('id', '=', Number(contactId))
          .where('business_id', '=', scope.businessId)
          .executeTakeFirst();
  await trx
    .insertInto('document_particulars')
    .values({
      business_id: scope.businessId,
      document_type: document.type,
      document_id: document.id,
      seller_name: present(business.registered_name) ? business.registered_name : business.name,
      seller_trade_name: business.trade_name,
      seller_address: business.address,
      seller_tin: business.tin,
      seller_vat_registered: business.vat_registered,
      place_type: place && location ? location.type : null,
      place_name: place?.name ?? null,
      place_address: place?.address ?? null,
      place_branch_code: place?.branch_code ?? null,
      party_name: party?.name ?? null,
      party_address: party?.address ?? null,
      party_tin: party?.tin ?? null,
    })
    .execute();
}

/** Each document read gets what it was issued with (`particulars`) and how many times it was printed (`prints`). */
export async function decorateParticulars(db: Db, scope: Scope, type: string, records: ApiRecord[]): Promise<void> {
  if (records.length === 0) return;
  const rows = await db
    .selectFrom('document_particulars')
    .selectAll()
    .where('business_id', '=', scope.businessId)
    .where('document_type', '=', type)
    .where(
      'document_id',
      'in',
      records.map((record) => record.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.document_id), row]));
  for (const record of records) {
    const row = byId.get(record.id);
    record.prints = row ? Number(row.prints) : 0;
    record.particulars = row
      ? ({
          seller: {
            name: row.seller_name,
            trade_name: row.seller_trade_name,
            address: row.seller_address,
            tin: row.seller_tin,
            vat_registered: Boolean(row.seller_vat_registered),
          },
          place:
            row.place_type === 'branch' || row.place_type === 'warehouse'
              ? { type: row.place_type, name: row.place_name ?? '', address: row.place_address, branch_code: row.place_branch_code }
              : null,
          party: row.party_name === null ? null : { name: row.party_name, address: row.party_address, tin: row.party_tin },
        } satisfies IssuedParticulars)
      : null;
  }
}

/** A print of a document, as the server counted it. */
export interface PrintCounted {
  /** 1 for the original, 2 for the first reprint … */
  copy: number;
  printed_at: string;
  first_printed_at: string;
}

/**
 * Counts a print of the document: one increment, so of two devices printing it at once exactly
 * one is answered the original (copy 1) and the other the reprint, whichever the database takes
 * second.
 */
export async function countPrint(trx: Trx, scope: Scope, type: string, id: number): Promise<PrintCounted> {
  const now = nowIso();
  const row = await trx
    .updateTable('document_particulars')
    .set({
      prints: sql`prints + 1`,
      first_printed_at: sql`coalesce(first_printed_at, ${now})`,
      last_printed_at: now,
    })
    .where('business_id', '=', scope.businessId)
    .where('document_type', '=', type)
    .where('document_id', '=', id)
    .returning(['prints', 'first_printed_at'])
    .executeTakeFirst();
  if (!row) throw notFound('document');
  return { copy: Number(row.prints), printed_at: now, first_printed_at: toIsoTimestamp(row.first_printed_at) ?? now };
}
