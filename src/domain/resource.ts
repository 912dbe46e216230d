import type { DocumentSpec } from './documents';
import type { Field } from './fields';
import type { MenuEntry } from './menu';
import { AT_ITS_PLACE, type PlaceRule } from './places';

/**
 * Everything particular to one resource, declared once and read by the server's generic CRUD
 * engine and the client's generic screens alike:
 *
 *   export const brands = defineResource({
 *     name: 'brands', singular: 'Brand', plural: 'Brands', display: 'name',
 *     fields: { name: text('Name', { required: true, unique: true }), description: textarea('Description') },
 *     search: ['name', 'description'], sort: ['name'], columns: ['name', 'description'],
 *   });
 */
export interface ResourceDefinition {
  /** API path segment and route segment: `/api/brands`, `/brands`. */
  name: string;
  /** The `{prefix}` of `view-{prefix}` and friends. */
  permission: string;
  singular: string;
  plural: string;
  /** The database table. */
  table: string;
  /**
   * How records belong to the active business: `business` tables carry `business_id`;
   * `membership` records (businesses, users) are reached through the signed-in user's or the
   * business's memberships; `global` records (permissions) are shared by all.
   */
  tenancy: 'business' | 'membership' | 'global';
  /** The field shown when one record names another (pickers, references, dialogs). */
  display: string;
  fields: Readonly<Record<string, Field>>;
  /** Query names a list can be searched by: field names, or `id`. */
  search: readonly string[];
  /** Fields a list can be sorted by; `id`, `created_at` and `updated_at` always are. */
  sort: readonly string[];
  /** Default list columns. */
  columns: readonly string[];
  /** Index and view only (permissions). */
  readOnly: boolean;
  /** Records can be created but never edited (bills, payments, receipts …). */
  editable: boolean;
  /** Users: reset-password and reset-security-pin actions. */
  resettableSecrets: boolean;
  /** Documents (purchase orders, bills, invoices …): numbered, with lines, moving stock or money. */
  document?: DocumentSpec;
  /**
   * Files (scanned receipts, photos) can be attached to its records: `/api/{name}/{recordId}/files`.
   * Every document has them; others say so.
   */
  attachments: boolean;
  /** Which field a picker searches for what was typed (or scanned), when not the display's (`q`: any of `pickerFields`). */
  pickerSearch?: (typed: string) => { field: string; strict: boolean };
  /** The fields a picker's search (`?q=`) matches by any part, case-insensitively: an item's name, SKU or barcode. */
  pickerFields?: readonly string[];
  /**
   * How its records belong to branches and warehouses (`domain/places.ts`): reads show only the
   * user's places, changes need `operate` at the record's operating end. A document at one place
   * has `AT_ITS_PLACE` unless it says otherwise; a resource without places is seen by every user.
   */
  places?: PlaceRule;
  /**
   * Where the sidebar links its list; none: no link, though its screens keep their routes (a
   * quotation, a business, a service the counter does not sell yet).
   */
  menu?: MenuEntry;
}

type DefinitionInput = Omit<
  ResourceDefinition,
  'permission' | 'table' | 'tenancy' | 'readOnly' | 'editable' | 'resettableSecrets' | 'sort' | 'attachments'
> &
  Partial<
    Pick<ResourceDefinition, 'permission' | 'table' | 'tenancy' | 'readOnly' | 'editable' | 'resettableSecrets' | 'sort' | 'attachments'>
  >;

export const ALWAYS_SORTABLE = ['id', 'created_at', 'updated_at'] as const;

export function defineResource(input: DefinitionInput): ResourceDefinition {
  const definition: ResourceDefinition = {
    permission: input.name,
    table: input.name.replaceAll('-', '_'),
    tenancy: 'business',
    readOnly: false,
    editable: true,
    resettableSecrets: false,
    attachments: input.document !== undefined,
    places: input.document && !input.document.twoLocations ? AT_ITS_PLACE : undefined,
    ...input,
    sort: [...new Set([...ALWAYS_SORTABLE, ...(input.sort ?? [])])],
  };
  for (const name of [...definition.search, ...definition.sort, ...definition.columns, definition.display]) {
    if (name !== 'id' && !(ALWAYS_SORTABLE as readonly string[]).includes(name) && !(name in definition.fields)) {
      throw new Error(`Resource ${definition.name} names an unknown field "${name}"`);
    }
  }
  if (definition.document?.twoLocations && !definition.places) {
    throw new Error(`Resource ${definition.name} moves goods between two places but does not say which side operates it`);
  }
  return definition;
}

/** Fields a create or update takes: all but those the server sets. */
export function writableFields(definition: ResourceDefinition): [string, Field][] {
  return Object.entries(definition.fields).filter(([, field]) => !field.computed);
}

/**
 * Fields an update takes: all writable ones — but of a document only those its spec names
 * (`notes`, a due date …), since its party, location, date and lines moved stock or money.
 */
export function updatableFields(definition: ResourceDefinition): [string, Field][] {
  const later = definition.document?.updatable;
  return writableFields(definition).filter(([name]) => !definition.document || (later ?? []).includes(name));
}

/** Fields a read returns (everything but passwords and pins). */
export function readableFields(definition: ResourceDefinition): [string, Field][] {
  return Object.entries(definition.fields).filter(([, field]) => !field.writeOnly);
}

/** `brand_id` → `brand`: where a read carries the referenced record as `{ id, display }`. */
export function referenceKey(fieldName: string): string {
  return fieldName.replace(/_id$/, '');
}
