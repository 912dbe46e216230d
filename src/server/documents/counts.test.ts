import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';
import { auditDatabase } from './audit';

interface Line {
  item_id: number;
  expected: number;
  on_hand: number;
  moved: number;
  counted: number | null;
  entries: number;
  difference: number | null;
}

/**
 * Stock counts through the API, on each database: started from a scope, counted from several
 * devices (entries add up), goods moving while it is open, posted once into a stock adjustment.
 */
describe.each(databaseKinds)('stock counts on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  let warehouseId: number;
  let items: { id: number; name: string; brand_id: number | null; unit_of_measurement_id: number }[];

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    warehouseId = (await admin.send('GET', '/api/warehouses?limit=1&order_by=asc')).body.data[0].id;
    items = (await admin.send('GET', '/api/items?per_page=100&order_by=asc')).body.data;
  });
  afterAll(() => test.close());
  afterEach(async () => {
    expect(await auditDatabase(test.app.db)).toEqual([]);
  });

  const onHand = async (itemId: number) =>
    (await admin.send('GET', `/api/stocks?item_id=${itemId}&location_type=warehouse&location_id=${warehouseId}&is_strict=1`)).body.data[0]
      ?.quantity_on_hand ?? 0;
  const start = (body: Record<string, unknown>) =>
    admin.send('POST', '/api/stock-counts', { warehouse_id: warehouseId, date: '2026-11-25', ...body });
  const lineOf = async (countId: number, itemId: number): Promise<Line> =>
    (await admin.send('GET', `/api/stock-counts/${countId}`)).body.data.lines.find((line: Line) => line.item_id === itemId);
  const count = (countId: number, itemId: number, quantity: number, session = admin) =>
    session.send('POST', `/api/stock-counts/${countId}/entries`, { item_id: itemId, quantity });

  it('starts with what the ledger holds for each item of its scope, and entries from two devices add up', async () => {
    const brandId = items.find((item) => item.brand_id !== null)!.brand_id!;
    const ofBrand = items.filter((item) => item.brand_id === brandId);
    const mixed = await start({ scope: 'brand', brand_id: brandId, item_type_id: 1 });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors).toEqual({ item_type_id: ['The item type is only for counting one item type.'] });
    const started = await start({ scope: 'brand', brand_id: brandId });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.data).toMatchObject({
      status: 'open',
      number: expect.stringMatching(/^SC-20261125-W\d{5}-\d{8}$/),
      item_type_id: null,
      lines_total: ofBrand.length,
      lines_counted: 0,
    });
    const id = started.body.data.id;
    const [first] = ofBrand;
    const expected = await onHand(first.id);
    expect(await lineOf(id, first.id)).toMatchObject({ expected, on_hand: expected, moved: 0, counted: null, difference: null });

    const { session: other } = await userWithPermissions(test, businesses[0], ['view-stock-counts', 'update-stock-counts']);
    const answers = await Promise.all([count(id, first.id, 5), count(id, first.id, 3, other), count(id, first.id, 2)]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await lineOf(id, first.id)).toMatchObject({ counted: 10, entries: 3, difference: 10 - expected });
    // A miscount is taken back; never below none.
    expect((await count(id, first.id, -4)).body.data).toMatchObject({ counted: 6, entries: 4 });
    const below = await count(id, first.id, -7);
    expect(below.status).toBe(422);
    expect(below.body.errors.quantity[0]).toContain(first.name);
    expect((await admin.send('GET', `/api/stock-counts/${id}`)).body.data.lines_counted).toBe(1);
  });

  it('accounts for goods moved while it is open, posts once under parallel requests, and the balance is what was counted', async () => {
    const [item, other] = items;
    const started = await start({ scope: 'all' });
    const id = started.body.data.id;
    const before = await onHand(item.id);
    expect((await count(id, item.id, before + 4)).status).toBe(201);
    expect((await count(id, other.id, 1)).status).toBe(201);
    // Two of the item leave after the count started: the line shows it, and posting takes it into account.
    const taken = await admin.send('POST', '/api/stock-adjustments', {
      warehouse_id: warehouseId,
      date: '2026-11-25',
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: -2, reason: 'damaged' }],
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(await lineOf(id, item.id)).toMatchObject({
      expected: before,
      on_hand: before - 2,
      moved: -2,
      counted: before + 4,
      difference: 6,
    });

    const posts = await Promise.all(Array.from({ length: 8 }, () => admin.send('PATCH', `/api/stock-counts/${id}/post`)));
    expect(posts.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const posted = posts.find((answer) => answer.status === 200)!.body.data;
    expect(posted).toMatchObject({ status: 'posted', stock_adjustment_id: expect.any(Number) });
    expect(await onHand(item.id)).toBe(before + 4);
    expect(await onHand(other.id)).toBe(1);

    const adjustment = (await admin.send('GET', `/api/stock-adjustments/${posted.stock_adjustment_id}`)).body.data;
    expect(adjustment).toMatchObject({ status: 'posted', stock_count_id: id, warehouse_id: warehouseId });
    const adjusted = new Map(adjustment.lines.map((line: { item_id: number; quantity: number }) => [line.item_id, line]));
    expect(adjusted.get(item.id)).toMatchObject({ quantity: 6, reason: 'count_correction' });
    // Only counted items are adjusted.
    expect(adjustment.lines).toHaveLength(2);
    expect((await admin.send('GET', `/api/stock-adjustments?stock_count_id=${id}`)).body.meta.total).toBe(1);
    // Once posted, the difference stays what it was when posted, and nothing more is counted.
    expect(await lineOf(id, item.id)).toMatchObject({ on_hand: before - 2, difference: 6 });
    expect((await count(id, item.id, 1)).status).toBe(409);
    expect((await admin.send('PATCH', `/api/stock-counts/${id}/cancel`)).status).toBe(409);
  });

  it('counts picked items as they come, in any unit the item converts from', async () => {
    const started = await start({ scope: 'picked' });
    expect(started.body.data).toMatchObject({ lines_total: 0 });
    const id = started.body.data.id;
    const item = items[2];
    const entry = await admin.send('POST', `/api/stock-counts/${id}/entries`, {
      item_id: item.id,
      unit_of_measurement_id: item.unit_of_measurement_id,
      quantity: 2.5,
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    expect(entry.body.data).toMatchObject({ item_id: item.id, counted: 2.5, expected: await onHand(item.id) });
    // A count with nothing different posts without an adjustment.
    const none = await start({ scope: 'picked' });
    expect((await count(none.body.data.id, item.id, await onHand(item.id))).status).toBe(201);
    const posted = await admin.send('PATCH', `/api/stock-counts/${none.body.data.id}/post`);
    expect(posted.body.data).toMatchObject({ status: 'posted', stock_adjustment_id: null });
  });

  it('refuses a scope without what it names, an entry of nothing, a cancelled count, and a post by who may not adjust', async () => {
    const noBrand = await start({ scope: 'brand' });
    expect(noBrand.status).toBe(422);
    expect(noBrand.body.errors.brand_id).toEqual(['Pick the brand: the items counted are one brand.']);
    const started = await start({ scope: 'picked' });
    const id = started.body.data.id;
    expect((await count(id, items[0].id, 0)).status).toBe(422);
    expect((await admin.send('POST', `/api/stock-counts/${id}/entries`, { item_id: 'x', quantity: 1 })).status).toBe(422);
    expect((await count(999_999, items[0].id, 1)).status).toBe(404);

    const { session } = await userWithPermissions(test, businesses[0], ['view-stock-counts', 'update-stock-counts']);
    expect((await session.send('PATCH', `/api/stock-counts/${id}/post`)).status).toBe(403);
    const { session: viewer } = await userWithPermissions(test, businesses[0], ['view-stock-counts']);
    expect((await count(id, items[0].id, 1, viewer)).status).toBe(403);

    expect((await admin.send('PATCH', `/api/stock-counts/${id}/cancel`)).status).toBe(200);
    expect((await count(id, items[0].id, 1)).status).toBe(409);
    expect((await admin.send('PATCH', `/api/stock-counts/${id}/post`)).status).toBe(409);
  });

  it('keeps each business to its own counts', async () => {
    const started = await start({ scope: 'picked' });
    const elsewhere = await test.signIn(ADMIN_EMAIL, undefined, businesses[1]);
    expect(
      (await elsewhere.send('POST', `/api/stock-counts/${started.body.data.id}/entries`, { item_id: items[0].id, quantity: 1 })).status,
    ).toBe(404);
    expect((await elsewhere.send('PATCH', `/api/stock-counts/${started.body.data.id}/post`)).status).toBe(404);
  });
});
