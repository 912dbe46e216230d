import { describe, expect, it } from 'vitest';
import { getResource } from '../../domain/resources/registry';
import { offeredAt, placeFieldsOf, placeInputOf, placesAt, placesOfProfile, soleOperatingPlace, type Place } from './places';

const place = (type: Place['type'], id: number, name: string, level: Place['level']): Place => ({
  type,
  id,
  code: name.slice(0, 3).toUpperCase(),
  name,
  level,
});
const makati = place('branch', 1, 'Makati', 'operate');
const quezon = place('branch', 2, 'Quezon City', 'view');
const cebu = place('branch', 3, 'Cebu', null);
const valenzuela = place('warehouse', 4, 'Valenzuela Central', null);
const mandaue = place('warehouse', 5, 'Mandaue', null);
/** The Makati cashier: operates there, views Quezon City, and only knows the rest by name. */
const cashier = [makati, quezon, cebu, valenzuela, mandaue];

const inputOf = (resource: string, name: string, places: Place[], values: Record<string, unknown>) =>
  placeInputOf(placeFieldsOf(getResource(resource))[name], places, values, name);

describe('which fields of a form name a place', () => {
  it('a document names its place by a branch or a warehouse column, where it is made', () => {
    expect(placeFieldsOf(getResource('invoices'))).toEqual({
      branch_id: { end: 'place', operates: true, role: 'id', type: 'branch' },
      warehouse_id: { end: 'place', operates: true, role: 'id', type: 'warehouse' },
    });
  });

  it('a stock request is made at its requesting place (to_); it asks another (from_)', () => {
    const fields = placeFieldsOf(getResource('stock-requests'));
    expect(fields.to_location_type).toEqual({ end: 'to', operates: true, role: 'type', idField: 'to_location_id' });
    expect(fields.to_location_id).toEqual({ end: 'to', operates: true, role: 'id', typeField: 'to_location_type' });
    expect(fields.from_location_id).toMatchObject({ end: 'from', operates: false });
  });

  it('a transfer is made where the goods leave (from_)', () => {
    const fields = placeFieldsOf(getResource('stock-transfers'));
    expect(fields.from_location_id.operates).toBe(true);
    expect(fields.to_location_id.operates).toBe(false);
  });

  it('a branch is itself a place, and has no place field; an item has none', () => {
    expect(placeFieldsOf(getResource('branches'))).toEqual({});
    expect(placeFieldsOf(getResource('items'))).toEqual({});
  });
});

describe('which places a field offers', () => {
  it('where a record is made, only the places the user operates at; another end, every place of the business', () => {
    const fields = placeFieldsOf(getResource('stock-requests'));
    expect(offeredAt(cashier, fields.to_location_id)).toEqual([makati]);
    expect(offeredAt(cashier, fields.from_location_id)).toEqual(cashier);
  });

  it('picks the levels and types asked for', () => {
    expect(placesAt(cashier, 'view')).toEqual([makati, quezon]);
    expect(placesAt(cashier, 'view', 'warehouse')).toEqual([]);
    expect(placesAt(cashier, 'operate', 'branch')).toEqual([makati]);
  });

  it('knows the one place a user operates at, and not when there are more or none', () => {
    expect(soleOperatingPlace(cashier)).toEqual(makati);
    expect(soleOperatingPlace([makati, { ...valenzuela, level: 'operate' }])).toBeUndefined();
    expect(soleOperatingPlace([quezon])).toBeUndefined();
  });

  it('reads single places from the profile when the list was never kept, but not every place', () => {
    expect(placesOfProfile({ places: { all: null, grants: [{ type: 'branch', id: 1, level: 'operate', name: 'Makati' }] } })).toEqual([
      { type: 'branch', id: 1, code: '', name: 'Makati', level: 'operate' },
    ]);
    expect(placesOfProfile({ places: { all: 'operate', grants: [] } })).toBeUndefined();
    expect(placesOfProfile(undefined)).toBeUndefined();
  });
});

describe('how a place field shows', () => {
  it("the cashier's invoice: Makati said as text, no warehouse field", () => {
    const values = { branch_id: 1, warehouse_id: null };
    expect(inputOf('invoices', 'branch_id', cashier, values)).toEqual({ as: 'text', place: makati });
    expect(inputOf('invoices', 'warehouse_id', cashier, values)).toEqual({ as: 'hidden' });
  });

  it('a user operating at several places picks among them, by type; a type they operate nowhere at is left out', () => {
    const staff = [makati, { ...quezon, level: 'operate' as const }, cebu, valenzuela];
    expect(inputOf('invoices', 'branch_id', staff, { branch_id: null, warehouse_id: null })).toEqual({
      as: 'picker',
      choices: [makati, { ...quezon, level: 'operate' }],
    });
    expect(inputOf('invoices', 'warehouse_id', staff, { branch_id: null, warehouse_id: null })).toEqual({ as: 'hidden' });
    // A warehouse from the source document stays in sight.
    expect(inputOf('invoices', 'warehouse_id', staff, { branch_id: null, warehouse_id: 4 })).toEqual({ as: 'picker', choices: [] });
  });

  it('a user operating nowhere still sees the fields, with nothing to pick', () => {
    expect(inputOf('invoices', 'branch_id', [quezon, valenzuela], { branch_id: null })).toEqual({ as: 'picker', choices: [] });
  });

  it("branch staff's stock request: asked for Makati (said), from any place of the business", () => {
    const values = { to_location_type: 'branch', to_location_id: 1, from_location_type: 'warehouse', from_location_id: null };
    expect(inputOf('stock-requests', 'to_location_type', cashier, values)).toEqual({ as: 'hidden' });
    expect(inputOf('stock-requests', 'to_location_id', cashier, values)).toEqual({ as: 'text', place: makati });
    expect(inputOf('stock-requests', 'from_location_type', cashier, values)).toEqual({ as: 'types', types: ['branch', 'warehouse'] });
    expect(inputOf('stock-requests', 'from_location_id', cashier, values)).toEqual({ as: 'picker', choices: [valenzuela, mandaue] });
  });

  it('a transfer leaves from the places operated at, of the type chosen', () => {
    const operator = [makati, { ...valenzuela, level: 'operate' as const }, mandaue];
    const values = { from_location_type: 'warehouse', from_location_id: null };
    expect(inputOf('stock-transfers', 'from_location_type', operator, values)).toEqual({ as: 'types', types: ['branch', 'warehouse'] });
    expect(inputOf('stock-transfers', 'from_location_id', operator, values)).toEqual({
      as: 'picker',
      choices: [{ ...valenzuela, level: 'operate' }],
    });
    expect(inputOf('stock-transfers', 'from_location_type', [makati, mandaue], { from_location_type: '' })).toEqual({
      as: 'types',
      types: ['branch'],
    });
  });
});
