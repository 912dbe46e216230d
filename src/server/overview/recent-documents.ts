import { sql } from 'kysely';
import { holdsAny, permissionName } from '../../domain/permissions';
import type { ResourceDefinition } from '../../domain/resource';
import { registry } from '../../domain/resources/registry';
import { toIsoTimestamp } from '../db/dialect';
import { untyped, type Db, type Scope } from '../db/scope';
import { pesos, viewedPlaces } from './live-documents';

const documents = registry.filter((definition) => definition.document);

/**
 * One document resource's newest records, in the columns every document can fill: its party
 * (none for goods moved between locations) and its total (a payment's or memorandum's amount;
 * none for goods moved). Typed nulls, since PostgreSQL takes an untyped one for text.
 * Each reads its table's (business_id, created_at, id, places) index, newest first, and keeps
 * the documents of the places the user views there.
 */
function newestOf(db: Db, definition: ResourceDefinition, scope: Scope, limit: number) {
  const { table, fields } = definition;
  const amount = 'total' in fields ? 'total' : 'amount' in fields ? 'amount' : null;
  const query = untyped(db)
    .selectFrom(table)
    .select([
      sql.lit(definition.name).as('resource'),
      'id',
      'number',
      'date',
      'contact_id' in fields ? 'contact_id' : sql`cast(null as integer)`.as('contact_id'),
      amount ? sql.ref(amount).as('total') : sql`cast(null as bigint)`.as('total'),
      'status',
      'created_at',
    ])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  const places = definition.places && viewedPlaces(definition.places, table, scope);
  return places ? query.where(places) : query;
}

/**
 * The `limit` documents created last across every document resource the user may view, at the
 * places they view, newest first. Voided and cancelled ones stay, with their status: they are
 * part of what happened; trashed ones are gone.
 */
export async function recentDocuments(db: Db, scope: Scope, limit: number) {
  const viewable = documents.filter((definition) => holdsAny(scope.permissions, [permissionName('view', definition.permission)]));
  if (viewable.length === 0) return { data: [] };
  // Each member is wrapped, since SQLite orders and limits only a compound select as a whole.
  const [first, ...rest] = viewable.map((definition) => db.selectFrom(newestOf(db, definition, scope, limit).as('newest')).selectAll());
  const union = rest.reduce((all, member) => all.unionAll(member), first);
  const rows = await db
    .selectFrom(union.as('recent'))
    .leftJoin('contacts', 'contacts.id', 'recent.contact_id')
    .select([
      'recent.resource',
      'recent.id',
      'recent.number',
      'recent.date',
      'contacts.name as contact',
      'recent.total',
      'recent.status',
      'recent.created_at',
    ])
    .orderBy('recent.created_at', 'desc')
    .orderBy('recent.id', 'desc')
    .limit(limit)
    .execute();
  const singular = new Map(documents.map((definition) => [definition.name, definition.singular]));
  return {
    data: rows.map((row) => ({
      resource: String(row.resource),
      singular: singular.get(String(row.resource)) ?? '',
      id: Number(row.id),
      number: String(row.number),
      date: String(row.date),
      contact: row.contact === null ? null : String(row.contact),
      total: row.total === null ? null : pesos(row.total),
      status: row.status === null ? null : String(row.status),
      created_at: toIsoTimestamp(row.created_at),
    })),
  };
}
