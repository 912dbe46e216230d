import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_PERMISSION, permissionName } from '../../domain/permissions';
import { businesses } from '../../domain/resources/businesses';
import { databaseKinds, startDemo, userWithPermissions, type Demo } from '../../../tests/support/test-app';

const REFUSAL = 'The backups are of the whole server: only its administrator, who runs it, sees them.';

/**
 * The server's backups hold every business on it, and anyone may make a business and be its
 * master: they are shown to the one who runs the server (its first user), not to every master.
 */
describe.each(databaseKinds)('who sees the server’s backups on %s', (kind) => {
  let demo: Demo;

  beforeAll(async () => {
    demo = await startDemo(kind);
  });
  afterAll(() => demo.test.close());

  const backups = (session: Demo['admin']) => session.send('GET', '/api/operations/backups');

  it('shows them to the administrator who runs the server', async () => {
    const answer = await backups(demo.admin);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: expect.any(Array), last_succeeded: null });
  });

  it('refuses a user who made a business of their own, master of it though they are', async () => {
    // A manager who may make businesses: the one they make is theirs, as its master.
    const { session: clerk } = await userWithPermissions(demo.test, demo.businesses[0], [permissionName('create', businesses.permission)]);
    const made = await clerk.send('POST', '/api/businesses', { name: 'Sariling Tindahan' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const own = clerk.inBusiness(made.body.data.id);
    expect((await own.send('GET', '/api/auth/user')).body.permission_names).toContain(MASTER_PERMISSION);
    const answer = await backups(own);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: REFUSAL });
    expect((await backups(clerk)).status).toBe(403);
  });

  it('refuses another master of the administrator’s own business', async () => {
    const { session: master } = await userWithPermissions(demo.test, demo.businesses[0], [MASTER_PERMISSION]);
    const answer = await backups(master);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: REFUSAL });
    expect(demo.test.errorLines).toEqual([]);
  });
});
