import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, startTestApp, type Session, type TestApp } from '../../tests/support/test-app';

describe.each(databaseKinds)('Idempotency-Key on %s', (kind) => {
  let test: TestApp;
  let admin: Session;

  beforeAll(async () => {
    test = await startTestApp(kind, { demoData: false });
    admin = await test.signIn(ADMIN_EMAIL);
  });
  afterAll(() => test.close());

  const brandCount = async () => (await admin.send('GET', '/api/brands?with_trashed=1')).body.meta.total;

  it('answers a repeated create with the first answer and creates once', async () => {
    const key = { 'idempotency-key': 'create-brand-1' };
    const first = await admin.send('POST', '/api/brands', { name: 'Once' }, key);
    const again = await admin.send('POST', '/api/brands', { name: 'Once' }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await brandCount()).toBe(1);
    // The repeat was answered from the stored answer: the write did not run again into the key.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(test.errorLines).toEqual([]);
  });

  it('runs concurrent twins once', async () => {
    const key = { 'idempotency-key': 'twins' };
    const answers = await Promise.all([1, 2, 3].map(() => admin.send('POST', '/api/brands', { name: 'Twin' }, key)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect((await admin.send('GET', '/api/brands?name=Twin&is_strict=1')).body.meta.total).toBe(1);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const key = { 'idempotency-key': 'create-brand-2' };
    await admin.send('POST', '/api/brands', { name: 'First body' }, key);
    const before = await brandCount();
    const other = await admin.send('POST', '/api/brands', { name: 'Second body' }, key);
    expect(other.status).toBe(422);
    expect(other.body.errors.idempotency_key).toHaveLength(1);
    expect(await brandCount()).toBe(before);
  });

  it('stores nothing for a failed write, so the corrected request can reuse its key', async () => {
    const key = { 'idempotency-key': 'fix-and-retry' };
    expect((await admin.send('POST', '/api/brands', { name: '' }, key)).status).toBe(422);
    expect((await admin.send('POST', '/api/brands', { name: 'Fixed' }, key)).status).toBe(201);
  });

  it('replays updates and deletes without applying them twice', async () => {
    const brand = (await admin.send('POST', '/api/brands', { name: 'Versioned' })).body.data;
    const patch = { 'idempotency-key': 'patch-1' };
    await admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'one' }, patch);
    const replayed = await admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'one' }, patch);
    expect(replayed.body.data.version).toBe(2);
    expect((await admin.send('GET', `/api/brands/${brand.id}`)).body.data.version).toBe(2);

    const remove = { 'idempotency-key': 'delete-1' };
    expect((await admin.send('DELETE', `/api/brands/${brand.id}`, undefined, remove)).status).toBe(200);
    expect((await admin.send('DELETE', `/api/brands/${brand.id}`, undefined, remove)).status).toBe(200);
    const force = { 'idempotency-key': 'force-1' };
    expect((await admin.send('DELETE', `/api/brands/${brand.id}/force-delete`, undefined, force)).status).toBe(204);
    expect((await admin.send('DELETE', `/api/brands/${brand.id}/force-delete`, undefined, force)).status).toBe(204);
  });

  it('keeps keys per user', async () => {
    const key = { 'idempotency-key': 'shared-key' };
    await admin.send('POST', '/api/brands', { name: 'Admin brand' }, key);
    const created = await admin.send('POST', '/api/users', { name: 'Other', email: 'other@example.com', password: 'other-pass' });
    const administrator = (await admin.send('GET', '/api/roles')).body.data[0];
    await admin.send('PUT', `/api/users/${created.body.data.id}/roles`, { role_ids: [administrator.id] });
    const other = await test.signIn('other@example.com', 'other-pass');
    const answer = await other.send('POST', '/api/brands', { name: 'Other brand' }, key);
    expect(answer.status).toBe(201);
    expect(answer.body.data.name).toBe('Other brand');
  });
});
