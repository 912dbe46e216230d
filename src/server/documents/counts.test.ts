import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInManila } from '../../domain/documents';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import {
  ADMIN_EMAIL,
  databaseKinds,
  startDemo,
  sellableAt,
  userWithPermissions,
  type Session,
  type TestApp,
} from '../../../tests/support/test-app';
import { auditAfterEach } from '../../../tests/support/audited';
import { startCounting, type CountedItem } from '../../../tests/support/stock-counts';
import { createRecord } from '../resources/record-service';
import { adjustCount } from '../resources/resource-counts';
import { auditDatabase } from './audit';

interface Line {
  item_id: number;
  expected: number;
  on_hand: number;
  moved: number;
  counted: number | null;
  entries: number;
  difference: number | null;
  difference_value: number | null;
  item: { sku: string };
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
  let items: CountedItem[];

  beforeAll(async () => {
    ({ test, admin, businesses, warehouseId, items } = await startCounting(kind));
  });
  afterAll(() => test.close());
  auditAfterEach(() => test);

  // What a count counts: the demo keeps some goods at the warehouse quarantined, apart.
  const onHand = (itemId: number) => sellableAt(admin, itemId, { type: 'warehouse', id: warehouseId });
  const start = (body: Record<string, unknown>) =>
    admin.send('POST', '/api/stock-counts', { warehouse_id: warehouseId, date: '2026-11-25', ...body });
  const linesOf = async (countId: number, query = ''): Promise<Line[]> => {
    const answer = await admin.send('GET', `/api/stock-counts/${countId}/lines?per_page=100${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };
  const lineOf = async (countId: number, itemId: number): Promise<Line> =>
    (await linesOf(countId)).find((line: Line) => line.item_id === itemId)!;
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
    expect((await elsewhere.send('GET', `/api/stock-counts/${started.body.data.id}/lines`)).status).toBe(404);
    expect((await elsewhere.send('PATCH', `/api/stock-counts/${started.body.data.id}/uncount`, { item_id: items[0].id })).status).toBe(404);
  });

  it('refuses an item outside its scope, in words, and counts the items of its scope', async () => {
    const brandId = items.find((item) => item.brand_id !== null)!.brand_id!;
    const ofBrand = items.filter((item) => item.brand_id === brandId);
    const stray = items.find((item) => item.brand_id !== brandId)!;
    const brand = (await admin.send('GET', `/api/brands/${brandId}`)).body.data;
    const id = (await start({ scope: 'brand', brand_id: brandId })).body.data.id;
    const refused = await count(id, stray.id, 1);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      item_id: [`${stray.name} is not of the brand this count covers (${brand.name}): count it on a count of its own.`],
    });
    expect((await count(id, ofBrand[0].id, 1)).status).toBe(201);
    expect((await admin.send('GET', `/api/stock-counts/${id}`)).body.data).toMatchObject({ lines_total: ofBrand.length, lines_counted: 1 });
    // A count of picked items takes any item.
    const picked = (await start({ scope: 'picked' })).body.data.id;
    expect((await count(picked, stray.id, 1)).status).toBe(201);
  });

  it('takes a stray line back to not counted: posting leaves its stock as it is, and nothing is taken off once posted', async () => {
    const [item, other] = [items[3], items[4]];
    const before = await onHand(item.id);
    expect(before).toBeGreaterThan(0);
    const id = (await start({ scope: 'all' })).body.data.id;
    expect((await count(id, item.id, 1)).status).toBe(201);
    // Taken back with −1 it is counted still, at none: posting would take its whole stock away.
    expect((await count(id, item.id, -1)).body.data).toMatchObject({ counted: 0, entries: 2, difference: -before });
    const taken = await admin.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: item.id });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.data).toMatchObject({ item_id: item.id, counted: null, entries: 0, difference: null });
    // Taken off twice: the second finds it not counted, and answers it as it is.
    expect((await admin.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: item.id })).body.data).toMatchObject({ counted: null });
    const entries = await test.app.db.selectFrom('stock_count_entries').select('id').where('stock_count_id', '=', id).execute();
    expect(entries).toEqual([]);
    const history = await test.app.db
      .selectFrom('activity_log')
      .select(['action', 'summary'])
      .where('resource', '=', 'stock-counts')
      .where('record_id', '=', id)
      .where('action', '=', 'uncounted')
      .execute();
    expect(history).toEqual([
      { action: 'uncounted', summary: `${item.name} taken off the count: 0 counted in 2 entries, now not counted.` },
    ]);

    expect((await admin.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: String(item.id) })).status).toBe(422);
    const picked = (await start({ scope: 'picked' })).body.data.id;
    const notOn = await admin.send('PATCH', `/api/stock-counts/${picked}/uncount`, { item_id: item.id });
    expect(notOn.status).toBe(422);
    expect(notOn.body.errors).toEqual({ item_id: ['That item is not on this stock count.'] });
    const { session: viewer } = await userWithPermissions(test, businesses[0], ['view-stock-counts']);
    expect((await viewer.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: item.id })).status).toBe(403);

    // Counted again, it counts from none.
    expect((await count(id, other.id, 2)).status).toBe(201);
    expect((await admin.send('PATCH', `/api/stock-counts/${id}/post`)).status).toBe(200);
    expect(await onHand(item.id)).toBe(before);
    expect(await onHand(other.id)).toBe(2);
    expect((await admin.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: other.id })).status).toBe(409);
  });

  it('refuses quantities that round to nothing: a count entry of 0.0004, adjustment lines of 0.0004 and of 0', async () => {
    const item = items[5];
    const id = (await start({ scope: 'picked' })).body.data.id;
    for (const quantity of [0.0004, -0.0004]) {
      const tiny = await count(id, item.id, quantity);
      expect(tiny.status).toBe(422);
      expect(tiny.body.errors).toEqual({
        quantity: [`The quantity ${quantity} rounds to 0: quantities are kept to the thousandth (0.001).`],
      });
    }
    expect((await admin.send('GET', `/api/stock-counts/${id}`)).body.data).toMatchObject({ lines_total: 0, lines_counted: 0 });
    // Counted in a unit a thousandth of the item's own, 0.4 is less than a thousandth of it.
    const unit = await admin.send('POST', '/api/unit-of-measurements', { name: 'Tiny test unit', abbreviation: 'tiny' });
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);
    const conversion = await admin.send('POST', '/api/conversions', {
      item_id: item.id,
      from_unit_id: unit.body.data.id,
      to_unit_id: item.unit_of_measurement_id,
      factor: 0.001,
    });
    expect(conversion.status, JSON.stringify(conversion.body)).toBe(201);
    const small = await admin.send('POST', `/api/stock-counts/${id}/entries`, {
      item_id: item.id,
      unit_of_measurement_id: unit.body.data.id,
      quantity: 0.4,
    });
    expect(small.status).toBe(422);
    expect(small.body.errors.quantity).toEqual([
      `0.4 of this unit is less than a thousandth of ${item.name}'s own unit: too little to count.`,
    ]);
    // Half a thousandth keeps one.
    expect((await count(id, item.id, 0.0005)).body.data).toMatchObject({ counted: 0.001 });

    const adjust = (quantity: number) =>
      admin.send('POST', '/api/stock-adjustments', {
        warehouse_id: warehouseId,
        date: '2026-11-25',
        lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity, reason: 'opening_balance' }],
      });
    const refusals = await Promise.all([0, 0.0004, -0.0004].map(adjust));
    expect(refusals.map((answer) => [answer.status, answer.body.errors?.['lines.0.quantity']])).toEqual([
      [422, ['The quantity must not be 0: a positive quantity adds stock, a negative one takes it away.']],
      [422, ['The quantity 0.0004 rounds to 0: quantities are kept to the thousandth (0.001).']],
      [422, ['The quantity -0.0004 rounds to 0: quantities are kept to the thousandth (0.001).']],
    ]);
  });

  it('answers a count without its lines, and its lines a page at a time, filtered and searched on the server', async () => {
    // Dated today: the items' purchase prices hold, so the differences have a value.
    const started = await start({ scope: 'all', date: todayInManila() });
    expect(started.body.data.lines).toBeUndefined();
    const id = started.body.data.id;
    const total = started.body.data.lines_total;
    const [first, second] = items;
    expect((await count(id, first.id, (await onHand(first.id)) + 2)).status).toBe(201);
    expect((await count(id, second.id, await onHand(second.id))).status).toBe(201);
    const read = (await admin.send('GET', `/api/stock-counts/${id}`)).body.data;
    expect(read.lines).toBeUndefined();
    const firstLine = await lineOf(id, first.id);
    expect(firstLine.difference_value).not.toBeNull();
    expect(read).toMatchObject({ lines_total: total, lines_counted: 2, lines_differing: 1, difference_value: firstLine.difference_value });

    const every = await linesOf(id);
    expect(every).toHaveLength(total);
    const page = (number: number) => admin.send('GET', `/api/stock-counts/${id}/lines?per_page=5&page=${number}`);
    const [one, two] = await Promise.all([page(1), page(2)]);
    expect(one.body.meta).toMatchObject({ total, per_page: 5, current_page: 1, last_page: Math.ceil(total / 5), from: 1, to: 5 });
    expect([...one.body.data, ...two.body.data].map((line: Line) => line.item_id)).toEqual(every.slice(0, 10).map((line) => line.item_id));
    const ids = async (query: string) => (await linesOf(id, query)).map((line) => line.item_id).sort((a, b) => a - b);
    expect(await ids('&show=counted')).toEqual([first.id, second.id].sort((a, b) => a - b));
    expect(await ids('&show=differences')).toEqual([first.id]);
    expect(await ids('&show=uncounted')).toHaveLength(total - 2);
    expect(await ids(`&search=${encodeURIComponent(first.sku.toLowerCase())}`)).toContain(first.id);
    expect(await ids(`&show=uncounted&search=${encodeURIComponent(first.sku)}`)).not.toContain(first.id);

    for (const query of ['show=nope', 'per_page=101', 'page=0', 'page=x']) {
      expect((await admin.send('GET', `/api/stock-counts/${id}/lines?${query}`)).status, query).toBe(422);
    }
    expect((await admin.send('GET', '/api/stock-counts/999999/lines')).status).toBe(404);
    const { session: stranger } = await userWithPermissions(test, businesses[0], ['view-items']);
    expect((await stranger.send('GET', `/api/stock-counts/${id}/lines`)).status).toBe(403);

    const posted = await admin.send('PATCH', `/api/stock-counts/${id}/post`);
    expect(posted.status).toBe(200);
    expect(posted.body.data.lines).toBeUndefined();
    expect(await ids('&show=differences')).toEqual([first.id]);
  });

  it('answers a count of every item of a business of 100,000 items in pages: its start, read and post in a few kilobytes', async () => {
    const MANY = 100_000;
    const unitId = items[0].unit_of_measurement_id;
    const now = new Date().toISOString();
    await test.app.db.transaction().execute(async (trx) => {
      await sql`
        with recursive n(i) as (select 1 union all select i + 1 from n where i < ${MANY})
        insert into items (business_id, sku, barcode, name, unit_of_measurement_id, reorder_level, vat_category,
          purchase_discounts, sale_discounts, created_at, updated_at, version)
        select ${businesses[0]}, 'BULK-' || i, null, 'Bulk item ' || i, ${unitId}, 0, 'vatable', '[]', '[]', ${now}, ${now}, 1
        from n`.execute(trx);
      await adjustCount(trx, businesses[0], 'items', MANY, 0);
    });
    const size = (body: unknown) => JSON.stringify(body).length;
    const started = await start({ scope: 'all' });
    expect(started.status).toBe(201);
    expect(started.body.data.lines_total).toBeGreaterThan(MANY);
    expect(size(started.body)).toBeLessThan(4000);
    const id = started.body.data.id;
    const read = await admin.send('GET', `/api/stock-counts/${id}`);
    expect(size(read.body)).toBeLessThan(4000);
    const page = await admin.send('GET', `/api/stock-counts/${id}/lines?page=2`);
    expect(page.body.data).toHaveLength(100);
    expect(page.body.meta).toMatchObject({ total: started.body.data.lines_total, current_page: 2, from: 101, to: 200 });
    const found = await linesOf(id, '&search=BULK-77777');
    expect(found.map((line) => line.item)).toEqual([expect.objectContaining({ sku: 'BULK-77777' })]);
    expect((await count(id, found[0].item_id, 3)).status).toBe(201);
    const posted = await admin.send('PATCH', `/api/stock-counts/${id}/post`);
    expect(posted.status).toBe(200);
    expect(size(posted.body)).toBeLessThan(4000);
    expect(await onHand(found[0].item_id)).toBe(3);
  }, 300_000);
});

/**
 * A count posting while a document makes the balance of a counted item at its place (PostgreSQL:
 * SQLite runs one writer at a time, so the two cannot overlap there). The document holds its new
 * balance, not yet committed, while the post runs; the post must wait for it and count it, so that
 * afterwards the balance is what was counted.
 */
describe.skipIf(!databaseKinds.includes('postgres'))('a stock count posting while a balance is made on PostgreSQL', () => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo('postgres'));
  });
  afterAll(() => test?.close());

  it('waits for a balance made meanwhile at its place, and leaves it at what was counted', async () => {
    const warehouseId = (await admin.send('GET', '/api/warehouses?limit=1&order_by=asc')).body.data[0].id;
    const unitId = (await admin.send('GET', '/api/unit-of-measurements?limit=1')).body.data[0].id;
    const made = await admin.send('POST', '/api/items', { sku: 'RACE-1', name: 'Race item', unit_of_measurement_id: unitId });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const itemId = made.body.data.id;
    const countId = (await admin.send('POST', '/api/stock-counts', { warehouse_id: warehouseId, date: '2026-11-25', scope: 'picked' })).body
      .data.id;
    expect((await admin.send('POST', `/api/stock-counts/${countId}/entries`, { item_id: itemId, quantity: 5 })).status).toBe(201);

    const user = await test.app.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
    const scope = { businessId: businesses[0], userId: user.id, permissions: new Set([MASTER_PERMISSION]) };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: (xid: string) => void;
    const held = new Promise<string>((resolve) => (holding = resolve));
    // Three of the item found at the place: the first balance of the item there, not committed yet.
    const document = test.app.db.transaction().execute(async (trx) => {
      await createRecord(trx, scope, stockAdjustments, {
        warehouse_id: warehouseId,
        date: '2026-11-25',
        lines: [{ item_id: itemId, unit_of_measurement_id: unitId, quantity: 3, reason: 'found' }],
      });
      const { rows } = await sql<{ xid: string }>`
        select transactionid::text as xid from pg_locks where locktype = 'transactionid' and pid = pg_backend_pid() and granted`.execute(
        trx,
      );
      holding(rows[0].xid);
      await released;
    });
    const xid = await held;
    const post = admin.send('PATCH', `/api/stock-counts/${countId}/post`);
    // The post waits for the document (on the balance it makes, or on the adjustments' numbering).
    await expect
      .poll(
        async () =>
          Number(
            (
              await sql<{ waiting: number }>`
                select count(*) as waiting from pg_locks where locktype = 'transactionid' and transactionid = ${xid}::xid and not granted`.execute(
                test.app.db,
              )
            ).rows[0].waiting,
          ),
        { timeout: 30_000 },
      )
      .toBe(1);
    release();
    await document;
    const posted = await post;
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const stock = await test.app.db
      .selectFrom('stocks')
      .select('quantity_on_hand')
      .where('item_id', '=', itemId)
      .where('location_type', '=', 'warehouse')
      .where('location_id', '=', warehouseId)
      .executeTakeFirstOrThrow();
    expect(Number(stock.quantity_on_hand) / 1000).toBe(5);
    const line = (await admin.send('GET', `/api/stock-counts/${countId}/lines`)).body.data[0];
    expect(line).toMatchObject({ on_hand: 3, counted: 5, difference: 2 });
    expect(await auditDatabase(test.app.db)).toEqual([]);
    expect(test.errorLines).toEqual([]);
  });
});
