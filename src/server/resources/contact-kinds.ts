import type { Field } from '../../domain/fields';
import type { ResourceDefinition } from '../../domain/resource';
import type { Db, Scope } from '../db/scope';

/** The kind of contact a field takes ("Supplier" on a purchase, "Customer" on a sale), as `Field['contactType']` names it. */
export type ContactKind = NonNullable<Field['contactType']>;

/**
 * Which of `contactIds` are of the other kind than `wanted`, each with why, in words: a contact
 * whose type is named "Customer" where a supplier is wanted, and the other way round. A contact of
 * a type of the business's own (neither) is taken, as a contact picker narrowed to one kind lists
 * every contact when the business has no type of that name. One query, whatever the number of ids.
 */
export async function contactsOfOtherKind(
  db: Db,
  scope: Scope,
  wanted: ContactKind,
  contactIds: readonly number[],
): Promise<Map<number, string>> {
  const refused = new Map<number, string>();
  const ids = [...new Set(contactIds)];
  if (ids.length === 0) return refused;
  const other: ContactKind = wanted === 'Customer' ? 'Supplier' : 'Customer';
  const rows = await db
    .selectFrom('contacts')
    .innerJoin('contact_types', 'contact_types.id', 'contacts.contact_type_id')
    .select(['contacts.id', 'contacts.name', 'contact_types.name as type'])
    .where('contacts.business_id', '=', scope.businessId)
    .where('contacts.id', 'in', ids)
    .execute();
  for (const row of rows) {
    if (row.type.toLowerCase() !== other.toLowerCase()) continue;
    refused.set(row.id, `${row.name} is a ${other.toLowerCase()}, not a ${wanted.toLowerCase()}: pick a ${wanted.toLowerCase()}.`);
  }
  return refused;
}

/**
 * Field messages for the contact fields of `values` that name a contact of the other kind than
 * the field takes (its `contactType`): no customer as a purchase's supplier, no supplier on a sale.
 */
export async function contactKindErrors(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  values: Record<string, unknown>,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(definition.fields)) {
    const id = values[name];
    if (!field.contactType || typeof id !== 'number' || !Number.isInteger(id) || id <= 0) continue;
    const refused = (await contactsOfOtherKind(db, scope, field.contactType, [id])).get(id);
    if (refused) errors[name] = [refused];
  }
  return errors;
}
