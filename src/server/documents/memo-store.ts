import { sql } from 'kysely';
import { attributeName } from '../../domain/fields';
import { holdsAny, permissionName, type PermissionAction } from '../../domain/permissions';
import { DOCUMENT_RESOURCES, documentMemoranda } from '../../domain/resources/document-memoranda';
import { getResource } from '../../domain/resources/registry';
import { untyped, type Db, type Scope } from '../db/scope';
import { forbidden, notFound } from '../errors';
import { businessTableStore, type ResourceStore } from '../resources/store';

/**
 * Document memos follow the permission of the document they are about. A memo is read only by
 * someone who may view that kind of document: for anyone else it is not there at all (lists,
 * searches, exports, the memo itself and its files answer as if it did not exist), and a memo
 * may not be written about a document they cannot view, answered as one that does not exist.
 * Changing a memo (editing, trashing, restoring, deleting it, or its files) also needs the right
 * to update its kind of document. Who wrote it stays as it was: an edit never changes the author,
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

/**
 * The type of document the memo is about, as its row (locked by the change that asks) holds it;
 * a memo deleted meanwhile is not found.
 */
async function documentTypeOf(db: Db, scope: Scope, id: number): Promise<string> {
  const row = await untyped(db)
    .selectFrom(table)
    .select('document_type')
    .where('id', '=', id)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  if (!row) throw notFound(attributeName(documentMemoranda.singular));
  return String(row.document_type);
}

async function assertChangesMemo(db: Db, scope: Scope, id: number): Promise<void> {
  assertUpdates(scope, await documentTypeOf(db, scope, id));
}

export const documentMemorandaStore: ResourceStore = {
  ...memos,
  // Each user sees a part of the table, so a list counts what it selects; a kept total of every
  // memo would count the ones the user may not see.
  countsMaintained: false,
  query(db, scope) {
    const viewable = typesHeld(scope, 'view');
    const query = memos.query(db, scope);
    if (viewable.length === DOCUMENT_TYPES.length) return query;
    return viewable.length === 0 ? query.where(sql.lit(false)) : query.where(`${table}.document_type`, 'in', viewable);
  },
  async validate(db, scope, values, exceptId) {
    // An edit (and a change of its files, which asks with no values) needs the right to update the document it is about.
    const current = exceptId === undefined ? undefined : await documentTypeOf(db, scope, exceptId);
    if (current !== undefined) assertUpdates(scope, current);
    if (values.document_type === undefined && values.document_id === undefined) return {};
    const type = values.document_type ?? current;
    if (typeof type !== 'string' || !Object.hasOwn(DOCUMENT_RESOURCES, type)) return {};
    // A document the user cannot view is answered as one that does not exist: no id tells them more.
    if (!holdsAny(scope.permissions, [documentPermission('view', type)])) return invalidDocument();
    // Moving a memo onto another document changes what that document carries.
    if (current !== undefined) assertUpdates(scope, type);
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
