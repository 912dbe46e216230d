import { todayInManila } from '../../src/domain/documents';
import type { PlaceGrant } from '../../src/domain/places';
import type { DatabaseKind } from '../../src/server/db/dialect';
import {
  permissionsOn,
  startWithPlaces,
  stockLevel,
  stockUp,
  userWithPermissions,
  type Place,
  type Session,
  type TestApp,
} from './test-app';

/** The demo's branches and warehouses by the short names the suites of places call them. */
export interface DemoPlaces {
  makati: Place;
  quezon: Place;
  cebu: Place;
  valenzuela: Place;
  mandaue: Place;
}

/** `startWithPlaces(kind)`, with the demo's places by short name. */
export async function startAtDemoPlaces(kind: DatabaseKind) {
  const start = await startWithPlaces(kind);
  const named = start.places;
  const place: DemoPlaces = {
    makati: named.Makati,
    quezon: named['Quezon City'],
    cebu: named.Cebu,
    valenzuela: named['Valenzuela Central'],
    mandaue: named.Mandaue,
  };
  return { ...start, place };
}

/** A user of `businessId` holding `granted` and working only at the places given, signed in. */
export async function placedUser(test: TestApp, businessId: number, granted: string[], ...grants: PlaceGrant[]): Promise<Session> {
  return (await userWithPermissions(test, businessId, granted, { all: null, grants })).session;
}

/** Every permission on each step of logistics: stock requests, transfers, receives and returns. */
export const LOGISTICS = permissionsOn(['stock-requests', 'stock-transfers', 'stock-receives', 'stock-returns']);

/**
 * The start of the suites of goods moved between the demo's places: `startAtDemoPlaces(kind)` with
 * `quantity` of its item found today at each place of `stockedAt`; `placed` signs in a user of the
 * business as `placedUser` does, and `stock` reads what there is of the item at a place.
 */
export async function startMovingGoods(kind: DatabaseKind, stockedAt: (keyof DemoPlaces)[], quantity: number) {
  const start = await startAtDemoPlaces(kind);
  const { test, admin, businessId, item, place } = start;
  for (const at of stockedAt) await stockUp(admin, place[at], item, quantity, { date: todayInManila(), reason: 'found' });
  return {
    ...start,
    placed: (granted: string[], ...grants: PlaceGrant[]) => placedUser(test, businessId, granted, ...grants),
    stock: (at: Place) => stockLevel(admin, item.id, at),
  };
}
