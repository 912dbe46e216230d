import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startDemo, type Demo } from '../../../tests/support/test-app';

/**
 * A request's caller (session, membership, permissions, places) is kept for two seconds per
 * session and business (plugins/auth.ts `KnownCallers`): a change made through this instance
 * counts from the next request, one made elsewhere (another instance, a script) within two seconds.
 */

const CASHIER = 'cashier@example.com';
const LIFE_MS = 2_000;

describe.each(databaseKinds)('callers kept for a moment on %s', (kind) => {
  let demo: Demo;

  beforeAll(async () => {
    demo = await startDemo(kind);
  });
  afterAll(async () => demo?.test.close());

  const cashierRole = async () => {
    const role = await demo.test.app.db
      .selectFrom('roles')
      .select(['id', 'business_id'])
      .where('name', '=', 'Branch Cashier')
      .executeTakeFirstOrThrow();
    const held = await demo.test.app.db.selectFrom('role_permissions').select('permission_id').where('role_id', '=', role.id).execute();
    return { id: Number(role.id), businessId: Number(role.business_id), permissionIds: held.map((row) => Number(row.permission_id)) };
  };

  it('a permission taken away through this instance is refused at the next request', async () => {
    const role = await cashierRole();
    const cashier = await demo.test.signIn(CASHIER, undefined, role.businessId);
    const admin = demo.admin.inBusiness(role.businessId);
    expect((await cashier.send('GET', '/api/items')).status).toBe(200);
    expect((await admin.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: [] })).status).toBe(200);
    expect((await cashier.send('GET', '/api/items')).status).toBe(403);
    expect((await admin.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: role.permissionIds })).status).toBe(200);
    expect((await cashier.send('GET', '/api/items')).status).toBe(200);
  });

  it('a session signed out here is refused at the next request', async () => {
    const cashier = await demo.test.signIn(CASHIER);
    expect((await cashier.send('GET', '/api/items')).status).toBe(200);
    expect((await cashier.send('POST', '/logout')).status).toBe(204);
    expect((await cashier.send('GET', '/api/items')).status).toBe(401);
  });

  it('a change made elsewhere counts within two seconds', async () => {
    const role = await cashierRole();
    const cashier = await demo.test.signIn(CASHIER, undefined, role.businessId);
    expect((await cashier.send('GET', '/api/items')).status).toBe(200);
    // As another instance or a script would: straight in the database, unseen by this server.
    const removedAt = Date.now();
    await demo.test.app.db.deleteFrom('role_permissions').where('role_id', '=', role.id).execute();
    let status = 200;
    while (status === 200 && Date.now() - removedAt < LIFE_MS + 1_000) {
      status = (await cashier.send('GET', '/api/items')).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(403);
    expect(Date.now() - removedAt).toBeLessThanOrEqual(LIFE_MS + 200);
    await demo.test.app.db
      .insertInto('role_permissions')
      .values(role.permissionIds.map((permission_id) => ({ role_id: role.id, permission_id })))
      .execute();
  });
});
