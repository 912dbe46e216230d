import { sql, type RawBuilder } from 'kysely';
import type { ResourceDefinition } from '../../domain/resource';
import { getResource, registry } from '../../domain/resources/registry';
import { untyped, type Db, type Scope } from '../db/scope';
import { holdsEveryPlace, placeAccessOf, placeCondition } from './places';
import { storeFor } from './stores';

/**
 * Which entries of the activity log a user confined to some places sees. An entry about a record
 * that belongs to a place (a document, a stock, a branch, a branch's price) shows only while that
 * record is at a place the user views; an entry about a record that is about such a record (a memo
 * about a document) only while the user can read it. Entries of every other record (items,
 * contacts, users — a user's places changing too) show as before.
 *
 * The place of a record deleted permanently is no longer known: its entries show only to someone
 * who views every place (for them nothing is confined). A trashed record keeps its place, and its
 * entries show by it.
 */

/** Whether `definition`'s records are about records of resources at a place: a memo names its document by type and id. */
function aboutPlacedRecords(definition: ResourceDefinition): boolean {
  return Object.values(definition.fields).some((field) =>
    Object.values(field.referencesBy?.resources ?? {}).some((name) => getResource(name).places !== undefined),
  );
}

/** The condition that the entry's record, of `definition`, is one the scope may read. */
function recordReadable(db: Db, scope: Scope, definition: ResourceDefinition): RawBuilder<boolean> {
  const recordId = sql.ref('activity_log.record_id');
  if (definition.places) {
    // Straight on the table by its key: the condition reads only the record's place columns.
    const condition = placeCondition(definition.places, (name) => `placed.${name}`, placeAccessOf(scope), 'view');
    let placed = untyped(db)
      .selectFrom(`${definition.table} as placed`)
      .select(sql.lit(1).as('found'))
      .where('placed.id', '=', recordId)
      .where('placed.business_id', '=', sql.ref('activity_log.business_id'));
    if (condition) placed = placed.where(condition);
    return sql<boolean>`exists ${placed}`;
  }
  // Its store reads only what the scope may read (a memo store keeps memos to their documents' places).
  const store = storeFor(definition);
  const readable = store.query(db, scope).select(sql.lit(1).as('found')).where(store.column('id'), '=', recordId);
  return sql<boolean>`exists ${readable}`;
}

/**
 * The condition that keeps entries to the records the scope views, or null when it views every
 * place. `resource`: the one resource the entries are already kept to, if any. The activity log
 * knows no places or stores: whoever lists it hands this to `listActivity`.
 */
export function entriesViewed(db: Db, scope: Scope, resource?: string): RawBuilder<boolean> | null {
  if (holdsEveryPlace(scope, 'view')) return null;
  const confined = registry.filter((definition) => definition.places !== undefined || aboutPlacedRecords(definition));
  const names = confined.map((definition) => definition.name);
  if (resource !== undefined) {
    return names.includes(resource) ? recordReadable(db, scope, getResource(resource)) : null;
  }
  const terms = confined.map(
    (definition) => sql<boolean>`(${sql.ref('activity_log.resource')} = ${definition.name} and ${recordReadable(db, scope, definition)})`,
  );
  const unconfined = sql<boolean>`${sql.ref('activity_log.resource')} not in (${sql.join(names)})`;
  return sql<boolean>`(${sql.join([unconfined, ...terms], sql` or `)})`;
}
