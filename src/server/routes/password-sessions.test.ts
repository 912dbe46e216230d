import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * A password changed through `PATCH /api/users/{id}` ends the user's sessions, as a reset does;
 * a user changing their own keeps only the session they changed it in.
 */
describe.each(databaseKinds)('sessions after a password change on %s', (kind) => {
  let test: TestApp;
  let admin: Session;

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
  });
  afterAll(() => test.close());

  const signedIn = async (session: Session) => (await session.send('GET', '/api/auth/user')).status;
  const sessionCount = async (userId: number) =>
    (await test.app.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute()).length;

  async function newUser(email: string, password: string): Promise<number> {
    const answer = await admin.send('POST', '/api/users', { name: email, email, password });
    expect(answer.status).toBe(201);
    return answer.body.data.id as number;
  }

  it('signs the user out everywhere when an administrator sets their password', async () => {
    const id = await newUser('changed-by-admin@example.com', 'first-pass');
    const phone = await test.signIn('changed-by-admin@example.com', 'first-pass');
    const laptop = await test.signIn('changed-by-admin@example.com', 'first-pass');
    expect(await signedIn(phone)).toBe(200);

    expect((await admin.send('PATCH', `/api/users/${id}`, { password: 'second-pass' })).status).toBe(200);
    expect(await signedIn(phone)).toBe(401);
    expect(await signedIn(laptop)).toBe(401);
    expect(await sessionCount(id)).toBe(0);
    expect(await signedIn(admin)).toBe(200);
    await expect(test.signIn('changed-by-admin@example.com', 'first-pass')).rejects.toThrow(/401/);
    await test.signIn('changed-by-admin@example.com', 'second-pass');
  });

  it('keeps the session that changed its own password and ends the others', async () => {
    const me = (await admin.send('GET', '/api/auth/user')).body.id as number;
    const elsewhere = await test.signIn(ADMIN_EMAIL);
    const here = await test.signIn(ADMIN_EMAIL);
    expect(await signedIn(elsewhere)).toBe(200);

    expect((await here.send('PATCH', `/api/users/${me}`, { password: 'new-admin-pass' })).status).toBe(200);
    expect(await signedIn(here)).toBe(200);
    expect(await signedIn(elsewhere)).toBe(401);
    expect(await signedIn(admin)).toBe(401);
    expect(await sessionCount(me)).toBe(1);
    admin = here;
  });

  it('leaves the sessions alone when the password is not part of the change', async () => {
    const id = await newUser('renamed@example.com', 'kept-pass');
    const session = await test.signIn('renamed@example.com', 'kept-pass');
    expect((await admin.send('PATCH', `/api/users/${id}`, { name: 'Renamed' })).status).toBe(200);
    expect(await signedIn(session)).toBe(200);
    expect(await sessionCount(id)).toBe(1);
  });
});
