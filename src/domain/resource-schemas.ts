import { z } from 'zod';
import { valueOf } from './field-values';
import type { Field } from './fields';
import { updatableFields, writableFields, type ResourceDefinition } from './resource';

/**
 * The bodies a resource's create and update take, as zod schemas built from its definition:
 * checked by the server's routes and, before sending, by the forms.
 */

function isBlank(input: unknown): boolean {
  return input === null || input === undefined || (typeof input === 'string' && input.trim() === '');
}

/** A required field: a blank value reads as missing, so it earns "The x field is required." */
function requiredInput(field: Field) {
  return z.preprocess((input) => (isBlank(input) ? undefined : input), valueOf(field));
}

/** An optional field: a blank value clears it. */
function optionalInput(field: Field) {
  return z.preprocess((input) => (isBlank(input) ? null : input), valueOf(field).nullable()).optional();
}

/** The body of `POST /api/{name}`. Unknown keys are dropped. */
export function createSchema(definition: ResourceDefinition) {
  const shape = Object.fromEntries(
    writableFields(definition).map(([name, field]) => [name, field.required ? requiredInput(field) : optionalInput(field)]),
  );
  return z.object(shape);
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
