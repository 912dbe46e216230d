import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, contactOfType, databaseKinds, startTestApp, type Session, type TestApp } from '../../../tests/support/test-app';

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
    '/api/items?sc_pwd_discount=maybe',
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

  describe('ids are JSON numbers, whole and from 1, or refused with 422', () => {
    const notIds: [string, unknown][] = [
      ['true', true],
      ['a list', ['5']],
      ['a numeric string', '5'],
      ['"5.0"', '5.0'],
      ['" 5 "', ' 5 '],
      ['a fraction', 1.5],
      ['zero', 0],
      ['a negative', -1],
      ['beyond the safe integers', 2 ** 53 + 2],
      ['null', null],
    ];
    const versionOf = async (id: number) =>
      (await test.app.db.selectFrom('users').select('version').where('id', '=', id).executeTakeFirstOrThrow()).version;

    it.each(notIds)('resets no secret for an id of %s', async (_what, id) => {
      const users = (await admin.send('GET', '/api/users?order_by=asc&per_page=100')).body.data;
      const before = await Promise.all(users.map((user: { id: number }) => versionOf(user.id)));
      for (const kind of ['password', 'security-pin']) {
        const answer = await admin.send('POST', `/api/users/reset-${kind}`, { id });
        expect(answer.status, JSON.stringify(answer.body)).toBe(422);
        expect(Object.keys(answer.body.errors)).toEqual(['id']);
      }
      expect(await Promise.all(users.map((user: { id: number }) => versionOf(user.id)))).toEqual(before);
    });

    it.each(notIds.filter(([, id]) => id !== null))('refuses %s in every id-taking field of a body', async (_what, id) => {
      const item = (await admin.send('GET', '/api/items?order_by=asc')).body.data[0];
      const [contact] = (await admin.send('GET', '/api/contacts?order_by=asc')).body.data;
      const [warehouse] = (await admin.send('GET', '/api/warehouses?order_by=asc')).body.data;
      const [role] = (await admin.send('GET', '/api/roles?order_by=asc')).body.data;
      const user = (await admin.send('GET', '/api/users?email=viewer@example.com&is_strict=1')).body.data[0];
      const line = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, unit_price: 1 };
      const order = { contact_id: contact.id, warehouse_id: warehouse.id, date: '2026-01-05' };
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/items', { sku: 'ID-1', name: 'Id', unit_of_measurement_id: id }, 'unit_of_measurement_id'],
        ['PATCH', `/api/items/${item.id}`, { brand_id: id }, 'brand_id'],
        ['PATCH', `/api/users/${user.id}`, { userable_type: 'warehouse', userable_id: id }, 'userable_id'],
        ['POST', '/api/purchase-orders', { ...order, contact_id: id, lines: [line] }, 'contact_id'],
        ['POST', '/api/purchase-orders', { ...order, lines: [{ ...line, item_id: id }] }, 'lines.0.item_id'],
        ['POST', '/api/purchase-orders', { ...order, lines: [{ ...line, unit_of_measurement_id: id }] }, 'lines.0.unit_of_measurement_id'],
        ['POST', '/api/receive-orders', { ...order, lines: [{ ...line, source_line_id: id }] }, 'lines.0.source_line_id'],
        ['POST', '/api/documents/get-number-total-count/', { document_name: 'purchase-order', warehouse_id: id }, 'warehouse_id'],
        ['POST', '/api/documents/get-reference-number-total-count/', { document_name: 'purchase-order', contact_id: id }, 'contact_id'],
        ['PUT', `/api/users/${user.id}/roles`, { role_ids: [id] }, 'role_ids.0'],
        ['PUT', `/api/roles/${role.id}/permissions`, { permission_ids: [id] }, 'permission_ids.0'],
      ];
      for (const [method, url, body, field] of cases) {
        const answer = await admin.send(method as 'POST', url, body);
        expect(answer.status, `${method} ${url} ${JSON.stringify(answer.body)}`).toBe(422);
        expect(Object.keys(answer.body.errors), `${method} ${url}`).toContain(field);
      }
    });

    it.each(['%205%20', '5.0', '+5', '0x5'])('finds no record by id or reference for the query value %s', async (value) => {
      const item = (await admin.send('GET', '/api/items?order_by=asc')).body.data.find((row: { id: number }) => row.id === 5);
      expect(item).toBeDefined();
      expect((await admin.send('GET', '/api/items?id=5')).body.data).toHaveLength(1);
      expect((await admin.send('GET', `/api/items?id=${value}`)).body.data).toEqual([]);
      const brandId = String(item.brand_id);
      expect((await admin.send('GET', `/api/items?brand_id=${brandId}`)).body.data.length).toBeGreaterThan(0);
      expect((await admin.send('GET', `/api/items?brand_id=${value.replace('5', brandId)}`)).body.data).toEqual([]);
    });
  });

  it('refuses amounts and quantities beyond what a document or a balance may hold with 422, and writes nothing', async () => {
    const [item] = (await admin.send('GET', '/api/items?per_page=15&order_by=asc')).body.data;
    const supplierId = await contactOfType(admin, 'Supplier');
    const [warehouse] = (await admin.send('GET', '/api/warehouses?per_page=15&order_by=asc')).body.data;
    const order = (line: Record<string, unknown>) =>
      admin.send('POST', '/api/purchase-orders', {
        contact_id: supplierId,
        warehouse_id: warehouse.id,
        date: '2026-11-03',
        lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, ...line }],
      });
    const before = (await admin.send('GET', '/api/purchase-orders')).body.meta.total;
    const amount = await order({ quantity: 1_000_000_000, unit_price: 1_000_000_000 });
    expect(amount.status, JSON.stringify(amount.body)).toBe(422);
    expect(Object.keys(amount.body.errors)).toEqual(['lines.0.quantity']);
    // A box of a billion pieces, a billion boxes: more pieces than a line may move, even at no price.
    const [box] = (await admin.send('GET', '/api/unit-of-measurements?per_page=15&order_by=desc')).body.data;
    const conversion = await admin.send('POST', '/api/conversions', {
      item_id: item.id,
      from_unit_id: box.id,
      to_unit_id: item.unit_of_measurement_id,
      factor: 1_000_000_000,
    });
    expect(conversion.status, JSON.stringify(conversion.body)).toBe(201);
    const pieces = await order({ unit_of_measurement_id: box.id, quantity: 1_000_000_000, unit_price: 0 });
    expect(pieces.status, JSON.stringify(pieces.body)).toBe(422);
    expect(pieces.body.errors['lines.0.quantity'][0]).toContain('the most a line may move');
    expect((await admin.send('GET', '/api/purchase-orders')).body.meta.total).toBe(before);
  });

  it('takes a JSON content type with no body as no body, for any method', async () => {
    const json = { 'content-type': 'application/json' };
    const made = async (name: string) => (await admin.send('POST', '/api/brands', { name })).body.data.id as number;
    const trashed = await admin.send('DELETE', `/api/brands/${await made('Empty Delete')}`, undefined, json);
    expect(trashed.status, JSON.stringify(trashed.body)).toBe(200);
    expect(trashed.body.data.deleted_at).not.toBeNull();
    const charset = await admin.send('DELETE', `/api/brands/${await made('Empty Delete Charset')}`, undefined, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(charset.status, JSON.stringify(charset.body)).toBe(200);
    const restored = await admin.send('PATCH', `/api/brands/${trashed.body.data.id}/restore`, undefined, json);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);

    // A route that needs a body answers its own refusal, not a 400 about the JSON.
    const create = await admin.send('POST', '/api/brands', undefined, json);
    expect(create.status, JSON.stringify(create.body)).toBe(422);
    expect(create.body.message).toBeTypeOf('string');
    // A body that is there is still read as JSON: broken JSON, and a prototype key, stay refused.
    for (const payload of ['{"name":', '{"name":"P","__proto__":{"admin":true}}']) {
      const answer = await admin.send('POST', '/api/brands', payload, json);
      expect(answer.status, payload).toBe(400);
    }
    expect(test.errorLines).toEqual([]);
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
