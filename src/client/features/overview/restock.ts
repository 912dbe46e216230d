import type { LocationType } from '../../../domain/documents';
import { getResource } from '../../../domain/resources/registry';
import { mayMake, type Actor } from '../../../domain/where-made';
import type { OutboxEntry } from '../../lib/outbox-queue';

/**
 * What the overview's low stock card offers for one stock: the request already asking for it (one
 * still on this device has a client key for its id and no number yet), a way to restock it, or nothing.
 */
export type Restock =
  | { kind: 'requested'; id: number | string; number: string | null }
  | { kind: 'start'; resource: 'stock-requests' | 'purchase-orders'; label: 'Request stock' | 'Order' }
  | null;

/** A low stock as the card reads it: where it is, of what, and the open stock request from there asking for its item. */
export interface LowStockRow {
  location_type: LocationType;
  location_id: number;
  item_id: number;
  open_request?: { id: number; number: string } | null;
}

/** What a stock request created on this device sends: where it asks for goods, and its lines' items. */
interface QueuedRequestBody {
  to_location_type?: unknown;
  to_location_id?: unknown;
  lines?: { item_id?: unknown }[];
}

/** The stock request created on this device, not yet sent, that asks for the stock's item at its place. */
function queuedRequestFor(stock: LowStockRow, queued: readonly OutboxEntry[]): OutboxEntry | undefined {
  return queued.findLast((entry) => {
    const body = (entry.body ?? {}) as QueuedRequestBody;
    return (
      entry.resource === 'stock-requests' &&
      entry.action === 'create' &&
      body.to_location_type === stock.location_type &&
      body.to_location_id === stock.location_id &&
      (body.lines ?? []).some((line) => line.item_id === stock.item_id)
    );
  });
}

/**
 * A branch restocks by asking for stock (a stock request, asking for goods for it); a warehouse by
 * ordering from a supplier (a purchase order into it): each with the place it would be made at.
 */
const RESTOCKED_BY = {
  branch: {
    resource: 'stock-requests',
    label: 'Request stock',
    at: (stock: LowStockRow) => ({ to_location_type: 'branch', to_location_id: stock.location_id }),
  },
  warehouse: {
    resource: 'purchase-orders',
    label: 'Order',
    at: (stock: LowStockRow) => ({ branch_id: null, warehouse_id: stock.location_id }),
  },
} as const;

/**
 * How a low stock is restocked from the overview. A stock already asked for by an open request
 * from its place shows that request, not a second "Request stock": one the server names (only to
 * those who may view requests), else one made on this device and still `queued` in its outbox.
 * Otherwise the way to restock it, to a user who may create that document and operates at the
 * stock's place, where the document is made (domain/where-made.ts) — so someone who only views a
 * branch (the warehouse that supplies it) is never offered to ask for its stock.
 */
export function restockOf(stock: LowStockRow, actor: Actor, queued: readonly OutboxEntry[] = []): Restock {
  const { resource, label, at } = RESTOCKED_BY[stock.location_type];
  if (stock.open_request) return { kind: 'requested', ...stock.open_request };
  const onDevice = queuedRequestFor(stock, queued);
  if (onDevice) return { kind: 'requested', id: onDevice.key, number: null };
  return mayMake(actor, getResource(resource), at(stock)) ? { kind: 'start', resource, label } : null;
}
