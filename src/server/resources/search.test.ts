import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startDemo, type Demo } from '../../../tests/support/test-app';
import { SEARCH_COUNT_LIMIT } from './record-service';

/**
 * A contains-search through a full-text index (items' names), on both databases: its pages in
 * either order, its trash filter and other searches, and its total — exact up to
 * SEARCH_COUNT_LIMIT matches (or as far as the page asked for reaches), "more than" beyond.
 */
describe.each(databaseKinds)('searching items by part of the name (%s)', (kind) => {
  let demo: Demo;
  const MANY = SEARCH_COUNT_LIMIT + 16;

  beforeAll(async () => {
    demo = await startDemo(kind);
    const [businessId] = demo.businesses;
    const unit = await demo.test.app.db
      .selectFrom('unit_of_measurements')
      .select('id')
      .where('business_id', '=', businessId)
      .executeTakeFirstOrThrow();
    // MANY items named "Zqxwv Vinegar n", written in one statement on either database.
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${MANY})
      insert into items (business_id, sku, barcode, name, unit_of_measurement_id, reorder_level, vat_category,
        purchase_discounts, sale_discounts, created_at, updated_at, version)
      select ${businessId}, 'ZQ-' || i, null, 'Zqxwv Vinegar ' || i, ${unit.id}, 0, 'vatable',
        '[]', '[]', ${new Date().toISOString()}, ${new Date().toISOString()}, 1
      from n`.execute(demo.test.app.db);
  }, 120_000);
  afterAll(async () => {
    await demo?.test.close();
  });

  const search = (query: string) => demo.admin.send('GET', `/api/items?is_strict=0&${query}`);

  it('stops counting past the limit and says there are more, newest first', async () => {
    const first = await search('name=qxwV%20vin');
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ total: SEARCH_COUNT_LIMIT, total_exact: false, current_page: 1 });
    expect(first.body.meta.last_page).toBe(Math.ceil((SEARCH_COUNT_LIMIT + 1) / 15));
    expect(first.body.data.map((row: { name: string }) => row.name)).toEqual(
      Array.from({ length: 15 }, (_, index) => `Zqxwv Vinegar ${MANY - index}`),
    );
    expect(first.body.links.next).toContain('page=2');
  });

  it('counts exactly when the page asked for reaches the last match', async () => {
    const lastPage = Math.ceil(MANY / 15);
    const last = await search(`name=Zqxwv&page=${lastPage}&order_by=asc`);
    expect(last.body.meta).toMatchObject({ total: MANY, total_exact: true, last_page: lastPage });
    expect(last.body.data.map((row: { name: string }) => row.name).at(-1)).toBe(`Zqxwv Vinegar ${MANY}`);
    expect(last.body.links.next).toBeNull();
  });

  it('pages through the matches in either order, and counts a few exactly', async () => {
    // "Vinegar 100" is in 100 and 1000…1009 and 10000…10016 (with a word before: not "Cane Vinegar").
    const expected = [100, ...Array.from({ length: 10 }, (_, i) => 1000 + i), ...Array.from({ length: 17 }, (_, i) => 10000 + i)]
      .filter((n) => n <= MANY)
      .map((n) => `Zqxwv Vinegar ${n}`);
    const names = async (query: string) => (await search(query)).body.data.map((row: { name: string }) => row.name);
    const newest = await search('name=zqxwv%20VINEGAR%20100');
    expect(newest.body.meta).toMatchObject({ total: expected.length, total_exact: true, last_page: 2 });
    expect([...newest.body.data.map((row: { name: string }) => row.name), ...(await names('name=zqxwv%20VINEGAR%20100&page=2'))]).toEqual(
      [...expected].reverse(),
    );
    expect(await names('name=zqxwv%20VINEGAR%20100&order_by=asc&page=2')).toEqual(expected.slice(15));
    expect(await names('name=zqxwv%20VINEGAR%20100&order_by=asc&order_by_field_name=sku&limit=5')).toEqual(
      expected
        .map((name) => ({ name, sku: `ZQ-${name.split(' ').pop()}` }))
        .sort((a, b) => (a.sku < b.sku ? -1 : 1))
        .slice(0, 5)
        .map((row) => row.name),
    );
  });

  it('leaves trashed matches out unless asked, and combines with the other searches', async () => {
    const [trashed] = (await search('name=Zqxwv%20Vinegar%201009')).body.data;
    expect((await demo.admin.send('DELETE', `/api/items/${trashed.id}`)).status).toBe(200);
    expect((await search('name=Zqxwv%20Vinegar%20100')).body.meta.total).toBe(27);
    expect((await search('name=Zqxwv%20Vinegar%20100&only_trashed=1')).body.data.map((row: { id: number }) => row.id)).toEqual([
      trashed.id,
    ]);
    // The SKU holds "ZQ-1001" in 1001 and 10010…10016.
    expect((await search('name=Zqxwv%20Vinegar%20100&sku=ZQ-1001')).body.data.map((row: { name: string }) => row.name)).toEqual([
      ...Array.from({ length: 7 }, (_, i) => `Zqxwv Vinegar ${10016 - i}`),
      'Zqxwv Vinegar 1001',
    ]);
    expect((await demo.admin.send('GET', '/api/items?name=Zqxwv%20Vinegar%20100&sku=ZQ-1001&is_strict=1')).body.meta.total).toBe(0);
  });

  it('keeps a count only while nothing changes: a match added, through the API or past it, counts at once', async () => {
    const total = async () => (await search('name=Zqxwv%20Vinegar%20100')).body.meta.total;
    const before = await total();
    expect(await total()).toBe(before);
    const [businessId] = demo.businesses;
    const made = await demo.admin.send('POST', '/api/items', {
      ...(await search('name=Zqxwv%20Vinegar%20100')).body.data[0],
      sku: 'ZQ-A',
      barcode: null,
      name: 'Zqxwv Vinegar 100 A',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(await total()).toBe(before + 1);
    // Past the server, as a script or another instance would.
    await demo.test.app.db
      .updateTable('items')
      .set({ name: 'Zqxwv Vinegar 100 B' })
      .where('sku', '=', 'ZQ-1')
      .where('business_id', '=', businessId)
      .execute();
    expect(await total()).toBe(before + 2);
    // The pages read under a kept count are the pages.
    const pages = [];
    for (let page = 1; page <= 2; page++)
      pages.push(...(await search(`name=Zqxwv%20Vinegar%20100&page=${page}`)).body.data.map((row: { id: number }) => row.id));
    expect(new Set(pages).size).toBe(before + 2);
  });

  it('finds a short term and a term no name holds', async () => {
    expect((await search('name=%C3%B1o%C3%B1o')).body.meta).toMatchObject({ total: 0, total_exact: true });
    const short = await search('name=Zq');
    expect(short.body.meta).toMatchObject({ total: SEARCH_COUNT_LIMIT, total_exact: false });
  });
});
