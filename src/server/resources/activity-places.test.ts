import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../domain/activity';
import { BRANCH_NAMES, startTwoBranches, type TwoBranches } from '../../../tests/support/places-fixture';
import { created, databaseKinds, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * The activity log follows the reader's places, on each database: someone confined to some places
 * sees the entries of records at those places (and of records of no place, as before), a record's
 * history at another place answers 404, and the entries of a record of a place deleted
 * permanently are kept to those who view every place.
 */
describe.each(databaseKinds)('activity by place on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let business: number;
  /** Makati, viewed by `makati`; Quezon City, which it does not view. */
  let branches: TwoBranches<number>;
  let quotations: TwoBranches<{ id: number }>;
  const prices: Record<'makati' | 'quezonCity' | 'everyBranch', number> = { makati: 0, quezonCity: 0, everyBranch: 0 };
  const memos: Record<'makati' | 'quezonCity', number> = { makati: 0, quezonCity: 0 };
  let itemId: number;
  let makati: Session;
  let everywhere: Session;

  const made = async (resource: string, body: Record<string, unknown>): Promise<number> =>
    (await created(admin, `/api/${resource}`, body)).id;

  beforeAll(async () => {
    ({ test, admin, business, branches, quotations } = await startTwoBranches(kind));
    for (const [key, name] of Object.entries(BRANCH_NAMES) as [keyof typeof BRANCH_NAMES, string][]) {
      memos[key] = await made('document-memoranda', {
        document_type: 'quotation',
        document_id: quotations[key].id,
        date: '2031-06-01',
        subject: `About the ${name} quotation`,
        body: 'The customer asked for a second copy.',
      });
    }
    const item = (await admin.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0];
    itemId = await made('items', {
      sku: `ACT-PLACES-${kind}`,
      name: 'Logged at two branches',
      unit_of_measurement_id: item.unit_of_measurement_id,
    });
    const price = (branch_id: number | null, value: number) =>
      made('sale-item-prices', {
        item_id: itemId,
        branch_id,
        unit_of_measurement_id: item.unit_of_measurement_id,
        price: value,
        effective_date: '2031-06-01',
      });
    prices.makati = await price(branches.makati, 10);
    prices.quezonCity = await price(branches.quezonCity, 11);
    prices.everyBranch = await price(null, 12);
    const reads = ['view-activity', 'view-quotations', 'view-sale-item-prices', 'view-document-memoranda', 'view-items'];
    makati = (
      await userWithPermissions(test, business, reads, { all: null, grants: [{ type: 'branch', id: branches.makati, level: 'view' }] })
    ).session;
    everywhere = (await userWithPermissions(test, business, reads, { all: 'view', grants: [] })).session;
  });
  afterAll(() => test.close());

  /** The entries `session` is shown for `query`, every page of them, with the total the first page gave. */
  const entries = async (session: Session, query: string): Promise<{ data: ActivityEntry[]; total: number }> => {
    const answer = await session.send('GET', `/api/activity?per_page=100&${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.meta.total).toBe(answer.body.data.length);
    return { data: answer.body.data, total: answer.body.meta.total };
  };
  /** Whether `session` is shown an entry about this record, asked by resource and id, and by the id alone. */
  const sees = async (session: Session, resource: string, id: number): Promise<boolean> => {
    const byResource = await entries(session, `resource=${resource}&record_id=${id}`);
    const byId = await entries(session, `record_id=${id}`);
    const shown = byResource.data.length > 0;
    expect(
      byId.data.some((entry) => entry.resource === resource),
      `${resource} ${id} asked by id alone`,
    ).toBe(shown);
    return shown;
  };

  it('shows a confined user the entries of records at their places, and of records of no place', async () => {
    expect(await sees(makati, 'quotations', quotations.makati.id)).toBe(true);
    expect(await sees(makati, 'quotations', quotations.quezonCity.id)).toBe(false);
    expect(await sees(makati, 'sale-item-prices', prices.makati)).toBe(true);
    expect(await sees(makati, 'sale-item-prices', prices.quezonCity)).toBe(false);
    // A price for every branch belongs to no one place; an item to none at all.
    expect(await sees(makati, 'sale-item-prices', prices.everyBranch)).toBe(true);
    expect(await sees(makati, 'items', itemId)).toBe(true);
    // A memo goes with its document.
    expect(await sees(makati, 'document-memoranda', memos.makati)).toBe(true);
    expect(await sees(makati, 'document-memoranda', memos.quezonCity)).toBe(false);

    // Someone who views every place sees what the master sees.
    const quotationIds = { makati: quotations.makati.id, quezonCity: quotations.quezonCity.id };
    for (const [resource, ids] of Object.entries({ quotations: quotationIds, 'sale-item-prices': prices, 'document-memoranda': memos })) {
      for (const id of Object.values(ids)) expect(await sees(everywhere, resource, id), `${resource} ${id}`).toBe(true);
    }
    const all = await admin.send('GET', '/api/activity?resource=quotations&per_page=1');
    expect((await everywhere.send('GET', '/api/activity?resource=quotations&per_page=1')).body.meta.total).toBe(all.body.meta.total);
  });

  it("leaves the entries of users as they are, a user's places changing among them", async () => {
    const theirs = await makati.send('GET', '/api/activity?resource=users&per_page=100');
    const masters = await admin.send('GET', '/api/activity?resource=users&per_page=100');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual(masters.body.data);
    expect(theirs.body.meta.total).toBe(masters.body.meta.total);
  });

  it("answers a record's history 404 at a place the user does not view", async () => {
    const history = (session: Session, resource: string, id: number) => session.send('GET', `/api/${resource}/${id}/activity`);
    expect((await history(makati, 'quotations', quotations.makati.id)).status).toBe(200);
    expect((await history(makati, 'quotations', quotations.quezonCity.id)).status).toBe(404);
    expect((await history(makati, 'document-memoranda', memos.quezonCity)).status).toBe(404);
    expect((await history(makati, 'sale-item-prices', prices.quezonCity)).status).toBe(404);
    const shown = await history(everywhere, 'quotations', quotations.quezonCity.id);
    expect(shown.status).toBe(200);
    expect(shown.body.data.map((entry: ActivityEntry) => entry.action)).toEqual(['created']);
  });

  it('shows a trashed record by its place, and one deleted permanently only to someone who views every place', async () => {
    expect((await admin.send('DELETE', `/api/sale-item-prices/${prices.makati}`)).status).toBe(200);
    const trashed = await entries(makati, `resource=sale-item-prices&record_id=${prices.makati}`);
    expect(trashed.data.map((entry) => entry.action)).toEqual(['deleted', 'created']);

    expect((await admin.send('DELETE', `/api/sale-item-prices/${prices.makati}/force-delete`)).status).toBe(204);
    // Its place is no longer known, so a user confined to some places is not shown it…
    expect(await sees(makati, 'sale-item-prices', prices.makati)).toBe(false);
    // …and one who views every place is, as the master is.
    const kept = await entries(everywhere, `resource=sale-item-prices&record_id=${prices.makati}`);
    expect(kept.data.map((entry) => entry.action)).toEqual(['force-deleted', 'deleted', 'created']);
    expect(test.errorLines).toEqual([]);
  });

  it('shows a user who holds no place only the entries of records of no place', async () => {
    const nowhere = (await userWithPermissions(test, business, ['view-activity'], { all: null, grants: [] })).session;
    expect(await sees(nowhere, 'quotations', quotations.makati.id)).toBe(false);
    expect(await sees(nowhere, 'sale-item-prices', prices.everyBranch)).toBe(true);
    expect(await sees(nowhere, 'items', itemId)).toBe(true);
    // It may not view memos at all: none of theirs is shown.
    expect(await sees(nowhere, 'document-memoranda', memos.makati)).toBe(false);
  });
});
