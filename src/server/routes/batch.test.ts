import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, PASSWORD, startDemo, userWithPermissions, type Demo } from '../../../tests/support/test-app';

/**
 * POST /api/batch: the outbox's changes in one request. Each change is applied as if it came
 * alone — its business, permission, validation, base version and Idempotency-Key — in order, and
 * the batch stops at the first change that is not answered 2xx.
 */
describe.each(databaseKinds)('POST /api/batch on %s', (kind) => {
  let demo: Demo;

  beforeAll(async () => {
    demo = await startDemo(kind);
  });
  afterAll(() => demo.test.close());

  const create = (name: string, key: string, businessId = demo.businesses[0]) => ({
    method: 'POST',
    path: '/api/brands',
    body: { name },
    business_id: businessId,
    idempotency_key: key,
  });
  const batch = (changes: unknown[]) => demo.admin.send('POST', '/api/batch', { changes });
  const brandsNamed = async (name: string, businessId = demo.businesses[0]) =>
    (await demo.admin.inBusiness(businessId).send('GET', `/api/brands?name=${encodeURIComponent(name)}&is_strict=1`)).body.meta.total;

  it('applies each change in order, each in its own business, and answers each as if sent alone', async () => {
    const [first, second] = demo.businesses;
    const answer = await batch([create('Batch One', 'b-1'), create('Batch Two', 'b-2', second), create('Batch Three', 'b-3')]);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((one: { status: number }) => one.status)).toEqual([201, 201, 201]);
    const [one, two, three] = answer.body.data.map((one: { body: { data: { id: number; name: string } } }) => one.body.data);
    expect([one.name, two.name, three.name]).toEqual(['Batch One', 'Batch Two', 'Batch Three']);
    expect(one.id).toBeLessThan(three.id);
    expect([await brandsNamed('Batch One', first), await brandsNamed('Batch Two', second), await brandsNamed('Batch Two', first)]).toEqual([
      1, 1, 0,
    ]);
  });

  it('applies a batch sent again once: every change answers from its key', async () => {
    const changes = [create('Twice Sent', 'twice-1'), create('Twice Sent Too', 'twice-2')];
    const first = await batch(changes);
    const again = await batch(changes);
    expect(again.body.data.map(({ body }: { body: unknown }) => body)).toEqual(first.body.data.map(({ body }: { body: unknown }) => body));
    expect(first.body.data.map(({ replayed }: { replayed: boolean }) => replayed)).toEqual([false, false]);
    expect(again.body.data.map(({ replayed }: { replayed: boolean }) => replayed)).toEqual([true, true]);
    expect([await brandsNamed('Twice Sent'), await brandsNamed('Twice Sent Too')]).toEqual([1, 1]);
  });

  it('applies parallel copies of one batch once', async () => {
    const changes = [create('Parallel A', 'parallel-a'), create('Parallel B', 'parallel-b')];
    const answers = await Promise.all(Array.from({ length: 6 }, () => batch(changes)));
    for (const answer of answers) expect(answer.body.data.map((one: { status: number }) => one.status)).toEqual([201, 201]);
    expect([await brandsNamed('Parallel A'), await brandsNamed('Parallel B')]).toEqual([1, 1]);
  });

  it('stops at the first refusal: what came before stays, what came after is not tried', async () => {
    const answer = await batch([create('Before Refusal', 'r-1'), create('', 'r-2'), create('After Refusal', 'r-3')]);
    expect(answer.body.data.map((one: { status: number }) => one.status)).toEqual([201, 422]);
    expect(answer.body.data[1].body.errors.name).toHaveLength(1);
    expect([await brandsNamed('Before Refusal'), await brandsNamed('After Refusal')]).toEqual([1, 0]);
  });

  it('checks a base version as a PATCH alone does', async () => {
    const brand = (await batch([create('Versioned In Batch', 'v-1')])).body.data[0].body.data;
    const patch = (description: string, key: string) => ({
      method: 'PATCH',
      path: `/api/brands/${brand.id}`,
      body: { description },
      business_id: demo.businesses[0],
      idempotency_key: key,
      if_match: `"${brand.version}"`,
    });
    const answer = await batch([patch('first', 'v-2'), patch('second', 'v-3')]);
    expect(answer.body.data.map((one: { status: number }) => one.status)).toEqual([200, 412]);
  });

  it('holds each change to the permissions its user has in its business', async () => {
    const { session: viewer } = await userWithPermissions(demo.test, demo.businesses[0], ['view-brands']);
    const answer = await viewer.send('POST', '/api/batch', { changes: [create('Not Allowed', 'p-1')] });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([expect.objectContaining({ status: 403 })]);
    expect(await brandsNamed('Not Allowed')).toBe(0);
  });

  it('answers a change that is not well formed with 422 in its place', async () => {
    const answer = await batch([
      create('Well Formed', 'w-1'),
      { method: 'POST', path: '/api/auth/logout', business_id: null, idempotency_key: 'w-2' },
    ]);
    expect(answer.body.data.map((one: { status: number }) => one.status)).toEqual([201, 422]);
    expect(answer.body.data[1].body.errors.path).toEqual(['Sign-in calls and batches cannot be batched.']);
    for (const changes of [[], Array.from({ length: 101 }, (_, index) => create(`Many ${index}`, `m-${index}`)), 'none']) {
      expect((await batch(changes as unknown[])).status).toBe(422);
    }
    expect(await brandsNamed('Many 0')).toBe(0);
  });

  it('refuses a batch or a sign-in inside a batch however its path is spelt, and runs nothing of it', async () => {
    const sessions = async () =>
      Number(
        (
          await demo.test.app.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const before = await sessions();
    const spellings = [
      '/api/batch',
      '/api/%62atch',
      '/api/%62%61%74%63%68',
      '/api/./batch',
      '/api/%2e/batch',
      '/api/%2E%2E/api/batch',
      '/api/brands/../batch',
      '/api//batch',
      '/api/batch/',
      '/api/BATCH',
      '/API/batch',
      '/api/batch?again=1',
      '/api/batch;again',
      '/api/auth/login',
      '/api/%61uth/login',
      '/api/./auth/login',
      '/api/AUTH/login',
    ];
    for (const [index, path] of spellings.entries()) {
      const body = path.toLowerCase().includes('uth')
        ? { email: ADMIN_EMAIL, password: PASSWORD }
        : { changes: [create(`Nested ${index}`, `nested-inner-${index}`)] };
      const answer = await batch([{ method: 'POST', path, body, business_id: demo.businesses[0], idempotency_key: `nested-${index}` }]);
      expect(answer.status).toBe(200);
      expect(answer.body.data, path).toHaveLength(1);
      expect(answer.body.data[0].status, path).toBe(422);
      expect(answer.body.data[0].body.errors.path, path).toContain('Sign-in calls and batches cannot be batched.');
      expect(await brandsNamed(`Nested ${index}`), path).toBe(0);
    }
    expect(await sessions()).toBe(before);
  });

  it('is refused without a session and without the header a cross-site form cannot send', async () => {
    const anonymous = await demo.test.app.inject({
      method: 'POST',
      url: '/api/batch',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { changes: [create('Anonymous', 'a-1')] },
    });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await demo.test.app.inject({
      method: 'POST',
      url: '/api/batch',
      headers: { cookie: demo.admin.cookie },
      payload: { changes: [create('Cross Site', 'a-2')] },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(await brandsNamed('Anonymous')).toBe(0);
    expect(await brandsNamed('Cross Site')).toBe(0);
  });
});
