import { todayInManila } from './documents';
import type { ResourceDefinition } from './resource';
import { getResource, registry } from './resources/registry';

/**
 * A device's working set: what it keeps of a business so that the people on it can scan, price,
 * count and read their places' records with no network. The server sends it (`/api/sync`), the
 * same rules as every list deciding what each user receives (their permissions and places); the
 * client keeps it in the user's IndexedDB and keeps it current by the change log's deltas.
 *
 * Kept whole: the catalogue, prices, contacts, the places themselves and stock. Of documents, the
 * open ones (a status of tone `open` or `outstanding`): what the floor still works on; and of the
 * kinds goods come back from (invoices), those closed (paid) in the last RETURN_DAYS days too: a
 * customer brings back yesterday's purchase to a counter whose network is down.
 */
export const WORKING_SET: readonly string[] = [
  // The catalogue.
  'items',
  'brands',
  'item-types',
  'item-classifications',
  'unit-of-measurements',
  'measuring-masses',
  'conversions',
  'services',
  // Prices.
  'sale-item-prices',
  'service-prices',
  'purchase-item-prices',
  // Parties and places.
  'contact-types',
  'contacts',
  'branches',
  'warehouses',
  // Stock at the user's places.
  'stocks',
  // Open documents at the user's places.
  'purchase-orders',
  'bills',
  'quotations',
  'invoices',
  'stock-requests',
  'stock-transfers',
  'stock-returns',
  'stock-counts',
];

export const inWorkingSet = (resource: string): boolean => WORKING_SET.includes(resource);

/** The statuses in which a document belongs to the working set (still worked on); undefined: every record does. */
export function workingStatuses(definition: ResourceDefinition): string[] | undefined {
  const statuses = definition.document?.lifecycle?.statuses;
  if (!statuses) return undefined;
  return Object.entries(statuses)
    .filter(([, tone]) => tone === 'open' || tone === 'outstanding')
    .map(([status]) => status);
}

/**
 * How many days back a closed document goods come back from stays in the working set: a week, as
 * counters here take goods back within seven days of the sale.
 */
export const RETURN_DAYS = 7;

let returnedKinds: ReadonlySet<string> | undefined;

/** Whether goods come back from documents of this kind: a kind taking goods back (`lines: 'returns'`) is made from it. */
function returnedFrom(definition: ResourceDefinition): boolean {
  returnedKinds ??= new Set(
    registry.flatMap((kind) => (kind.document?.lines === 'returns' && kind.document.source ? [kind.document.source.resource] : [])),
  );
  return returnedKinds.has(definition.name);
}

/**
 * Of a kind goods come back from, the closed documents still in the working set on `today`: those
 * done (a status of tone `complete`: paid) and dated `since` or later. Undefined for other kinds.
 */
export function recentlyClosed(definition: ResourceDefinition, today = todayInManila()): { statuses: string[]; since: string } | undefined {
  const statuses = definition.document?.lifecycle?.statuses;
  if (!statuses || !returnedFrom(definition)) return undefined;
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - RETURN_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return { statuses: Object.keys(statuses).filter((status) => statuses[status] === 'complete'), since };
}

/** Whether a record as the client holds it still belongs to the working set (an open or recently closed document, or any record not trashed). */
export function belongsToWorkingSet(resource: string, record: Readonly<Record<string, unknown>>, today = todayInManila()): boolean {
  if (record.deleted_at) return false;
  const definition = getResource(resource);
  const statuses = workingStatuses(definition);
  if (statuses === undefined || statuses.includes(String(record.status))) return true;
  const recent = recentlyClosed(definition, today);
  return (
    recent !== undefined &&
    recent.statuses.includes(String(record.status)) &&
    typeof record.date === 'string' &&
    record.date >= recent.since
  );
}
