import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { ADMIN_EMAIL, databaseKinds, demoBusinessIds, PASSWORD, startTestApp, type TestApp } from '../../../tests/support/test-app';

const xhr = { 'x-requested-with': 'XMLHttpRequest' };

describe.each(databaseKinds)('sign-in, session and tenancy on %s', (kind) => {
  let test: TestApp;
  let businesses: [number, number];

  beforeAll(async () => {
    test = await startTestApp(kind);
    businesses = await demoBusinessIds(test);
  });
  afterAll(() => test.close());

  const login = (payload: unknown, headers: Record<string, string> = xhr) =>
    test.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, headers });

  it('signs in with an HttpOnly, SameSite=Lax session cookie and answers the user', async () => {
    const response = await login({ email: 'ADMIN@example.com ', password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^bodega_session=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const { user } = response.json();
    expect(user).toMatchObject({
      email: ADMIN_EMAIL,
      role_names: ['Administrator'],
      permission_names: ['full-access-and-permssions'],
      business_id: businesses[0],
    });
    expect(user.businesses.map((business: { id: number }) => business.id)).toEqual(businesses);
    expect(JSON.stringify(user)).not.toMatch(/password|hash/);
  });

  it('refuses wrong credentials with one message that does not tell which part was wrong', async () => {
    const wrongPassword = await login({ email: ADMIN_EMAIL, password: 'nope-nope' });
    const unknownEmail = await login({ email: 'nobody@example.com', password: PASSWORD });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknownEmail.json());
    expect(wrongPassword.headers['set-cookie']).toBeUndefined();
    const missing = await login({});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ email: ['The email field is required.'], password: ['The password field is required.'] });
  });

  it('answers GET /api/auth/user for the business in Business-ID, or the first; 401 signed out', async () => {
    const viewer = await test.signIn('viewer@example.com');
    const me = await viewer.send('GET', '/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'Viewer', userable_from: null, role_names: ['Viewer'] });
    expect(me.body.permission_names).toContain('view-brands');
    expect(me.body.permission_names).not.toContain('create-brands');

    const admin = await test.signIn(ADMIN_EMAIL);
    const second = await admin.inBusiness(businesses[1]).send('GET', '/api/auth/user');
    expect(second.body.business_id).toBe(businesses[1]);
    expect((await viewer.inBusiness(businesses[1]).send('GET', '/api/auth/user')).status).toBe(403);

    const anonymous = await test.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('says where the user works as "Branch: name"', async () => {
    const admin = await test.signIn(ADMIN_EMAIL);
    const branch = (await admin.send('GET', '/api/branches?code=MKT&is_strict=1')).body.data[0];
    const created = await admin.send('POST', '/api/users', {
      name: 'Makati Cashier',
      email: 'makati@example.com',
      password: 'cashier-pass',
      userable_type: 'branch',
      userable_id: branch.id,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.userable_from).toBe('Branch: Makati');
    const cashier = await test.signIn('makati@example.com', 'cashier-pass');
    expect((await cashier.send('GET', '/api/auth/user')).body.userable_from).toBe('Branch: Makati');
  });

  it('logs out with 204 and the session is gone, even when called twice', async () => {
    const session = await test.signIn('viewer@example.com');
    expect((await session.send('GET', '/api/brands')).status).toBe(200);
    const out = await session.send('POST', '/logout');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/bodega_session=;/);
    expect((await session.send('GET', '/api/brands')).status).toBe(401);
    expect((await session.send('POST', '/logout')).status).toBe(204);
  });

  it('refuses state-changing requests without X-Requested-With (403), but not reads', async () => {
    const admin = await test.signIn(ADMIN_EMAIL);
    const withoutHeader = await test.app.inject({
      method: 'POST',
      url: '/api/brands',
      payload: { name: 'Forged' },
      headers: { cookie: admin.cookie, 'business-id': String(businesses[0]) },
    });
    expect(withoutHeader.statusCode).toBe(403);
    expect((await login({ email: ADMIN_EMAIL, password: PASSWORD }, {})).statusCode).toBe(403);
    expect((await admin.send('GET', '/api/brands?name=Forged')).body.meta.total).toBe(0);
  });

  it('needs a Business-ID the user is a live member of (403 otherwise)', async () => {
    const viewer = await test.signIn('viewer@example.com');
    expect((await viewer.inBusiness(undefined).send('GET', '/api/brands')).status).toBe(403);
    expect((await viewer.inBusiness(businesses[1]).send('GET', '/api/brands')).status).toBe(403);
    expect((await viewer.inBusiness(999_999).send('GET', '/api/brands')).status).toBe(403);
    expect((await viewer.send('GET', '/api/brands', undefined, { 'business-id': 'one' })).status).toBe(403);
    expect((await viewer.send('GET', '/api/brands')).status).toBe(200);
  });

  it('lists the signed-in user’s businesses', async () => {
    const admin = await test.signIn(ADMIN_EMAIL);
    for (const path of ['get-all-businesses', 'retrieve-all-businesses']) {
      const answer = await admin.inBusiness(undefined).send('GET', `/api/businesses/${path}`);
      expect(answer.status).toBe(200);
      expect(answer.body.data.map((business: { name: string }) => business.name)).toEqual([
        'Tindahan ni Aling Nena Trading',
        'Mabuhay Hardware Supply',
      ]);
    }
    const viewer = await test.signIn('viewer@example.com');
    expect((await viewer.send('GET', '/api/businesses/get-all-businesses')).body.data).toHaveLength(1);
  });

  it('gives a new business to its creator with an Administrator role and the seeded types', async () => {
    const admin = await test.signIn(ADMIN_EMAIL);
    const created = await admin.send('POST', '/api/businesses', { name: 'Bagong Negosyo', vat_registered: '1' });
    expect(created.status).toBe(201);
    expect(created.body.data.vat_registered).toBe(true);
    const inNew = admin.inBusiness(created.body.data.id);
    expect((await inNew.send('GET', '/api/auth/user')).body.role_names).toEqual(['Administrator']);
    expect((await inNew.send('GET', '/api/contact-types')).body.data.map((type: { name: string }) => type.name).sort()).toEqual([
      'Customer',
      'Employee',
      'Other',
      'Supplier',
    ]);
    expect((await inNew.send('GET', '/api/item-types')).body.meta.total).toBe(3);
    expect((await inNew.send('GET', '/api/brands')).body.meta.total).toBe(0);
  });

  it('answers /api/health and serves the OpenAPI document', async () => {
    expect((await test.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const docs = await test.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = docs.json().paths;
    expect(paths['/api/items/{id}'].patch.requestBody).toBeDefined();
    expect(paths['/api/auth/login'].post).toBeDefined();
    expect(Object.keys(paths).length).toBeGreaterThan(19 * 3);
  });

  it('answers JSON 404 for unknown API paths and 400 for malformed JSON, never 500', async () => {
    const admin = await test.signIn(ADMIN_EMAIL);
    expect((await admin.send('GET', '/api/nothing-here')).status).toBe(404);
    expect((await admin.send('GET', '/api/brands/abc')).status).toBe(404);
    expect((await admin.send('GET', '/api/brands/99999999999')).status).toBe(404);
    const malformed = await admin.send('POST', '/api/brands', '{"name": ', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    const wrongType = await admin.send('POST', '/api/brands', '<brand/>', { 'content-type': 'application/xml' });
    expect(wrongType.status).toBe(415);
    const text = await admin.send('POST', '/api/brands', 'name=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(422);
  });
});

describe('sign-in rate limit', () => {
  it('answers 429 once the attempts per minute are spent', async () => {
    const app = await buildApp({ database: { url: 'file::memory:' }, loginAttemptsPerMinute: 3, secureCookies: true, logger: false });
    try {
      const attempt = () =>
        app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.com', password: 'whatever1' }, headers: xhr });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt()).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await app.close();
    }
  });
});
