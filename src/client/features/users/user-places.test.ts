import { describe, expect, it } from 'vitest';
import type { Place } from '../../lib/places';
import {
  changesAll,
  defaultPlaces,
  describedPlaces,
  placeRows,
  placesBody,
  startingPlaces,
  withLevel,
  worksAtProblem,
} from './user-places';

const place = (type: Place['type'], id: number, name: string, level: Place['level']): Place => ({
  type,
  id,
  code: name.slice(0, 3),
  name,
  level,
});
/** As a branch manager sees them: they operate at Makati and view Quezon City. */
const manager = [
  place('branch', 1, 'Makati', 'operate'),
  place('branch', 2, 'Quezon City', 'view'),
  place('warehouse', 4, 'Valenzuela Central', null),
];

describe('a user’s places in their form', () => {
  it('starts from the record’s places; a new user’s wait for the editor’s own (null)', () => {
    const record = { places: { all: null, grants: [{ type: 'branch', id: 1, level: 'operate', name: 'Makati' }] } };
    expect(startingPlaces(record)).toEqual(record.places);
    expect(startingPlaces(undefined)).toBeNull();
  });

  it('a new user holds every place to operate when the editor may give it, else none until chosen', () => {
    expect(defaultPlaces('operate')).toEqual({ all: 'operate', grants: [] });
    expect(defaultPlaces('view')).toEqual({ all: null, grants: [] });
    expect(changesAll('operate')).toBe(true);
    expect(changesAll('view')).toBe(false);
    expect(changesAll(null)).toBe(false);
  });

  it('sends each place by type, id and level, without the names it shows; nothing while unchosen', () => {
    let value = withLevel({ all: 'view', grants: [] }, { type: 'branch', id: 1, name: 'Makati' }, 'operate');
    value = withLevel(value, { type: 'warehouse', id: 4, name: 'Valenzuela Central' }, 'view');
    value = withLevel(value, { type: 'branch', id: 1, name: 'Makati' }, 'view');
    expect(placesBody(value)).toEqual({
      all: 'view',
      grants: [
        { type: 'branch', id: 1, level: 'view' },
        { type: 'warehouse', id: 4, level: 'view' },
      ],
    });
    expect(placesBody(withLevel(value, { type: 'branch', id: 1 }, null))).toEqual({
      all: 'view',
      grants: [{ type: 'warehouse', id: 4, level: 'view' }],
    });
    expect(placesBody(null)).toBeUndefined();
  });

  it('offers to change only the places the editor operates at', () => {
    const rows = placeRows({ all: null, grants: [{ type: 'branch', id: 2, level: 'view' }] }, manager, 'view');
    expect(rows.map((row) => [row.name, row.level, row.changeable, row.held])).toEqual([
      ['Makati', null, true, 'operate'],
      ['Quezon City', 'view', false, 'view'],
      ['Valenzuela Central', null, false, null],
    ]);
  });

  it('says what All places gives beyond a place’s own grant', () => {
    const rows = placeRows({ all: 'view', grants: [{ type: 'branch', id: 1, level: 'operate' }] }, manager, 'operate');
    expect(rows.map((row) => row.throughAll)).toEqual([null, 'view', 'view']);
  });

  it('keeps a place the user holds that is no longer listed, changeable only by someone operating everywhere', () => {
    const value = { all: null, grants: [{ type: 'warehouse' as const, id: 9, level: 'view' as const, name: 'Old Depot' }] };
    const gone = placeRows(value, manager, 'view').find((row) => row.gone);
    expect(gone).toMatchObject({ name: 'Old Depot', level: 'view', changeable: false });
    expect(placeRows(value, manager, 'operate').find((row) => row.gone)?.changeable).toBe(true);
  });

  it('says before sending when where the user works is not one of their places', () => {
    const value = { all: null, grants: [{ type: 'branch' as const, id: 2, level: 'view' as const }] };
    expect(worksAtProblem(value, { userable_type: 'branch', userable_id: 2 }, manager)).toBeUndefined();
    expect(worksAtProblem(value, { userable_type: 'branch', userable_id: 1 }, manager)).toMatch(
      /works at Makati, which is not one of their places/,
    );
    expect(worksAtProblem({ all: 'view', grants: [] }, { userable_type: 'warehouse', userable_id: 4 }, manager)).toBeUndefined();
    expect(worksAtProblem(value, { userable_type: 'none', userable_id: null }, manager)).toBeUndefined();
  });

  it('lists the places with their levels for the user’s details', () => {
    expect(describedPlaces({ all: 'operate', grants: [] })).toEqual(['All places: operate']);
    expect(describedPlaces({ all: null, grants: [{ type: 'branch', id: 1, level: 'view', name: 'Makati' }] })).toEqual([
      'Makati (branch): view',
    ]);
    expect(describedPlaces({ all: null, grants: [] })).toEqual([]);
  });
});
