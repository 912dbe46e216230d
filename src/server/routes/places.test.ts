import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceAccess, PlaceLevel, PlaceType } from '../../domain/places';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * `GET /api/places`: every live branch and warehouse of the active business, by code and name
 * only, with the caller's level at each — a master's and an all-places holder's everywhere (places
 * added later included), a confined user's where they were given and null elsewhere.
 */

describe.each(databaseKinds)('the places of a business on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  const place: Record<string, { type: PlaceType; id: number }> = {};
  const at = (name: string, level: PlaceLevel) => ({ ...place[name], level });

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    for (const row of (await admin.send('GET', '/api/places')).body.data) place[row.name] = { type: row.type, id: row.id };
  });
  afterAll(() => test.close());

  /** What `session` is told: its all-places level, and each place as `name: level`. */
  async function levels(session: Session) {
    const answer = await session.send('GET', '/api/places');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return {
      all: answer.body.all,
      places: answer.body.data.map(
        (row: { type: string; name: string; level: PlaceLevel | null }) => `${row.type} ${row.name}: ${row.level}`,
      ),
    };
  }

  /** A user holding no permission at all, at `places`: the list needs none. */
  const placed = async (places: PlaceAccess) => (await userWithPermissions(test, businesses[0], [], places)).session;

  it('names every place to a master, branches then warehouses by name, by code and name only', async () => {
    const answer = await admin.send('GET', '/api/places');
    expect(answer.status).toBe(200);
    expect(answer.body.all).toBe('operate');
    expect(answer.body.data).toEqual([
      { type: 'branch', id: place.Cebu.id, code: 'CEB', name: 'Cebu', level: 'operate' },
      { type: 'branch', id: place.Makati.id, code: 'MKT', name: 'Makati', level: 'operate' },
      { type: 'branch', id: place['Quezon City'].id, code: 'QC', name: 'Quezon City', level: 'operate' },
      { type: 'warehouse', id: place.Mandaue.id, code: 'WH-CEB', name: 'Mandaue', level: 'operate' },
      { type: 'warehouse', id: place['Valenzuela Central'].id, code: 'WH-VAL', name: 'Valenzuela Central', level: 'operate' },
    ]);
    // The master permission operates everywhere, whatever the user's own places say.
    const master = (await userWithPermissions(test, businesses[0], [MASTER_PERMISSION], { all: null, grants: [] })).session;
    expect(await levels(master)).toEqual(await levels(admin));
  });

  it('tells a confined user their level where they work and null elsewhere, naming every place', async () => {
    expect(await levels(await placed({ all: null, grants: [at('Makati', 'operate'), at('Mandaue', 'view')] }))).toEqual({
      all: null,
      places: [
        'branch Cebu: null',
        'branch Makati: operate',
        'branch Quezon City: null',
        'warehouse Mandaue: view',
        'warehouse Valenzuela Central: null',
      ],
    });
    expect(await levels(await placed({ all: null, grants: [] }))).toEqual({
      all: null,
      places: [
        'branch Cebu: null',
        'branch Makati: null',
        'branch Quezon City: null',
        'warehouse Mandaue: null',
        'warehouse Valenzuela Central: null',
      ],
    });
    // All places at view, and one to operate: the higher of the two there.
    expect(await levels(await placed({ all: 'view', grants: [at('Makati', 'operate'), at('Cebu', 'view')] }))).toEqual({
      all: 'view',
      places: [
        'branch Cebu: view',
        'branch Makati: operate',
        'branch Quezon City: view',
        'warehouse Mandaue: view',
        'warehouse Valenzuela Central: view',
      ],
    });
    // The demo's warehouse staff: their warehouse to operate, every branch to view.
    const warehouse = await test.signIn('warehouse@example.com', undefined, businesses[0]);
    expect(await levels(warehouse)).toEqual({
      all: null,
      places: [
        'branch Cebu: view',
        'branch Makati: view',
        'branch Quezon City: view',
        'warehouse Mandaue: null',
        'warehouse Valenzuela Central: operate',
      ],
    });
  });

  it('follows the places as they are: a new one is held under "All places" only, a trashed one is gone', async () => {
    const everywhere = await placed({ all: 'view', grants: [] });
    const confined = await placed({ all: null, grants: [at('Makati', 'operate')] });
    const added = await admin.send('POST', '/api/warehouses', { code: `NEW-${kind}`, name: 'Navotas' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await levels(everywhere)).places).toContain('warehouse Navotas: view');
    expect((await levels(confined)).places).toContain('warehouse Navotas: null');
    expect((await levels(admin)).places).toContain('warehouse Navotas: operate');

    expect((await admin.send('DELETE', `/api/warehouses/${added.body.data.id}`)).status).toBe(200);
    for (const session of [everywhere, confined, admin])
      expect((await levels(session)).places).not.toContain(expect.stringMatching(/Navotas/));
  });

  it("names only the active business's places, and only to a signed-in member", async () => {
    const hardware = await admin.inBusiness(businesses[1]).send('GET', '/api/places');
    expect(hardware.status).toBe(200);
    expect(hardware.body.data.map((row: { name: string }) => row.name)).toEqual(['Cebu Downtown', 'Talisay Yard']);

    const outsider = await placed({ all: 'operate', grants: [] });
    expect((await outsider.inBusiness(businesses[1]).send('GET', '/api/places')).status).toBe(403);
    const anonymous = await test.app.inject({ method: 'GET', url: '/api/places', headers: { 'business-id': String(businesses[0]) } });
    expect(anonymous.statusCode).toBe(401);
    expect(test.errorLines).toEqual([]);
  });
});
