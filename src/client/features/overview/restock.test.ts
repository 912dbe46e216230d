import { describe, expect, it } from 'vitest';
import { MASTER_PERMISSION } from '../../../domain/permissions';
import type { OutboxEntry } from '../../lib/outbox-queue';
import type { PlaceLevel } from '../../../domain/places';
import type { Actor } from '../../../domain/where-made';
import { placeAccessFrom } from '../../lib/actor';
import type { Place } from '../../lib/places';
import { restockOf } from './restock';

const makati: Place = { type: 'branch', id: 1, code: 'MK', name: 'Makati', level: 'operate' };
const pasig: Place = { type: 'branch', id: 2, code: 'PS', name: 'Pasig', level: null };
const central: Place = { type: 'warehouse', id: 1, code: 'VC', name: 'Valenzuela Central', level: null };

/** The signed-in user as the overview reads them: their permissions, and the places listed with their level at each (or none known). */
const holding = (permissions: string[], places: Place[] | undefined, all: PlaceLevel | null): Actor => ({
  permissions,
  places: placeAccessFrom(permissions, places, all),
});

const branchStaff = holding(['view-stocks', 'create-stock-requests', 'view-stock-requests'], [makati, pasig, central], null);
/** The demo's warehouse staff: they may make requests (to their warehouse), operate at it, and view the branches. */
const warehouseStaff = holding(
  ['view-stocks', 'create-stock-requests', 'view-stock-requests', 'create-stock-transfers'],
  [
    { ...makati, level: 'view' },
    { ...pasig, level: 'view' },
    { ...central, level: 'operate' },
  ],
  null,
);
const purchasing = holding(
  ['view-stocks', 'create-purchase-orders'],
  [
    { ...makati, level: 'view' },
    { ...pasig, level: 'view' },
    { ...central, level: 'operate' },
  ],
  'view',
);

const MILO = 5;
const at = (place: Place, open_request: { id: number; number: string } | null = null) => ({
  location_type: place.type,
  location_id: place.id,
  item_id: MILO,
  open_request,
});

/** A change in this device's outbox, as the form queues it. */
const queued = (change: Partial<OutboxEntry>): OutboxEntry => ({
  key: 'c0ffee00-0000-4000-8000-000000000001',
  businessId: 1,
  resource: 'stock-requests',
  action: 'create',
  recordId: 'c0ffee00-0000-4000-8000-000000000001',
  method: 'POST',
  path: '/api/stock-requests',
  label: 'Create Stock Request',
  createdAt: 0,
  attempts: 0,
  state: 'queued',
  ...change,
});
const asking = (place: Place, item: number) => ({
  from_location_type: 'warehouse',
  from_location_id: central.id,
  to_location_type: place.type,
  to_location_id: place.id,
  lines: [{ item_id: 9 }, { item_id: item }],
});

describe('restockOf', () => {
  it('offers a request for stock where the user operates at the branch and may create requests', () => {
    expect(restockOf(at(makati), branchStaff)).toEqual({ kind: 'start', resource: 'stock-requests', label: 'Request stock' });
    // Another branch, which they do not work at.
    expect(restockOf(at(pasig), branchStaff)).toBeNull();
    // A warehouse is restocked by an order, which branch staff may not make.
    expect(restockOf(at(central), branchStaff)).toBeNull();
  });

  it('never offers warehouse staff to ask for a branch’s stock, though they may make requests', () => {
    expect(restockOf(at(makati), warehouseStaff)).toBeNull();
    expect(restockOf(at(pasig), warehouseStaff)).toBeNull();
    // Nor an order: they buy nothing.
    expect(restockOf(at(central), warehouseStaff)).toBeNull();
  });

  it('offers an order only where the user buys into the warehouse', () => {
    expect(restockOf(at(central), purchasing)).toEqual({ kind: 'start', resource: 'purchase-orders', label: 'Order' });
    expect(restockOf(at(makati), purchasing)).toBeNull();
  });

  it('shows the open request already asking for the stock instead of a second one', () => {
    const requested = { id: 7, number: 'SR-20261114-W00001-00000007' };
    expect(restockOf(at(makati, requested), branchStaff)).toEqual({ kind: 'requested', ...requested });
  });

  it('shows a request made on this device and not yet sent, until the server names it', () => {
    const made = queued({ body: asking(makati, MILO) });
    expect(restockOf(at(makati), branchStaff, [made])).toEqual({ kind: 'requested', id: made.key, number: null });
    // For another item, at another place, from the place rather than to it, or not a create: still to be asked for.
    for (const other of [
      queued({ body: asking(makati, 6) }),
      queued({ body: asking(pasig, MILO) }),
      queued({ body: { ...asking(central, MILO), from_location_type: 'branch', from_location_id: makati.id } }),
      queued({ action: 'update', body: asking(makati, MILO) }),
    ]) {
      expect(restockOf(at(makati), branchStaff, [other])).toMatchObject({ kind: 'start', label: 'Request stock' });
    }
    const sent = { id: 7, number: 'SR-20261114-W00001-00000007' };
    expect(restockOf(at(makati, sent), branchStaff, [made])).toEqual({ kind: 'requested', ...sent });
  });

  it('decides by the all-places level when the places are not known, and offers everything to a master', () => {
    // A master operates everywhere, whatever the places say.
    const master = holding([MASTER_PERMISSION], [{ ...makati, level: 'view' }], null);
    expect(restockOf(at(pasig), master)).toMatchObject({ kind: 'start', label: 'Request stock' });
    expect(restockOf(at(central), master)).toMatchObject({ kind: 'start', label: 'Order' });
    const viewer = holding(['create-stock-requests'], undefined, 'view');
    expect(restockOf(at(makati), holding(['create-stock-requests'], undefined, 'operate'))).toMatchObject({ kind: 'start' });
    expect(restockOf(at(makati), viewer)).toBeNull();
  });
});
