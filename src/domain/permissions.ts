import { OVERRIDE_CREDIT_LIMITS_PERMISSION } from './resources/invoices';
import { registry } from './resources/registry';

/** The master permission; spelled as the product has always spelled it. */
export const MASTER_PERMISSION = 'full-access-and-permssions';

/** Service prices are gated by this single name in the sidebar, not by six. */
export const SERVICE_PRICES_PERMISSION = 'service-prices';

/** Reads the activity log of the whole business (each record's own history needs only its view-). */
export const VIEW_ACTIVITY_PERMISSION = 'view-activity';

/** Sees what goods cost: each line's cost, a sale's cost of goods and margin, stock at cost (docs/costing.md). */
export const VIEW_COSTS_PERMISSION = 'view-costs';

export const PERMISSION_ACTIONS = ['view', 'create', 'update', 'delete', 'restore', 'force-delete'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/**
 * Every prefix that carries the six per-resource permissions: each definition's `permission`, in
 * registry order. Every prefix the product has is a resource today (`service-prices` included: it
 * has its six as well as the single sidebar name above), so no prefix is kept by hand; one that is
 * not a resource would be appended here, with a note saying why.
 */
export const PERMISSION_PREFIXES: readonly string[] = [...new Set(registry.map((definition) => definition.permission))];

export function permissionName(action: PermissionAction, prefix: string): string {
  return `${action}-${prefix}`;
}

export interface PermissionSeed {
  name: string;
  group: string;
}

/** The full seeded list: six per prefix, then `service-prices`, `view-activity`, `view-costs`, `override-credit-limits` (with the invoices') and the master permission. */
export function allPermissions(): PermissionSeed[] {
  const seeds: PermissionSeed[] = PERMISSION_PREFIXES.flatMap((prefix) =>
    PERMISSION_ACTIONS.map((action) => ({ name: permissionName(action, prefix), group: prefix })),
  );
  seeds.push({ name: SERVICE_PRICES_PERMISSION, group: 'service-prices' });
  seeds.push({ name: VIEW_ACTIVITY_PERMISSION, group: 'activity' });
  seeds.push({ name: VIEW_COSTS_PERMISSION, group: 'costs' });
  seeds.push({ name: OVERRIDE_CREDIT_LIMITS_PERMISSION, group: 'invoices' });
  seeds.push({ name: MASTER_PERMISSION, group: 'master' });
  return seeds;
}

/** True when the holder has the master permission or any one of `required`. */
export function holdsAny(held: ReadonlySet<string> | readonly string[], required: readonly string[]): boolean {
  const set = held instanceof Set ? held : new Set(held);
  return set.has(MASTER_PERMISSION) || required.some((name) => set.has(name));
}
