import { describe, expect, it } from 'vitest';
import { manilaDayBounds, transitionsFrom } from './lifecycle';
import { MASTER_PERMISSION } from './permissions';
import type { PlaceGrant } from './places';
import { getResource } from './resources/registry';
import { jobPermissions } from './role-needs';
import { mayMake, mayTake, placesFromSource, type Actor } from './where-made';

const makati = { type: 'branch', id: 1 } as const;
const quezon = { type: 'branch', id: 2 } as const;
const valenzuela = { type: 'warehouse', id: 1 } as const;
const grant = (place: typeof makati | typeof quezon | typeof valenzuela, level: PlaceGrant['level']): PlaceGrant => ({ ...place, level });

/** The demo's warehouse staff: the logistics documents, operating at the warehouse and viewing the branches. */
const warehouseStaff: Actor = {
  permissions: jobPermissions(['stock-requests', 'stock-transfers', 'stock-receives', 'stock-returns']),
  places: { all: null, grants: [grant(valenzuela, 'operate'), grant(makati, 'view'), grant(quezon, 'view')] },
  userId: 3,
};
/** The demo's branch staff: requests and receives, at their branch. */
const branchStaff: Actor = {
  permissions: jobPermissions(['stock-requests', 'stock-receives']),
  places: { all: null, grants: [grant(makati, 'operate')] },
  userId: 4,
};
/** Every permission of logistics, operating at the branch and viewing the warehouse. */
const branchManager: Actor = { ...warehouseStaff, places: { all: null, grants: [grant(makati, 'operate'), grant(valenzuela, 'view')] } };
const master: Actor = { permissions: [MASTER_PERMISSION], places: { all: 'operate', grants: [] } };

const between = (from: { type: string; id: number }, to: { type: string; id: number }) => ({
  from_location_type: from.type,
  from_location_id: from.id,
  to_location_type: to.type,
  to_location_id: to.id,
});
/** Goods from the warehouse to Makati: a request of Makati's, and the transfer carrying them. */
const toMakati = between(valenzuela, makati);
/** Goods from Makati back to the warehouse. */
const fromMakati = between(makati, valenzuela);

const receives = getResource('stock-receives');
const returns = getResource('stock-returns');
const transfers = getResource('stock-transfers');
const close = getResource('stock-transfers').document!.lifecycle.transitions.find((transition) => transition.name === 'close')!;
const voiding = getResource('stock-transfers').document!.lifecycle.transitions.find((transition) => transition.name === 'void')!;

describe('mayMake: a follow-on where it would be made', () => {
  it('a receive at the transfer’s destination: the branch receives what comes to it, the warehouse what comes back', () => {
    expect(mayMake(branchStaff, receives, toMakati)).toBe(true);
    expect(mayMake(warehouseStaff, receives, toMakati)).toBe(false);
    expect(mayMake(warehouseStaff, receives, fromMakati)).toBe(true);
    expect(mayMake(branchStaff, receives, fromMakati)).toBe(false);
  });

  it('a return from where the goods arrived, back to where they came from', () => {
    expect(placesFromSource(returns, toMakati)).toEqual(fromMakati);
    expect(mayMake(branchManager, returns, toMakati)).toBe(true);
    expect(mayMake(warehouseStaff, returns, toMakati)).toBe(false);
    // Branch staff make no returns at all.
    expect(mayMake(branchStaff, returns, toMakati)).toBe(false);
  });

  it('a transfer from where a request asks its goods from: the warehouse sends what a branch asked for', () => {
    expect(mayMake(warehouseStaff, transfers, toMakati)).toBe(true);
    expect(mayMake(branchManager, transfers, toMakati)).toBe(false);
    expect(mayMake(branchStaff, transfers, toMakati)).toBe(false);
    expect(mayMake(branchManager, transfers, fromMakati)).toBe(true);
  });

  it('a payment or a receive order at its source’s place', () => {
    const purchasing: Actor = {
      permissions: jobPermissions(['receive-orders', 'bill-payments']),
      places: { all: 'view', grants: [grant(valenzuela, 'operate')] },
    };
    const atWarehouse = { branch_id: null, warehouse_id: valenzuela.id };
    const atBranch = { branch_id: makati.id, warehouse_id: null };
    expect(mayMake(purchasing, getResource('receive-orders'), atWarehouse)).toBe(true);
    expect(mayMake(purchasing, getResource('receive-orders'), atBranch)).toBe(false);
    expect(mayMake(purchasing, getResource('bill-payments'), atWarehouse)).toBe(true);
    expect(mayMake(purchasing, getResource('bill-payments'), atBranch)).toBe(false);
  });

  it('anywhere for a master, never for who only views everywhere', () => {
    expect(mayMake(master, receives, toMakati)).toBe(true);
    expect(mayMake(master, returns, fromMakati)).toBe(true);
    const viewer: Actor = { permissions: jobPermissions(['stock-receives']), places: { all: 'view', grants: [] } };
    expect(mayMake(viewer, receives, toMakati)).toBe(false);
  });
});

describe('mayTake: a transition where the document is changed', () => {
  const transfer = { ...toMakati, status: 'partially_received', created_by: 3, created_at: '2020-01-01T00:00:00.000Z' };

  it('closes a transfer’s rest as lost by its receivers, at the destination, with the receives’ permission', () => {
    expect(transitionsFrom(getResource('stock-transfers').document!.lifecycle, 'partially_received')).toContain(close);
    expect(mayTake(branchStaff, transfers, close, transfer)).toBe(true);
    // The sender, who may void transfers, does not close what it sent.
    expect(mayTake(warehouseStaff, transfers, close, transfer)).toBe(false);
    const senderOnly: Actor = { ...branchStaff, permissions: jobPermissions(['stock-transfers']) };
    expect(mayTake(senderOnly, transfers, close, transfer)).toBe(false);
  });

  it('voids a transfer where it left, with the transfers’ delete permission', () => {
    const sent = { ...transfer, status: 'in_transit' };
    const voids = jobPermissions(['stock-transfers'], [['delete', 'stock-transfers']]);
    expect(mayTake({ ...warehouseStaff, permissions: voids }, transfers, voiding, sent)).toBe(true);
    expect(mayTake({ ...branchManager, permissions: voids }, transfers, voiding, sent)).toBe(false);
    // The demo's warehouse staff send transfers but void none.
    expect(mayTake(warehouseStaff, transfers, voiding, sent)).toBe(false);
  });

  it('voids an adjustment its maker made today without the delete permission, where they operate', () => {
    const adjustments = getResource('stock-adjustments');
    const voidIt = adjustments.document!.lifecycle.transitions.find((transition) => transition.name === 'void')!;
    const clerk: Actor = {
      permissions: jobPermissions(['stock-adjustments']).filter((name) => !name.startsWith('delete-')),
      places: { all: null, grants: [grant(makati, 'operate'), grant(quezon, 'view')] },
      userId: 9,
    };
    const now = new Date(manilaDayBounds('2026-03-02').start);
    const made = (by: number, day: string, place: { id: number }) => ({
      branch_id: place.id,
      warehouse_id: null,
      created_by: by,
      created_at: manilaDayBounds(day).start,
    });
    expect(mayTake(clerk, adjustments, voidIt, made(9, '2026-03-02', makati), now)).toBe(true);
    expect(mayTake(clerk, adjustments, voidIt, made(9, '2026-03-01', makati), now)).toBe(false);
    expect(mayTake(clerk, adjustments, voidIt, made(8, '2026-03-02', makati), now)).toBe(false);
    expect(mayTake(clerk, adjustments, voidIt, made(9, '2026-03-02', quezon), now)).toBe(false);
  });
});
