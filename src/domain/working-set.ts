import type { ResourceDefinition } from './resource';
import { getResource } from './resources/registry';

/**
 * A device's working set: what it keeps of a business so that the people on it can scan, price,
 * count and read their places' records with no network. The server sends it (`/api/sync`), the
 * same rules as every list deciding what each user receives (their permissions and places); the
 * client keeps it in the user's IndexedDB and keeps it current by the change log's deltas.
 *
 * Kept whole: the catalogue, prices, contacts, the places themselves and stock. Of documents, the
 * open ones only (a status of tone `open` or `outstanding`): what the floor still works on.
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

/** Whether a record as the client holds it still belongs to the working set (an open document, or any record not trashed). */
export function belongsToWorkingSet(resource: string, record: Readonly<Record<string, unknown>>): boolean {
  if (record.deleted_at) return false;
  const statuses = workingStatuses(getResource(resource));
  return statuses === undefined || statuses.includes(String(record.status));
}
