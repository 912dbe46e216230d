import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

describe.each(databaseKinds)('roles, user roles and secrets on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
  });
  afterAll(() => test.close());

  async function permissionIds(names: string[]): Promise<number[]> {
    const rows = await test.app.db.selectFrom('permissions').select('id').where('name', 'in', names).orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  it('replaces a role’s permissions, and its holders feel it at once', async () => {
    const role = (await admin.send('POST', '/api/roles', { name: 'Stock Clerk' })).body.data;
    const clerk = (
      await admin.send('POST', '/api/users', { name: 'Clerk', email: 'clerk@example.com', password: 'clerk-pass', role_ids: [role.id] })
    ).body.data;
    expect(clerk.role_names).toEqual(['Stock Clerk']);
    const session = await test.signIn('clerk@example.com', 'clerk-pass');
    expect((await session.send('GET', '/api/brands')).status).toBe(403);

    const ids = await permissionIds(['view-brands', 'create-brands']);
    const assigned = await admin.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: ids });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.permission_names).toEqual(['create-brands', 'view-brands']);
    expect(assigned.body.data.version).toBe(2);
    expect((await session.send('GET', '/api/brands')).status).toBe(200);

    expect((await admin.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: [999_999] })).status).toBe(422);
    expect((await admin.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: 'all' })).status).toBe(422);
    expect((await admin.send('PUT', `/api/roles/999999/permissions`, { permission_ids: [] })).status).toBe(404);
    expect((await admin.inBusiness(businesses[1]).send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: [] })).status).toBe(
      404,
    );
  });

  it('lets nobody grant what they do not hold (403), and needs update-roles / update-users', async () => {
    const manager = await userWithPermissions(test, businesses[0], ['update-roles', 'update-users', 'view-roles', 'view-brands']);
    const role = (await admin.send('POST', '/api/roles', { name: 'Escalation Test' })).body.data;
    const within = await manager.session.send('PUT', `/api/roles/${role.id}/permissions`, {
      permission_ids: await permissionIds(['view-brands']),
    });
    expect(within.status).toBe(200);
    const beyond = await manager.session.send('PUT', `/api/roles/${role.id}/permissions`, {
      permission_ids: await permissionIds(['full-access-and-permssions']),
    });
    expect(beyond.status).toBe(403);
    const administrator = (await admin.send('GET', '/api/roles?name=Administrator&is_strict=1')).body.data[0];
    expect((await manager.session.send('PUT', `/api/users/${manager.userId}/roles`, { role_ids: [administrator.id] })).status).toBe(403);

    await manager.grant(['view-roles']);
    expect((await manager.session.send('PUT', `/api/roles/${role.id}/permissions`, { permission_ids: [] })).status).toBe(403);
    expect((await manager.session.send('PUT', `/api/users/${manager.userId}/roles`, { role_ids: [] })).status).toBe(403);
  });

  it('replaces a user’s roles in this business only', async () => {
    const viewer = (await admin.send('GET', '/api/users?email=viewer@example.com&is_strict=1')).body.data[0];
    const roles = (await admin.send('GET', '/api/roles?per_page=100')).body.data;
    const purchasing = roles.find((role: { name: string }) => role.name === 'Purchasing');
    const answer = await admin.send('PUT', `/api/users/${viewer.id}/roles`, { role_ids: [purchasing.id] });
    expect(answer.status).toBe(200);
    expect(answer.body.data.role_names).toEqual(['Purchasing']);
    const otherBusinessRole = (await admin.inBusiness(businesses[1]).send('GET', '/api/roles')).body.data[0];
    expect((await admin.send('PUT', `/api/users/${viewer.id}/roles`, { role_ids: [otherBusinessRole.id] })).status).toBe(422);
    expect((await admin.send('GET', `/api/users/${viewer.id}`)).body.data.role_names).toEqual(['Purchasing']);
  });

  it('resets a password and a pin, answering the temporary secret once and ending old sessions', async () => {
    const created = (
      await admin.send('POST', '/api/users', {
        name: 'Forgetful',
        email: 'forgetful@example.com',
        password: 'first-pass',
        security_pin: '1234',
      })
    ).body.data;
    const old = await test.signIn('forgetful@example.com', 'first-pass');
    const reset = await admin.send('POST', '/api/users/reset-password', { id: created.id });
    expect(reset.status).toBe(200);
    expect(reset.body.temporary_password).toMatch(/^[A-Za-z2-9]{12}$/);
    expect((await old.send('GET', '/api/auth/user')).status).toBe(401);
    await expect(test.signIn('forgetful@example.com', 'first-pass')).rejects.toThrow(/401/);
    await test.signIn('forgetful@example.com', reset.body.temporary_password);

    const pin = await admin.send('POST', '/api/users/reset-security-pin', { id: created.id });
    expect(pin.body.temporary_security_pin).toMatch(/^\d{6}$/);
    const stored = await test.app.db
      .selectFrom('users')
      .select(['password_hash', 'security_pin_hash'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.security_pin_hash).toMatch(/^scrypt\$/);
    expect(stored.security_pin_hash).not.toContain(pin.body.temporary_security_pin);

    const fetched = await admin.send('GET', `/api/users/${created.id}`);
    expect(JSON.stringify(fetched.body)).not.toMatch(/password|security_pin"|hash/);
    expect((await admin.send('POST', '/api/users/reset-password', { id: 999_999 })).status).toBe(404);
    expect((await admin.send('POST', '/api/users/reset-password', {})).status).toBe(422);
  });

  it('refuses to change the sign-in details of a user who belongs to a business the caller is not in', async () => {
    const manager = (
      await admin.send('POST', '/api/users', { name: 'Second Admin', email: 'second-admin@example.com', password: 'second-pass' })
    ).body.data;
    const administrator = (await admin.send('GET', '/api/roles?name=Administrator&is_strict=1')).body.data[0];
    await admin.send('PUT', `/api/users/${manager.id}/roles`, { role_ids: [administrator.id] });
    const secondAdmin = await test.signIn('second-admin@example.com', 'second-pass');
    // The demo admin also belongs to the hardware business, where the second admin is no member.
    const adminUser = (await secondAdmin.send('GET', `/api/users?email=${ADMIN_EMAIL}&is_strict=1`)).body.data[0];
    expect((await secondAdmin.send('POST', '/api/users/reset-password', { id: adminUser.id })).status).toBe(403);
    expect((await secondAdmin.send('PATCH', `/api/users/${adminUser.id}`, { password: 'taken-over!' })).status).toBe(403);
    expect((await secondAdmin.send('PATCH', `/api/users/${adminUser.id}`, { name: 'Renamed Admin' })).status).toBe(200);
    await test.signIn(ADMIN_EMAIL);
  });

  it('refuses to delete oneself, and to delete permanently a role still held', async () => {
    const me = (await admin.send('GET', '/api/auth/user')).body;
    expect((await admin.send('DELETE', `/api/users/${me.id}`)).status).toBe(409);
    const held = (await admin.send('GET', '/api/roles?name=Warehouse Staff&is_strict=1')).body.data[0];
    await admin.send('DELETE', `/api/roles/${held.id}`);
    const refused = await admin.send('DELETE', `/api/roles/${held.id}/force-delete`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/used by \d+ users/);
    await admin.send('PATCH', `/api/roles/${held.id}/restore`);
  });

  it('creates nothing when any part of a multi-row write fails', async () => {
    const before = await test.app.db.selectFrom('users').select('id').execute();
    const answer = await admin.send('POST', '/api/users', {
      name: 'Half',
      email: 'half@example.com',
      password: 'half-pass',
      role_ids: [999_999],
    });
    expect(answer.status).toBe(422);
    expect(await test.app.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
  });
});
