import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, startTestApp, type Session, type TestApp } from '../../../tests/support/test-app';

/** Whatever a client sends, the answer is a 4xx with a message — never a 500. */
describe.each(databaseKinds)('hostile input on %s', (kind) => {
  let test: TestApp;
  let admin: Session;

  beforeAll(async () => {
    test = await startTestApp(kind);
    admin = await test.signIn(ADMIN_EMAIL);
  });
  afterAll(() => test.close());

  const huge = '99999999999999999999';

  it.each([
    '/api/items?id=' + huge,
    '/api/items?brand_id=' + huge,
    '/api/items?brand_id=-1',
    '/api/items?vatable=maybe',
    '/api/items?name=%00',
    '/api/items?name=' + encodeURIComponent('" OR 1=1 --'),
    '/api/items?name=' + encodeURIComponent('NEAR(a b) * ^ "'),
    '/api/items?name=a&name=b',
    '/api/items?page=' + huge,
    '/api/items?page=999999',
    '/api/items?limit=0',
    '/api/items?order_by_field_name[]=id',
    '/api/sale-item-prices?effective_date=not-a-date',
    '/api/items/' + huge,
    '/api/items/-1',
    '/api/items/1.5',
  ])('GET %s', async (url) => {
    const answer = await admin.send('GET', url);
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    expect(answer.body).toBeTypeOf('object');
  });

  it.each([
    ['a NUL character', { name: 'Bad\u0000Name' }],
    ['a huge number', { name: 'Big', description: 1e308 }],
    ['nested objects', { name: { $gt: '' } }],
    ['an array for a string', { name: ['a', 'b'] }],
    ['a very long name', { name: 'x'.repeat(10_000) }],
    ['null body fields', { name: null, description: null }],
  ])('POST a brand with %s', async (_what, body) => {
    const answer = await admin.send('POST', '/api/brands', body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(Object.keys(answer.body.errors).length).toBeGreaterThan(0);
  });

  it('refuses out-of-range references and numbers with 422', async () => {
    const items = await admin.send('POST', '/api/items', {
      sku: 'X-1',
      name: 'X',
      unit_of_measurement_id: Number(huge),
      reorder_level: 1e20,
    });
    expect(items.status).toBe(422);
    expect(Object.keys(items.body.errors).sort()).toEqual(['reorder_level', 'unit_of_measurement_id']);
  });

  it('answers odd headers with 4xx', async () => {
    expect((await admin.send('GET', '/api/brands', undefined, { 'business-id': huge })).status).toBe(403);
    expect((await admin.send('GET', '/api/brands', undefined, { 'business-id': '-1' })).status).toBe(403);
    const brand = (await admin.send('GET', '/api/brands')).body.data[0];
    expect((await admin.send('PATCH', `/api/brands/${brand.id}`, { name: 'Z' }, { 'if-match': 'banana' })).status).toBe(412);
    expect((await admin.send('POST', '/api/brands', { name: 'K' }, { 'idempotency-key': 'k'.repeat(300) })).status).toBe(422);
    expect((await admin.send('POST', '/api/brands', { name: 'K' }, { 'idempotency-key': 'nul\u0000key' })).status).toBe(422);
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin\u0000@example.com', password: 'whatever1' },
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(login.statusCode).toBe(422);
    const cookie = await test.app.inject({ method: 'GET', url: '/api/brands', headers: { cookie: 'bodega_session=' + 'x'.repeat(5000) } });
    expect(cookie.statusCode).toBe(401);
  });
});
