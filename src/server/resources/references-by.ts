import { attributeName, type Field } from '../../domain/fields';
import { referenceKey, type ResourceDefinition } from '../../domain/resource';
import { getResource } from '../../domain/resources/registry';
import type { ApiRecord } from './codec';
import type { Db, Scope } from '../db/scope';
import { storeFor } from './stores';

/**
 * Fields holding the id of a record of whichever resource another field's value picks
 * (`referencesBy`: where a user works, the document a memo is about). They are kept like
 * references: a write must name a live record of the business, and a read carries
 * `{ id, display }` beside the id (`document_id` → `document`).
 */

/** The resource the type field's value picks for this field, if any (a user who works nowhere has none). */
function targetOf(field: Field, type: unknown): ResourceDefinition | undefined {
  const name = field.referencesBy?.resources[String(type)];
  return name ? getResource(name) : undefined;
}

/**
 * A field message for each such field whose id, as written or as kept when only its type
 * changes, names no live record of the business of the resource its type picks. `current`: the
 * record being updated.
 */
export async function referencesByErrors(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  values: Record<string, unknown>,
  current?: ApiRecord,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(definition.fields)) {
    if (!field.referencesBy) continue;
    const typeName = field.referencesBy.field;
    if (values[name] === undefined && values[typeName] === undefined) continue;
    const id = values[name] === undefined ? current?.[name] : values[name];
    const target = targetOf(field, values[typeName] === undefined ? current?.[typeName] : values[typeName]);
    if (id === null || id === undefined || !target) continue;
    const store = storeFor(target);
    const found = await store
      .query(db, scope)
      .select(store.column('id'))
      .where(store.column('id'), '=', id)
      .where(store.column('deleted_at'), 'is', null)
      .executeTakeFirst();
    if (!found) errors[name] = [`The selected ${attributeName(field.label)} is invalid.`];
  }
  return errors;
}

/** Adds `{ id, display }` beside each such field's id (null when it names nothing): one query per resource named. */
export async function nameReferencesBy(db: Db, scope: Scope, definition: ResourceDefinition, records: ApiRecord[]): Promise<void> {
  for (const [name, field] of Object.entries(definition.fields)) {
    if (!field.referencesBy) continue;
    const key = referenceKey(name);
    const byTarget = new Map<ResourceDefinition, ApiRecord[]>();
    for (const record of records) {
      record[key] = null;
      const target = targetOf(field, record[field.referencesBy.field]);
      if (!target || record[name] === null || record[name] === undefined) continue;
      byTarget.set(target, [...(byTarget.get(target) ?? []), record]);
    }
    for (const [target, named] of byTarget) {
      const store = storeFor(target);
      const ids = [...new Set(named.map((record) => Number(record[name])))];
      const rows = await store
        .query(db, scope)
        .select([`${store.column('id')} as id`, `${store.column(target.display)} as display`])
        .where(store.column('id'), 'in', ids)
        .execute();
      const displays = new Map(rows.map((row) => [Number(row.id), row.display === null ? null : String(row.display)]));
      for (const record of named) record[key] = { id: record[name], display: displays.get(Number(record[name])) ?? null };
    }
  }
}
