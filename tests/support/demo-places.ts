import type { PlaceGrant } from '../../src/domain/places';
import type { DatabaseKind } from '../../src/server/db/dialect';
import { startWithPlaces, userWithPermissions, type Place, type Session, type TestApp } from './test-app';

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
