import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceLevel, PlaceType } from '../../domain/places';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * A user's places, given and taken through the users API (`services/user-places.ts`): read back
 * with their names, given only by someone who operates there, "works at" kept among them, every
 * change in the user's history, bad input refused with field messages, and two editors at once
 * leaving one editor's places, never a mix.
 */

interface Grant {
  type: PlaceType;
  id: number;
  level: PlaceLevel;
}
interface Places {
  all: PlaceLevel | null;
  grants: Grant[];
}

describe.each(databaseKinds)("a user's places on %s", (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  /** The demo business's places by name: Makati, Quezon City, Cebu; Valenzuela Central, Mandaue. */
  const place: Record<string, { type: PlaceType; id: number }> = {};
  const at = (name: string, level: PlaceLevel): Grant => ({ ...place[name], level });
  /** As a read says it: each grant with its place's name. */
  const named = (...grants: Grant[]) =>
    grants.map((grant) => ({
      ...grant,
      name: Object.keys(place).find((name) => place[name].id === grant.id && place[name].type === grant.type),
    }));
  let serial = 0;

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    for (const row of (await admin.send('GET', '/api/places')).body.data) place[row.name] = { type: row.type, id: row.id };
  });
  afterAll(() => test.close());

  /** A new user made by `by`, with `extra` (places, where they work) in the body. */
  function create(by: Session, extra: Record<string, unknown> = {}) {
    serial += 1;
    return by.send('POST', '/api/users', {
      name: `Placed ${serial}`,
      email: `placed-${serial}@example.com`,
      password: 'placed-pass',
      ...extra,
    });
  }

  async function createdWith(places: Places, extra: Record<string, unknown> = {}): Promise<number> {
    const answer = await create(admin, { places, ...extra });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data.id;
  }

  const placesOf = async (userId: number) => (await admin.send('GET', `/api/users/${userId}`)).body.data.places;

  /** The user's rows as stored: the all-places level, and each grant. */
  async function stored(userId: number) {
    const member = await test.app.db
      .selectFrom('memberships')
      .select('all_places')
      .where('user_id', '=', userId)
      .where('business_id', '=', businesses[0])
      .executeTakeFirstOrThrow();
    const grants = await test.app.db
      .selectFrom('user_places')
      .select(['place_type', 'place_id', 'level'])
      .where('user_id', '=', userId)
      .orderBy('place_type')
      .orderBy('place_id')
      .execute();
    return { all: member.all_places, grants: grants.map((row) => `${row.place_type}:${row.place_id}:${row.level}`) };
  }

  /** The same rows as `stored` says them, for `places` as written. */
  const storedAs = (places: Places) => ({
    all: places.all ?? 'none',
    grants: places.grants.map((grant) => `${grant.type}:${grant.id}:${grant.level}`).sort(),
  });

  async function placesHistory(userId: number) {
    const entries = (await admin.send('GET', `/api/users/${userId}/activity?per_page=100`)).body.data;
    return entries
      .filter((entry: { action: string }) => entry.action === 'places-changed')
      .reverse()
      .map((entry: { changes: { places: unknown }; user_name: string }) => ({ ...(entry.changes.places as object), by: entry.user_name }));
  }

  it('creates a user with their places, and reads them back with names: the record, their profile, and the places they see', async () => {
    const places = { all: null, grants: [at('Mandaue', 'view'), at('Makati', 'operate')] };
    const answer = await create(admin, { places });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const expected = { all: null, grants: named(at('Makati', 'operate'), at('Mandaue', 'view')) };
    expect(answer.body.data.places).toEqual(expected);
    expect(await placesOf(answer.body.data.id)).toEqual(expected);
    expect(await stored(answer.body.data.id)).toEqual(storedAs(places));

    const user = await test.signIn(answer.body.data.email, 'placed-pass', businesses[0]);
    expect((await user.send('GET', '/api/auth/user')).body.places).toEqual(expected);
    // Every live place named, with their level there: none where they do not work.
    const seen = (await user.send('GET', '/api/places')).body;
    expect(seen.all).toBeNull();
    expect(seen.data.map((row: { name: string; level: PlaceLevel | null }) => [row.name, row.level])).toEqual([
      ['Cebu', null],
      ['Makati', 'operate'],
      ['Quezon City', null],
      ['Mandaue', 'view'],
      ['Valenzuela Central', null],
    ]);
  });

  it('gives a user made without places every place to operate, which only someone operating everywhere may give', async () => {
    const everywhere = await create(admin);
    expect(everywhere.status).toBe(201);
    expect(everywhere.body.data.places).toEqual({ all: 'operate', grants: [] });
    expect(await stored(everywhere.body.data.id)).toEqual({ all: 'operate', grants: [] });

    const manager = await userWithPermissions(test, businesses[0], ['view-users', 'create-users', 'update-users'], {
      all: null,
      grants: [at('Makati', 'operate')],
    });
    const users = await test.app.db.selectFrom('users').select('id').execute();
    const refused = await create(manager.session);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Say which places the new user works at: a user made without them holds every place, which only someone who operates at every place can give.',
    );
    expect(await test.app.db.selectFrom('users').select('id').execute()).toHaveLength(users.length);
    const confined = await create(manager.session, { places: { all: null, grants: [at('Makati', 'view')] } });
    expect(confined.status, JSON.stringify(confined.body)).toBe(201);
    expect(confined.body.data.places).toEqual({ all: null, grants: named(at('Makati', 'view')) });
  });

  it('lets nobody give, take or change a place they do not operate at, and a refused change leaves everything as it was', async () => {
    const manager = await userWithPermissions(test, businesses[0], ['view-users', 'create-users', 'update-users'], {
      all: 'view',
      grants: [at('Makati', 'operate')],
    });
    const userId = await createdWith({ all: null, grants: [at('Cebu', 'view'), at('Makati', 'view')] });
    const change = (places: Places, extra: Record<string, unknown> = {}) =>
      manager.session.send('PATCH', `/api/users/${userId}`, { places, ...extra });

    // Makati changed, Cebu left as it was: fine.
    const within = await change({ all: null, grants: [at('Cebu', 'view'), at('Makati', 'operate')] });
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    expect(within.body.data.places).toEqual({ all: null, grants: named(at('Cebu', 'view'), at('Makati', 'operate')) });
    const kept = await stored(userId);

    const beyond = 'You cannot give or take places you do not operate at yourself: Cebu.';
    const cebuTaken = { all: null, grants: [at('Makati', 'operate')] };
    const cebuChanged = { all: null, grants: [at('Cebu', 'operate'), at('Makati', 'operate')] };
    for (const refused of [cebuTaken, cebuChanged]) {
      const answer = await change(refused);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(beyond);
    }
    // Giving a place they only view, beside a change they may make: all refused, nothing written.
    const mixed = await change({ all: null, grants: [at('Cebu', 'view'), at('Quezon City', 'view')] }, { name: 'Renamed' });
    expect(mixed.status).toBe(403);
    expect(mixed.body.message).toBe('You cannot give or take places you do not operate at yourself: Quezon City.');
    const all = await change({ all: 'view', grants: [at('Cebu', 'view'), at('Makati', 'operate')] });
    expect(all.status).toBe(403);
    expect(all.body.message).toBe('Only someone who operates at every place can give or take "All places".');
    expect(await stored(userId)).toEqual(kept);
    expect((await admin.send('GET', `/api/users/${userId}`)).body.data.name).not.toBe('Renamed');

    // Nor for themselves.
    expect((await manager.session.send('PATCH', `/api/users/${manager.userId}`, { places: { all: 'operate', grants: [] } })).status).toBe(
      403,
    );
    expect(
      (
        await manager.session.send('PATCH', `/api/users/${manager.userId}`, {
          places: { all: 'view', grants: [at('Makati', 'operate'), at('Cebu', 'operate')] },
        })
      ).status,
    ).toBe(403);

    // Makati taken, Cebu kept: fine.
    const taken = await change({ all: null, grants: [at('Cebu', 'view')] });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(await stored(userId)).toEqual(storedAs({ all: null, grants: [at('Cebu', 'view')] }));

    // A master gives and takes anything.
    const master = await admin.send('PATCH', `/api/users/${userId}`, { places: { all: 'view', grants: [at('Quezon City', 'operate')] } });
    expect(master.status, JSON.stringify(master.body)).toBe(200);
    expect(await stored(userId)).toEqual(storedAs({ all: 'view', grants: [at('Quezon City', 'operate')] }));
    expect((await admin.send('PATCH', `/api/users/${userId}`, { places: { all: null, grants: [] } })).status).toBe(200);
    expect(await stored(userId)).toEqual({ all: 'none', grants: [] });
  });

  it('keeps where the user works among their places (422 on userable_id), on create and on update', async () => {
    const worksAt = (name: string) => ({ userable_type: place[name].type, userable_id: place[name].id });
    const elsewhere = await create(admin, { places: { all: null, grants: [at('Makati', 'operate')] }, ...worksAt('Cebu') });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors).toEqual({ userable_id: ['Where the user works must be one of their places.'] });
    expect((await admin.send('GET', `/api/users?email=placed-${serial}@example.com&is_strict=1`)).body.data).toEqual([]);

    const userId = await createdWith({ all: null, grants: [at('Makati', 'operate'), at('Quezon City', 'view')] }, worksAt('Makati'));
    const patch = (body: Record<string, unknown>) => admin.send('PATCH', `/api/users/${userId}`, body);
    const refusedMove = await patch(worksAt('Cebu'));
    expect(refusedMove.status).toBe(422);
    expect(refusedMove.body.errors).toEqual({ userable_id: ['Where the user works must be one of their places.'] });
    const refusedTake = await patch({ places: { all: null, grants: [at('Quezon City', 'view')] } });
    expect(refusedTake.status).toBe(422);
    expect(refusedTake.body.errors).toEqual({ userable_id: ['Where the user works must be one of their places.'] });
    expect(await stored(userId)).toEqual(storedAs({ all: null, grants: [at('Makati', 'operate'), at('Quezon City', 'view')] }));
    expect((await admin.send('GET', `/api/users/${userId}`)).body.data).toMatchObject(worksAt('Makati'));

    // A place they only view is one of theirs; so is any place under "All places".
    expect((await patch(worksAt('Quezon City'))).status).toBe(200);
    const moved = await patch({ ...worksAt('Cebu'), places: { all: null, grants: [at('Cebu', 'operate')] } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ ...worksAt('Cebu'), userable_from: 'Branch: Cebu' });
    expect((await patch({ ...worksAt('Mandaue'), places: { all: 'view', grants: [] } })).status).toBe(200);
    expect((await patch({ userable_type: 'none', places: { all: null, grants: [] } })).status).toBe(200);
    expect(await stored(userId)).toEqual({ all: 'none', grants: [] });
  });

  it('keeps a trashed place a user holds while their other places change, and gives it to nobody anew', async () => {
    const branch = (await admin.send('POST', '/api/branches', { code: `OLD-${kind}`, name: 'Pasig' })).body.data;
    const pasig = (level: PlaceLevel): Grant => ({ type: 'branch', id: branch.id, level });
    const userId = await createdWith({ all: null, grants: [pasig('view'), at('Makati', 'view')] });
    expect((await admin.send('DELETE', `/api/branches/${branch.id}`)).status).toBe(200);
    expect((await placesOf(userId)).grants.map((grant: { name: string }) => grant.name)).toEqual(['Makati', 'Pasig']);

    // A form sends back every grant it read, with Makati changed.
    const changed = await admin.send('PATCH', `/api/users/${userId}`, {
      places: { all: null, grants: [pasig('view'), at('Makati', 'operate')] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await stored(userId)).toEqual(storedAs({ all: null, grants: [pasig('view'), at('Makati', 'operate')] }));
    const invalid = { 'places.grants.0.id': ['The selected branch is invalid.'] };
    const raised = await admin.send('PATCH', `/api/users/${userId}`, {
      places: { all: null, grants: [pasig('operate'), at('Makati', 'operate')] },
    });
    expect(raised.status).toBe(422);
    expect(raised.body.errors).toEqual(invalid);
    const given = await create(admin, { places: { all: null, grants: [pasig('view')] } });
    expect(given.status).toBe(422);
    expect(given.body.errors).toEqual(invalid);

    // Restored, it is still theirs; taken, it is gone.
    expect((await admin.send('PATCH', `/api/branches/${branch.id}/restore`)).status).toBe(200);
    expect(await stored(userId)).toEqual(storedAs({ all: null, grants: [pasig('view'), at('Makati', 'operate')] }));
    expect((await admin.send('PATCH', `/api/users/${userId}`, { places: { all: null, grants: [at('Makati', 'operate')] } })).status).toBe(
      200,
    );
    expect(await stored(userId)).toEqual(storedAs({ all: null, grants: [at('Makati', 'operate')] }));
  });

  it("writes every change of a user's places in their history, in words, and nothing for a change that changes nothing", async () => {
    const userId = await createdWith({ all: null, grants: [at('Quezon City', 'operate'), at('Makati', 'view'), at('Mandaue', 'view')] });
    const patch = (body: Record<string, unknown>) => admin.send('PATCH', `/api/users/${userId}`, body);
    expect((await patch({ places: { all: 'view', grants: [at('Cebu', 'operate')] } })).status).toBe(200);
    // The same places, said in another order; a change of name alone.
    expect((await patch({ places: { all: 'view', grants: [at('Cebu', 'operate')] } })).status).toBe(200);
    expect((await patch({ name: 'Placed again' })).status).toBe(200);
    expect((await patch({ places: { all: 'operate', grants: [] } })).status).toBe(200);
    const reordered = { all: null, grants: [at('Mandaue', 'view'), at('Quezon City', 'operate'), at('Makati', 'view')] };
    expect((await patch({ places: reordered })).status).toBe(200);
    expect((await patch({ places: reordered })).status).toBe(200);
    expect((await patch({ places: { ...reordered, grants: [...reordered.grants].reverse() } })).status).toBe(200);

    expect(await placesHistory(userId)).toEqual([
      { from: 'No places', to: 'Makati: view; Quezon City: operate; Mandaue: view', by: 'Administrator' },
      { from: 'Makati: view; Quezon City: operate; Mandaue: view', to: 'All places: view; Cebu: operate', by: 'Administrator' },
      { from: 'All places: view; Cebu: operate', to: 'All places: operate', by: 'Administrator' },
      { from: 'All places: operate', to: 'Makati: view; Quezon City: operate; Mandaue: view', by: 'Administrator' },
    ]);
  });

  it('refuses bad places with field messages (422), never a 500, and changes nothing', async () => {
    const hardwareBranch = (await admin.inBusiness(businesses[1]).send('GET', '/api/places')).body.data[0];
    const trashed = (await admin.send('POST', '/api/branches', { code: `TR${kind}`, name: `Trashed ${kind}` })).body.data;
    expect((await admin.send('DELETE', `/api/branches/${trashed.id}`)).status).toBe(200);
    const branch = (id: unknown, level: unknown = 'view') => ({ all: null, grants: [{ type: 'branch', id, level }] });
    const invalid = (index = 0) => ({ [`places.grants.${index}.id`]: ['The selected branch is invalid.'] });
    const wholeNumber = { 'places.grants.0.id': ['Each place id must be a whole number.'] };
    const cases: [string, unknown, Record<string, string[]>][] = [
      ['an unknown place', branch(999_999), invalid()],
      ["another business's place", branch(hardwareBranch.id), invalid()],
      ['a trashed place', branch(trashed.id), invalid()],
      [
        'a place given twice',
        { all: null, grants: [at('Makati', 'view'), at('Cebu', 'view'), at('Makati', 'operate')] },
        { 'places.grants.2.id': ['Makati is given twice.'] },
      ],
      ['a level of its own', branch(place.Makati.id, 'manage'), { 'places.grants.0.level': ['The level must be view or operate.'] }],
      ['all at a level of its own', { all: 'everything', grants: [] }, { 'places.all': ['The level must be view or operate.'] }],
      [
        'a type of place of its own',
        { all: null, grants: [{ type: 'office', id: 1, level: 'view' }] },
        { 'places.grants.0.type': ['Each place is a branch or a warehouse.'] },
      ],
      ['an id in a string', branch(String(place.Makati.id)), wholeNumber],
      ['an id with a fraction', branch(1.5), wholeNumber],
      ['a negative id', branch(-1), wholeNumber],
      ['an id beyond any', branch(2 ** 40), wholeNumber],
      ['grants that are not a list', { all: null, grants: 'Makati' }, { 'places.grants': ['The places field must be a list.'] }],
      [
        'places that say nothing',
        {},
        { 'places.all': ['The level must be view or operate.'], 'places.grants': ['The places field must be a list.'] },
      ],
      ['no places object at all', 'everywhere', { places: ['The places field must say all and grants.'] }],
    ];
    const userId = await createdWith({ all: null, grants: [at('Makati', 'operate')] });
    const before = await stored(userId);
    const users = await test.app.db.selectFrom('users').select('id').execute();
    for (const [what, places, errors] of cases) {
      const created = await create(admin, { places });
      expect(created.status, `create with ${what}: ${JSON.stringify(created.body)}`).toBe(422);
      expect(created.body.errors, `create with ${what}`).toEqual(errors);
      const updated = await admin.send('PATCH', `/api/users/${userId}`, { places });
      expect(updated.status, `update with ${what}: ${JSON.stringify(updated.body)}`).toBe(422);
      expect(updated.body.errors, `update with ${what}`).toEqual(errors);
    }
    expect(await test.app.db.selectFrom('users').select('id').execute()).toHaveLength(users.length);
    expect(await stored(userId)).toEqual(before);
    expect(test.errorLines).toEqual([]);
  });

  it('leaves, of two editors changing one user at once, the places one of them gave: never a mix', async () => {
    const other = await userWithPermissions(test, businesses[0], [MASTER_PERMISSION]);
    const userId = await createdWith({ all: null, grants: [at('Makati', 'view')] });
    const bodies: Places[] = [
      { all: null, grants: [at('Makati', 'operate'), at('Quezon City', 'view'), at('Valenzuela Central', 'view')] },
      { all: 'view', grants: [at('Cebu', 'operate'), at('Mandaue', 'operate')] },
    ];
    for (let round = 0; round < 8; round++) {
      const [first, second] = round % 2 === 0 ? [admin, other.session] : [other.session, admin];
      const answers = await Promise.all([
        first.send('PATCH', `/api/users/${userId}`, { places: bodies[0] }),
        second.send('PATCH', `/api/users/${userId}`, { places: bodies[1] }),
      ]);
      for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
      expect(bodies.map(storedAs)).toContainEqual(await stored(userId));
    }
    // Each change started from what the one before it left.
    const history = await placesHistory(userId);
    for (let index = 1; index < history.length; index++) expect(history[index].from).toBe(history[index - 1].to);
    expect(test.errorLines).toEqual([]);
  });
});
