import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { updatableFields } from '../../domain/resource';
import { getResource, registry } from '../../domain/resources/registry';
import { ADMIN_EMAIL, databaseKinds, PASSWORD, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';

/**
 * Permissions that cannot be walked around: every route the app registers refuses a caller
 * lacking its permission or its business; nobody manages a user or a role holding more than
 * they do, nor removes a business's last master; a business is changed only from its own roles.
 */

/** Business routes that check no single permission: they answer only what the caller may see. */
const WITHOUT_PERMISSION = [
  // A device's number blocks: the caller's own; reserved by create permission on the kind, in the handler (number-blocks.test.ts).
  'GET /api/number-blocks',
  'GET /api/overview/recent-documents',
  'GET /api/overview/sales-purchases',
  // The business's places by name with the caller's level: every member needs them (places.test.ts).
  'GET /api/places',
  // A device's working set: each resource by its own view permission, at the user's places (sync.test.ts, places-leak.test.ts).
  'GET /api/sync',
  'GET /api/sync/changes',
  'GET /api/sync/events',
  'GET /api/sync/records/:resource',
  // delete-stock-adjustments, or create-stock-adjustments for its maker on the day: adjustments.test.ts.
  'PATCH /api/stock-adjustments/:id/void',
  'POST /api/documents/get-number-total-count',
  'POST /api/documents/get-reference-number-total-count',
  // Checks the permission of the kind it imports (create-items …) in its handler: imports.test.ts.
  'POST /api/imports/:kind',
  'POST /api/number-blocks',
  'POST /api/number-blocks/:id/return',
];

/** Resources whose records belong to no single business. */
const GLOBAL_RESOURCES = ['businesses', 'permissions'];

/** Routes naming records that are no resource of the registry, each with its own test of another business's record. */
const NOT_RESOURCES = [
  // A block of another business answers 404: number-blocks.test.ts.
  'number-blocks',
];

const USER_PERMISSIONS = ['view-users', 'update-users', 'delete-users', 'restore-users', 'force-delete-users'];
const ROLE_PERMISSIONS = ['view-roles', 'update-roles', 'delete-roles', 'restore-roles', 'force-delete-roles'];

describe.each(databaseKinds)('authorization on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let main: number;
  let second: number;
  let adminId: number;

  beforeAll(async () => {
    ({
      test,
      admin,
      adminId,
      businesses: [main, second],
    } = await startDemo(kind));
  });
  afterAll(() => test.close());

  async function permissionIds(names: string[]): Promise<number[]> {
    const rows = await test.app.db.selectFrom('permissions').select('id').where('name', 'in', names).orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  async function roleNamed(session: Session, name: string) {
    return (await session.send('GET', `/api/roles?name=${encodeURIComponent(name)}&is_strict=1`)).body.data[0];
  }

  async function versionOf(userId: number) {
    return (await test.app.db.selectFrom('users').select('version').where('id', '=', userId).executeTakeFirstOrThrow()).version;
  }

  /** Users of `businessId` holding the master permission through a live role, as a live member. */
  async function masters(businessId: number): Promise<number[]> {
    const rows = await test.app.db
      .selectFrom('memberships')
      .innerJoin('user_roles', 'user_roles.user_id', 'memberships.user_id')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .innerJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select('memberships.user_id')
      .distinct()
      .where('memberships.business_id', '=', businessId)
      .where('memberships.deleted_at', 'is', null)
      .where('roles.business_id', '=', businessId)
      .where('roles.deleted_at', 'is', null)
      .where('permissions.name', '=', MASTER_PERMISSION)
      .execute();
    return rows.map((row) => Number(row.user_id)).sort((a, b) => a - b);
  }

  describe('every registered route', () => {
    const routes = () => test.app.routeAccess.filter((route) => route.method !== 'HEAD');
    const businessRoutes = () => routes().filter((route) => route.access === 'business');
    const concrete = (url: string, id = 1) => url.replace(/:recordId|:id/g, String(id)).replace(/:[A-Za-z]+/g, '1');
    const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

    /** The first record of `resource` in `businessId`, as the admin (a member of both) lists it. */
    async function firstId(resource: string, businessId: number): Promise<number | undefined> {
      const answer = await admin.inBusiness(businessId).send('GET', `/api/${resource}?order_by=asc&limit=1`);
      expect(answer.status, `listing ${resource}`).toBe(200);
      return answer.body.data[0]?.id;
    }

    /** A record of `resource` in one demo business and the other to address it from, if it has any. */
    async function foreignRecord(resource: string): Promise<{ id: number; from: number } | undefined> {
      for (const [home, from] of [
        [second, main],
        [main, second],
      ]) {
        if (getResource(resource).tenancy === 'membership') {
          const row = await test.app.db
            .selectFrom('memberships')
            .select('user_id')
            .where('business_id', '=', home)
            .where('user_id', 'not in', test.app.db.selectFrom('memberships').select('user_id').where('business_id', '=', from))
            .executeTakeFirst();
          if (row) return { id: row.user_id, from };
        } else {
          const id = await firstId(resource, home);
          if (id !== undefined) return { id, from };
        }
      }
      return undefined;
    }

    it('declares a permission on every business route but a known few', () => {
      expect(businessRoutes().length).toBeGreaterThan(300);
      const without = businessRoutes()
        .filter((route) => !route.permission)
        .map((route) => `${route.method} ${route.url}`)
        .sort();
      expect(without).toEqual(WITHOUT_PERMISSION);
    });

    it('answers 403 on every route to a user lacking its permission', async () => {
      const viewsActivity = await userWithPermissions(test, main, ['view-activity']);
      const viewsBrands = await userWithPermissions(test, main, ['view-brands']);
      for (const route of businessRoutes().filter((each) => each.permission)) {
        const caller = route.permission === 'view-activity' ? viewsBrands : viewsActivity;
        const answer = await caller.session.send(route.method as 'GET', concrete(route.url), bodyFor(route.method));
        expect(answer.status, `${route.method} ${route.url}`).toBe(403);
      }
    });

    it('answers 403 on every business route for a business the user is not a member of, and 401 without a session', async () => {
      const master = await userWithPermissions(test, main, [MASTER_PERMISSION]);
      for (const businessId of [second, 999_999]) {
        const elsewhere = master.session.inBusiness(businessId);
        for (const route of businessRoutes()) {
          const answer = await elsewhere.send(route.method as 'GET', concrete(route.url), bodyFor(route.method));
          expect(answer.status, `${route.method} ${route.url} in business ${businessId}`).toBe(403);
        }
      }
      for (const route of routes().filter((each) => each.access !== 'public')) {
        const answer = await test.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers: { 'x-requested-with': 'XMLHttpRequest', 'business-id': String(main) },
        });
        expect(answer.statusCode, `${route.method} ${route.url}`).toBe(401);
      }
    });

    it('answers 404 on every route that names a record of another business in its path', async () => {
      const bodies: Record<string, unknown> = {
        'PUT /api/roles/:id/permissions': { permission_ids: [] },
        'PUT /api/users/:id/roles': { role_ids: [] },
      };
      let checked = 0;
      for (const route of businessRoutes()) {
        const resource = route.url.split('/')[2];
        if (!/:id|:recordId/.test(route.url) || GLOBAL_RESOURCES.includes(resource) || NOT_RESOURCES.includes(resource)) continue;
        const foreign = await foreignRecord(resource);
        if (!foreign) continue;
        const { id, from } = foreign;
        const key = `${route.method} ${route.url}`;
        const answer = await admin
          .inBusiness(from)
          .send(route.method as 'GET', concrete(route.url, id), bodies[key] ?? bodyFor(route.method));
        expect(answer.status, `${key} with ${resource} ${id} from business ${from}: ${JSON.stringify(answer.body)}`).toBe(404);
        checked++;
      }
      expect(checked).toBeGreaterThan(150);
    });

    it('refuses another business’s records named in a body', async () => {
      const outsider = (await foreignRecord('users')) as { id: number; from: number };
      const from = admin.inBusiness(outsider.from);
      expect((await from.send('POST', '/api/users/reset-password', { id: outsider.id })).status).toBe(404);
      expect((await from.send('POST', '/api/users/reset-security-pin', { id: outsider.id })).status).toBe(404);

      let checked = 0;
      for (const definition of registry) {
        if (!definition.editable || definition.tenancy !== 'business') continue;
        const own = await firstId(definition.name, main);
        if (own === undefined) continue;
        for (const [name, field] of updatableFields(definition)) {
          if (field.kind !== 'reference' || !field.references) continue;
          const foreign = await firstId(field.references, second);
          if (foreign === undefined) continue;
          const answer = await admin.send('PATCH', `/api/${definition.name}/${own}`, { [name]: foreign });
          expect(answer.status, `${definition.name}.${name}: ${JSON.stringify(answer.body)}`).toBe(422);
          expect(Object.keys(answer.body.errors)).toEqual([name]);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(5);

      const [warehouse] = (await admin.inBusiness(second).send('GET', '/api/warehouses')).body.data;
      const viewer = (await admin.send('GET', '/api/users?email=viewer@example.com&is_strict=1')).body.data[0];
      const works = await admin.send('PATCH', `/api/users/${viewer.id}`, { userable_type: 'warehouse', userable_id: warehouse.id });
      expect(works.status).toBe(422);
      expect(Object.keys(works.body.errors)).toEqual(['userable_id']);
    });
  });

  describe('users are managed only by someone holding all they hold', () => {
    it('refuses to reset, edit, re-role or trash a master for a user without the master permission', async () => {
      const manager = await userWithPermissions(test, main, USER_PERMISSIONS);
      const version = await versionOf(adminId);
      const refused = [
        await manager.session.send('POST', '/api/users/reset-password', { id: adminId }),
        await manager.session.send('POST', '/api/users/reset-security-pin', { id: adminId }),
        await manager.session.send('PATCH', `/api/users/${adminId}`, { password: 'taken-over-1' }),
        await manager.session.send('PATCH', `/api/users/${adminId}`, { name: 'Renamed' }),
        await manager.session.send('PUT', `/api/users/${adminId}/roles`, { role_ids: [] }),
        await manager.session.send('DELETE', `/api/users/${adminId}`),
      ];
      for (const answer of refused) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(403);
        expect(answer.body.message).toContain(MASTER_PERMISSION);
      }
      expect(await versionOf(adminId)).toBe(version);
      await test.signIn(ADMIN_EMAIL, PASSWORD);
    });

    it('refuses a user holding any permission the manager lacks, trashed or not, and allows one holding less', async () => {
      const manager = await userWithPermissions(test, main, [...USER_PERMISSIONS, 'view-brands']);
      const cashier = (await admin.send('GET', '/api/users?email=cashier@example.com&is_strict=1')).body.data[0];
      expect((await manager.session.send('POST', '/api/users/reset-password', { id: cashier.id })).status).toBe(403);
      expect((await admin.send('DELETE', `/api/users/${cashier.id}`)).status).toBe(200);
      expect((await manager.session.send('PATCH', `/api/users/${cashier.id}/restore`)).status).toBe(403);
      expect((await manager.session.send('DELETE', `/api/users/${cashier.id}/force-delete`)).status).toBe(403);
      expect((await admin.send('PATCH', `/api/users/${cashier.id}/restore`)).status).toBe(200);

      const lesser = await userWithPermissions(test, main, ['view-brands']);
      expect((await manager.session.send('PATCH', `/api/users/${lesser.userId}`, { name: 'Lesser' })).status).toBe(200);
      const reset = await manager.session.send('POST', '/api/users/reset-password', { id: lesser.userId });
      expect(reset.status).toBe(200);
      expect((await manager.session.send('DELETE', `/api/users/${lesser.userId}`)).status).toBe(200);
      expect((await manager.session.send('PATCH', `/api/users/${lesser.userId}/restore`)).status).toBe(200);
      // Anyone edits themselves.
      expect((await manager.session.send('PATCH', `/api/users/${manager.userId}`, { name: 'Manager' })).status).toBe(200);
    });
  });

  describe('roles: nobody grants or removes what they do not hold', () => {
    it('refuses to empty, edit or trash a master role for a user without the master permission', async () => {
      const manager = await userWithPermissions(test, main, [...ROLE_PERMISSIONS, 'view-brands']);
      const administrator = await roleNamed(admin, 'Administrator');
      for (const answer of [
        await manager.session.send('PUT', `/api/roles/${administrator.id}/permissions`, { permission_ids: [] }),
        await manager.session.send('PATCH', `/api/roles/${administrator.id}`, { name: 'Nobody' }),
        await manager.session.send('DELETE', `/api/roles/${administrator.id}`),
      ]) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(403);
        expect(answer.body.message).toContain(MASTER_PERMISSION);
      }
      expect((await admin.send('GET', `/api/roles/${administrator.id}`)).body.data).toMatchObject({
        name: 'Administrator',
        permission_names: [MASTER_PERMISSION],
        deleted_at: null,
      });
    });

    it('refuses to remove a permission the actor does not hold, naming it', async () => {
      const manager = await userWithPermissions(test, main, [...ROLE_PERMISSIONS, 'view-brands']);
      const role = (await admin.send('POST', '/api/roles', { name: 'Brand keeper' })).body.data;
      await admin.send('PUT', `/api/roles/${role.id}/permissions`, {
        permission_ids: await permissionIds(['view-brands', 'create-brands']),
      });
      const removing = await manager.session.send('PUT', `/api/roles/${role.id}/permissions`, {
        permission_ids: await permissionIds(['view-brands']),
      });
      expect(removing.status).toBe(403);
      expect(removing.body.message).toBe('You cannot remove permissions you do not hold yourself: create-brands.');
      expect((await manager.session.send('DELETE', `/api/roles/${role.id}`)).status).toBe(403);

      await admin.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: await permissionIds(['view-brands']) });
      expect((await manager.session.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: [] })).status).toBe(200);
    });
  });

  describe('a business never loses its last master', () => {
    it('refuses (409) every change that would leave none, and allows them while another master remains', async () => {
      const business = (await admin.send('POST', '/api/businesses', { name: 'Last Master Trading' })).body.data.id;
      const owner = admin.inBusiness(business);
      const administrator = await roleNamed(owner, 'Administrator');
      expect(await masters(business)).toEqual([adminId]);
      const lastMaster = [
        await owner.send('PUT', `/api/users/${adminId}/roles`, { role_ids: [] }),
        await owner.send('PUT', `/api/roles/${administrator.id}/permissions`, { permission_ids: await permissionIds(['view-brands']) }),
        await owner.send('DELETE', `/api/roles/${administrator.id}`),
      ];
      for (const answer of lastMaster) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(answer.body.message).toMatch(/without anyone holding the master permission/);
      }
      expect(await masters(business)).toEqual([adminId]);

      const partner = (
        await owner.send('POST', '/api/users', {
          name: 'Partner',
          email: `partner-${business}@example.com`,
          password: 'partner-pass',
          role_ids: [administrator.id],
        })
      ).body.data;
      expect(await masters(business)).toEqual([adminId, partner.id].sort((a, b) => a - b));
      const partnerSession = await test.signIn(partner.email, 'partner-pass', business);
      expect((await partnerSession.send('DELETE', `/api/users/${adminId}`)).status).toBe(200);
      expect(await masters(business)).toEqual([partner.id]);
      expect((await partnerSession.send('PATCH', `/api/users/${adminId}/restore`)).status).toBe(200);
      expect((await owner.send('PUT', `/api/users/${partner.id}/roles`, { role_ids: [] })).status).toBe(200);
      expect(await masters(business)).toEqual([adminId]);
    });

    it('keeps one master when two remove each other at once', async () => {
      const business = (await admin.send('POST', '/api/businesses', { name: 'Two Masters Trading' })).body.data.id;
      const owner = admin.inBusiness(business);
      const administrator = await roleNamed(owner, 'Administrator');
      for (let round = 0; round < 4; round++) {
        const email = `twin-${business}-${round}@example.com`;
        const twin = (await owner.send('POST', '/api/users', { name: 'Twin', email, password: 'twin-pass', role_ids: [administrator.id] }))
          .body.data;
        const twinSession = await test.signIn(email, 'twin-pass', business);
        const answers = await Promise.all([
          owner.send('PUT', `/api/users/${twin.id}/roles`, { role_ids: [] }),
          twinSession.send('PUT', `/api/users/${adminId}/roles`, { role_ids: [] }),
        ]);
        const statuses = answers.map((answer) => answer.status).sort();
        // The second finds either the last master (409), or that its sender is no master any more (403).
        expect(statuses[0], JSON.stringify(answers.map((answer) => answer.body))).toBe(200);
        expect([403, 409], JSON.stringify(answers.map((answer) => answer.body))).toContain(statuses[1]);
        expect(await masters(business)).toHaveLength(1);
        // Whoever is left gives the master role back to the admin for the next round.
        const [left] = await masters(business);
        if (left !== adminId) {
          expect((await twinSession.send('PUT', `/api/users/${adminId}/roles`, { role_ids: [administrator.id] })).status).toBe(200);
          expect((await owner.send('PUT', `/api/users/${twin.id}/roles`, { role_ids: [] })).status).toBe(200);
        }
      }

      // The same through the roles: each master role strips the other's at once.
      const second = (await owner.send('POST', '/api/roles', { name: 'Second master' })).body.data;
      await owner.send('PUT', `/api/roles/${second.id}/permissions`, { permission_ids: await permissionIds([MASTER_PERMISSION]) });
      const email = `other-${business}@example.com`;
      await owner.send('POST', '/api/users', { name: 'Other', email, password: 'other-pass', role_ids: [second.id] });
      const other = await test.signIn(email, 'other-pass', business);
      const answers = await Promise.all([
        owner.send('PUT', `/api/roles/${second.id}/permissions`, { permission_ids: [] }),
        other.send('DELETE', `/api/roles/${administrator.id}`),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses[0], JSON.stringify(answers.map((answer) => answer.body))).toBe(200);
      expect([403, 409], JSON.stringify(answers.map((answer) => answer.body))).toContain(statuses[1]);
      expect(await masters(business)).toHaveLength(1);
    });
  });

  describe('a business is changed only from its own roles', () => {
    /** Gives `business` an owner of its own (answered) and leaves the admin only view rights there. */
    async function onlyViewing(business: number): Promise<string> {
      const inside = admin.inBusiness(business);
      const administrator = await roleNamed(inside, 'Administrator');
      const email = `owner-${business}@example.com`;
      await inside.send('POST', '/api/users', { name: 'Owner', email, password: 'owner-pass', role_ids: [administrator.id] });
      const looker = (await inside.send('POST', '/api/roles', { name: 'Looker' })).body.data;
      await inside.send('PUT', `/api/roles/${looker.id}/permissions`, { permission_ids: await permissionIds(['view-businesses']) });
      expect((await inside.send('PUT', `/api/users/${adminId}/roles`, { role_ids: [looker.id] })).status).toBe(200);
      return email;
    }

    it('refuses to change or trash a business where the user may only view, whatever Business-ID they send', async () => {
      const ownerEmail = await onlyViewing(second);
      const before = (await admin.send('GET', `/api/businesses/${second}`)).body.data;
      for (const answer of [
        await admin.send('PATCH', `/api/businesses/${second}`, { name: 'Taken over' }),
        await admin.send('DELETE', `/api/businesses/${second}`),
      ]) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(403);
        expect(answer.body.message).toMatch(/in that business itself/);
      }
      expect((await admin.send('GET', `/api/businesses/${second}`)).body.data).toEqual(before);
      // Its owner still gets in.
      expect((await test.signIn(ownerEmail, 'owner-pass', second).then((owner) => owner.send('GET', '/api/brands'))).status).toBe(200);
    });

    it('refuses to restore or delete permanently a trashed business where the user may only view', async () => {
      const empty = (await admin.send('POST', '/api/businesses', { name: 'Empty Shell' })).body.data.id;
      await onlyViewing(empty);
      // Its owner trashed it from another business of theirs.
      await test.app.db.updateTable('businesses').set({ deleted_at: new Date().toISOString() }).where('id', '=', empty).execute();
      expect((await admin.send('PATCH', `/api/businesses/${empty}/restore`)).status).toBe(403);
      expect((await admin.send('DELETE', `/api/businesses/${empty}/force-delete`)).status).toBe(403);
      expect((await admin.send('GET', `/api/businesses/${empty}`)).body.data.deleted_at).not.toBeNull();
    });

    it('changes, trashes, restores and deletes a business its user may, from another one, but never the one in use', async () => {
      const other = (await admin.send('POST', '/api/businesses', { name: 'Side Business' })).body.data.id;
      expect((await admin.send('PATCH', `/api/businesses/${other}`, { name: 'Side Business Inc.' })).status).toBe(200);
      const inUse = await admin.inBusiness(other).send('DELETE', `/api/businesses/${other}`);
      expect(inUse.status).toBe(409);
      expect(inUse.body.message).toMatch(/switch to another business/);
      expect((await admin.send('DELETE', `/api/businesses/${other}`)).status).toBe(200);
      expect((await admin.send('PATCH', `/api/businesses/${other}/restore`)).status).toBe(200);
      expect((await admin.send('DELETE', `/api/businesses/${other}`)).status).toBe(200);
      expect((await admin.send('DELETE', `/api/businesses/${other}/force-delete`)).status).toBe(204);
    });
  });
});
