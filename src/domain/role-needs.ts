import { pricingOf } from './pricing';
import { permissionName, type PermissionAction } from './permissions';
import type { ResourceDefinition } from './resource';
import { getResource } from './resources/registry';

/**
 * What a person must be able to read to fill in a resource's form: every resource its pickers
 * look up (reference fields, a branch-or-warehouse field's both kinds, the contact types a contact
 * picker is narrowed by), and for a document
 * with lines the items, units and conversions of the line editor, the price list its lines are
 * priced from, and the stock of the place its goods leave. Roles are built from it, so a role that
 * may make a document can also fill in its form.
 */
export function formReads(definition: ResourceDefinition): string[] {
  const reads = new Set<string>();
  for (const field of Object.values(definition.fields)) {
    if (field.computed) continue;
    if (field.references && !field.author) reads.add(field.references);
    // A contact picker narrowed to customers or suppliers finds that contact type by its name.
    if (field.contactType) reads.add('contact-types');
    // A place named by its type (branch or warehouse) needs both kinds. A document named by its type
    // (a memo's document) needs only the documents the role works with, which it reads already.
    for (const resource of Object.values(field.referencesBy?.resources ?? {})) if (!getResource(resource).document) reads.add(resource);
  }
  const spec = definition.document;
  if (spec?.source) reads.add(spec.source.resource);
  if (spec && spec.lines !== 'none') for (const resource of ['items', 'unit-of-measurements', 'conversions']) reads.add(resource);
  const pricing = pricingOf(spec);
  if (pricing) reads.add(pricing.list === 'purchase' ? 'purchase-item-prices' : 'sale-item-prices');
  if (spec?.stock === 'out' || spec?.stock === 'both' || spec?.twoLocations) reads.add('stocks');
  reads.delete(definition.name);
  return [...reads].sort();
}

/**
 * A job's permissions: to view, create and update each resource it makes (and `also`, the further
 * actions it takes, such as voiding), plus to view everything those forms read.
 */
export function jobPermissions(makes: readonly string[], also: readonly [PermissionAction, string][] = []): string[] {
  const names = new Set<string>();
  for (const name of makes) {
    const definition = getResource(name);
    for (const action of ['view', 'create', 'update'] as const) names.add(permissionName(action, definition.permission));
    for (const read of formReads(definition)) names.add(permissionName('view', getResource(read).permission));
  }
  for (const [action, name] of also) names.add(permissionName(action, getResource(name).permission));
  return [...names].sort();
}
