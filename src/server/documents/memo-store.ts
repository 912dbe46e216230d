import { sql, type RawBuilder } from 'kysely';
import { attributeName } from '../../domain/fields';
import { holdsAny, permissionName, type PermissionAction } from '../../domain/permissions';
import { PLACE_RESOURCES, placeAtEnd, PLACE_TYPES, operatesRecord, reaches, viewsRecord, type PlaceEnd } from '../../domain/places';
import { DOCUMENT_RESOURCES, documentMemoranda } from '../../domain/resources/document-memoranda';
import { getResource } from '../../domain/resources/registry';
import { untyped, type Db, type Scope } from '../db/scope';
import { forbidden, notFound } from '../errors';
import { placeAccessOf, placeCondition } from '../resources/places';
import { businessTableStore, type ResourceStore } from '../resources/store';

/**
 * Document memos follow the permission and the place of the document they are about. A memo is
 * read only by someone who may view that kind of document and views the document's place (any of
 * its places, for goods between two): for anyone else it is not there at all (lists, searches,
 * exports, the memo itself, its history and its files answer as if it did not exist), and a memo
 * may not be written about a document they cannot view, answered as one that does not exist.
 * Writing a memo, and changing one (editing, trashing, restoring, deleting it, or its files), is
 * work at its document's place: it needs `operate` there (where the document itself is changed
 * from: a transfer's source, a receive's destination …); changing one also needs the right to
 * update its kind of document. Who wrote it stays as it was: an edit never changes the author,
 * and the history says who edited.
 */

const table = documentMemoranda.table;
const memos = businessTableStore(documentMemoranda);
const DOCUMENT_TYPES = Object.keys(DOCUMENT_RESOURCES);

/** The permission to `action` the documents of `type`: `view-bills`. */
function documentPermission(action: PermissionAction, type: string): string {
  return permissionName(action, getResource(DOCUMENT_RESOURCES[type]).permission);
}

/** The document types whose documents the scope may `action` (every type for a master). */
function typesHeld(scope: Scope, action: PermissionAction): string[] {
  return DOCUMENT_TYPES.filter((type) => holdsAny(scope.permissions, [documentPermission(action, type)]));
}

/** The message of a document that does not exist, as the engine gives it. */
const invalidDocument = () => ({ document_id: [`The selected ${attributeName(documentMemoranda.fields.document_id.label)} is invalid.`] });

/** Refuses (403) a change of a memo about `type` by someone who may not update that kind of document. */
function assertUpdates(scope: Scope, type: string): void {
  const needed = documentPermission('update', type);
  if (holdsAny(scope.permissions, [needed])) return;
  const plural = getResource(DOCUMENT_RESOURCES[type]).plural.toLowerCase();
  throw forbidden(`This memo is about ${plural}; only someone who may update ${plural} (${needed}) can change it.`);
}

/** The document a memo is about, by its type and id. */
interface DocumentRef {
  type: string;
  id: number;
}

/**
 * The document the memo is about, as its row (locked by the change that asks) holds it; a memo
 * deleted meanwhile is not found.
 */
async function documentOf(db: Db, scope: Scope, id: number): Promise<DocumentRef> {
  const row = await untyped(db)
    .selectFrom(table)
    .select(['document_type', 'document_id'])
    .where('id', '=', id)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  if (!row) throw notFound(attributeName(documentMemoranda.singular));
  return { type: String(row.document_type), id: Number(row.document_id) };
}

/** The columns naming a place at one end of a document. */
const placeColumns = (end: PlaceEnd): string[] =>
  'type' in end ? [end.type, end.id] : PLACE_TYPES.flatMap((type) => (end[type] === undefined ? [] : [end[type]]));

/** The place columns of the document (trashed or not), or undefined when there is none of that id in the business. */
async function documentPlaces(db: Db, scope: Scope, document: DocumentRef): Promise<Record<string, unknown> | undefined> {
  const definition = getResource(DOCUMENT_RESOURCES[document.type]);
  const columns = Object.values(definition.places?.ends ?? {}).flatMap(placeColumns);
  const row = await untyped(db)
    .selectFrom(definition.table)
    .select(['id', ...columns])
    .where('id', '=', document.id)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  return row as Record<string, unknown> | undefined;
}

/** The name of the place a document is changed from, for a message ("Makati"). */
async function operatingPlaceName(db: Db, scope: Scope, type: string, row: Record<string, unknown>): Promise<string | undefined> {
  const rule = getResource(DOCUMENT_RESOURCES[type]).places;
  const place = rule ? placeAtEnd(rule.ends[rule.operates], row) : null;
  if (!place) return undefined;
  const named = await db
    .selectFrom(PLACE_RESOURCES[place.type])
    .select('name')
    .where('id', '=', place.id)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  return named?.name;
}

/**
 * Refuses (403) a memo written or changed about a document of `type`, whose place columns are
 * `row`, by someone who does not operate at its place. A document deleted permanently (no row)
 * has no place left: only someone who operates at every place changes its memos.
 */
async function assertOperatesAt(db: Db, scope: Scope, type: string, row: Record<string, unknown> | undefined): Promise<void> {
  const definition = getResource(DOCUMENT_RESOURCES[type]);
  const access = placeAccessOf(scope);
  if (!definition.places || reaches(access.all, 'operate')) return;
  if (row && operatesRecord(access, definition.places, row)) return;
  const noun = attributeName(definition.singular);
  const name = row ? await operatingPlaceName(db, scope, type, row) : undefined;
  throw forbidden(
    name
      ? `You do not operate at ${name}: memos about a ${noun} there are written and changed only by someone who operates there.`
      : `This memo's ${noun} is gone; only someone who operates at every place can change its memos.`,
  );
}

/**
 * Refuses (403) a change of the memo by someone who may not update its kind of document, or does
 * not operate at its place; returns the document it is about.
 */
async function assertChangesMemo(db: Db, scope: Scope, id: number): Promise<DocumentRef> {
  const document = await documentOf(db, scope, id);
  assertUpdates(scope, document.type);
  if (!reaches(placeAccessOf(scope).all, 'operate')) {
    await assertOperatesAt(db, scope, document.type, await documentPlaces(db, scope, document));
  }
  return document;
}

/**
 * The condition that a memo is about a document of `type` the scope views: its type, and while
 * the scope is confined to some places, a document of that type at one of them (one deleted
 * permanently has no place: its memos are kept to those who view every place).
 */
function aboutViewedDocument(db: Db, scope: Scope, type: string): RawBuilder<boolean> {
  const definition = getResource(DOCUMENT_RESOURCES[type]);
  const ofType = sql<boolean>`${sql.ref(`${table}.document_type`)} = ${type}`;
  const condition = definition.places && placeCondition(definition.places, (name) => `memo_document.${name}`, placeAccessOf(scope));
  if (!condition) return ofType;
  const document = untyped(db)
    .selectFrom(`${definition.table} as memo_document`)
    .select(sql.lit(1).as('found'))
    .where('memo_document.id', '=', sql.ref(`${table}.document_id`))
    .where('memo_document.business_id', '=', sql.ref(`${table}.business_id`))
    .where(condition);
  return sql<boolean>`(${ofType} and exists ${document})`;
}

export const documentMemorandaStore: ResourceStore = {
  ...memos,
  // Each user sees a part of the table, so a list counts what it selects; a kept total of every
  // memo would count the ones the user may not see.
  countsMaintained: false,
  query(db, scope) {
    const viewable = typesHeld(scope, 'view');
    const query = memos.query(db, scope);
    if (viewable.length === 0) return query.where(sql.lit(false));
    if (reaches(placeAccessOf(scope).all, 'view')) {
      return viewable.length === DOCUMENT_TYPES.length ? query : query.where(`${table}.document_type`, 'in', viewable);
    }
    const terms = viewable.map((type) => aboutViewedDocument(db, scope, type));
    return query.where(sql<boolean>`(${sql.join(terms, sql` or `)})`);
  },
  async validate(db, scope, values, exceptId) {
    // An edit (and a change of its files, which asks with no values) needs the right to update the
    // document it is about, and to operate at its place.
    const current = exceptId === undefined ? undefined : await assertChangesMemo(db, scope, exceptId);
    if (values.document_type === undefined && values.document_id === undefined) return {};
    const type = values.document_type ?? current?.type;
    const id = values.document_id ?? current?.id;
    if (typeof type !== 'string' || !Object.hasOwn(DOCUMENT_RESOURCES, type)) return {};
    // A document the user cannot view is answered as one that does not exist: no id tells them more.
    if (!holdsAny(scope.permissions, [documentPermission('view', type)])) return invalidDocument();
    // Moving a memo onto another document changes what that document carries.
    if (current !== undefined) assertUpdates(scope, type);
    if (typeof id !== 'number') return {};
    const rule = getResource(DOCUMENT_RESOURCES[type]).places;
    const access = placeAccessOf(scope);
    if (!rule || reaches(access.all, 'operate')) return {};
    // One that does not exist is the engine's to say; one at a place the user does not view is answered the same.
    const row = await documentPlaces(db, scope, { type, id });
    if (!row) return {};
    if (!viewsRecord(access, rule, row)) return invalidDocument();
    await assertOperatesAt(db, scope, type, row);
    return {};
  },
  async beforeTrash(trx, scope, id) {
    await assertChangesMemo(trx, scope, id);
  },
  async setTrashed(trx, scope, id, deletedAt) {
    if (deletedAt === null) await assertChangesMemo(trx, scope, id);
    await memos.setTrashed(trx, scope, id, deletedAt);
  },
  async beforeForceDelete(trx, scope, id) {
    await assertChangesMemo(trx, scope, id);
  },
};
