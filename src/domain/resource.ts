import { z } from 'zod';
import type { DocumentSpec } from './documents';
import type { Field } from './fields';

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
    ...input,
    sort: [...new Set([...ALWAYS_SORTABLE, ...(input.sort ?? [])])],
  };
  for (const name of [...definition.search, ...definition.sort, ...definition.columns, definition.display]) {
    if (name !== 'id' && !(ALWAYS_SORTABLE as readonly string[]).includes(name) && !(name in definition.fields)) {
      throw new Error(`Resource ${definition.name} names an unknown field "${name}"`);
    }
  }
  return definition;
}

function isBlank(input: unknown): boolean {
  return input === null || input === undefined || (typeof input === 'string' && input.trim() === '');
}

/** A required field: a blank value reads as missing, so it earns "The x field is required." */
function requiredInput(field: Field) {
  return z.preprocess((input) => (isBlank(input) ? undefined : input), field.value);
}

/** An optional field: a blank value clears it. */
function optionalInput(field: Field) {
  return z.preprocess((input) => (isBlank(input) ? null : input), field.value.nullable()).optional();
}

/** Fields a create or update takes: all but those the server sets. */
export function writableFields(definition: ResourceDefinition): [string, Field][] {
  return Object.entries(definition.fields).filter(([, field]) => !field.computed);
}

/** The body of `POST /api/{name}`. Unknown keys are dropped. */
export function createSchema(definition: ResourceDefinition) {
  const shape = Object.fromEntries(
    writableFields(definition).map(([name, field]) => [name, field.required ? requiredInput(field) : optionalInput(field)]),
  );
  return z.object(shape);
}

/**
 * Fields an update takes: all writable ones — but of a document only those its spec names
 * (`notes`, a due date …), since its party, location, date and lines moved stock or money.
 */
export function updatableFields(definition: ResourceDefinition): [string, Field][] {
  const later = definition.document?.updatable;
  return writableFields(definition).filter(([name]) => !definition.document || (later ?? []).includes(name));
}

/**
 * What a document fixed when it was made (its party, place, date, lines …): named in an update,
 * each is refused with its own message rather than dropped, so nobody takes a 200 for a change
 * that was never made.
 */
function fixedOnceMade(definition: ResourceDefinition): [string, z.ZodType][] {
  const spec = definition.document;
  if (!spec) return [];
  const updatable = new Set<string>(spec.updatable ?? []);
  const fixed = writableFields(definition)
    .filter(([name]) => !updatable.has(name))
    .map(([name, field]) => [name, field.label.toLowerCase()] as const);
  if (spec.lines !== 'none' && !updatable.has('lines')) fixed.push(['lines', 'lines']);
  const singular = definition.singular.toLowerCase();
  return fixed.map(([name, label]) => [
    name,
    z.undefined({ error: `The ${label} cannot change once this ${singular} is made.` }).optional(),
  ]);
}

/** The body of `PATCH /api/{name}/{id}`: any subset of the updatable fields; required ones cannot be blanked. */
export function updateSchema(definition: ResourceDefinition) {
  const shape = Object.fromEntries([
    ...fixedOnceMade(definition),
    ...updatableFields(definition).map(([name, field]) => [name, field.required ? requiredInput(field).optional() : optionalInput(field)]),
  ]);
  return z.object(shape);
}

/** Fields a read returns (everything but passwords and pins). */
export function readableFields(definition: ResourceDefinition): [string, Field][] {
  return Object.entries(definition.fields).filter(([, field]) => !field.writeOnly);
}

/** `brand_id` → `brand`: where a read carries the referenced record as `{ id, display }`. */
export function referenceKey(fieldName: string): string {
  return fieldName.replace(/_id$/, '');
}
