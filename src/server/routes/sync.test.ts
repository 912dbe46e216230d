import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceAccess } from '../../domain/places';
import { getResource } from '../../domain/resources/registry';
import { belongsToWorkingSet, recentlyClosed } from '../../domain/working-set';
import { databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * A device's working set (`/api/sync`): each user receives what their lists show them — the
 * resources they may view, at the places they view, documents only while open — first in pages,
 * then as deltas that also name what left it.
 */

type Row = Record<string, any> & { id: number };

describe.each(databaseKinds)('the working set on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  const place: Record<string, { type: 'branch' | 'warehouse'; id: number }> = {};
  const VIEWS = ['view-items', 'view-sale-item-prices', 'view-stocks', 'view-invoices', 'view-branches', 'view-warehouses'];

  beforeAll(async () => {
    let businesses: [number, number];
    ({ test, admin, businesses } = await startDemo(kind));
    businessId = businesses[0];
    for (const row of (await admin.send('GET', '/api/places')).body.data) place[row.name] = { type: row.type, id: row.id };
  });
  afterAll(() => test.close());

  /** Makati (a branch: its stock and prices) and Valenzuela Central (the warehouse the wholesale invoices are at). */
  const atMakati = (): PlaceAccess => ({
    all: null,
    grants: [
      { ...place.Makati, level: 'view' },
      { ...place['Valenzuela Central'], level: 'view' },
    ],
  });
  const held = () => [`branch:${place.Makati.id}`, `warehouse:${place['Valenzuela Central'].id}`];
  const makatiUser = async () => (await userWithPermissions(test, businessId, VIEWS, atMakati())).session;

  /** Every page of one resource, following `next`. */
  async function download(session: Session, resource: string, limit = 7): Promise<Row[]> {
    const rows: Row[] = [];
    let after = 0;
    for (;;) {
      const page = await session.send('GET', `/api/sync/records/${resource}?after=${after}&limit=${limit}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      rows.push(...page.body.data);
      if (page.body.next === null) return rows;
      after = page.body.next;
    }
  }

  /** Every list page of a resource, as its list screen reads it. */
  async function listed(session: Session, resource: string): Promise<Row[]> {
    const answer = await session.send('GET', `/api/${resource}?per_page=100&order_by=asc`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.meta.total).toBeLessThanOrEqual(100);
    return answer.body.data;
  }

  async function changes(session: Session, cursor: string) {
    const answer = await session.send('GET', `/api/sync/changes?cursor=${encodeURIComponent(cursor)}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as {
      reset: boolean;
      cursor: string;
      more: boolean;
      changed: Record<string, Row[]>;
      removed: Record<string, number[]>;
    };
  }

  it('names the resources the user may view, with how many records of each it holds for them', async () => {
    const clerk = await makatiUser();
    const manifest = await clerk.send('GET', '/api/sync');
    expect(manifest.status).toBe(200);
    const names = manifest.body.data.resources.map((entry: { name: string }) => entry.name);
    expect(names).toEqual(['items', 'sale-item-prices', 'branches', 'warehouses', 'stocks', 'invoices']);
    for (const { name, total } of manifest.body.data.resources) expect((await download(clerk, name)).length, name).toBe(total);
    // A master receives every resource of the working set.
    const everything = (await admin.send('GET', '/api/sync')).body.data.resources.map((entry: { name: string }) => entry.name);
    expect(everything).toContain('contacts');
    expect(everything).toContain('purchase-item-prices');
    expect(everything).not.toContain('roles');
  });

  it('sends in pages exactly what the lists show the user, of documents the open ones and the invoices paid this week', async () => {
    const clerk = await makatiUser();
    // Two sales paid at the clerk's places: one yesterday, whose goods may still come back, and one eight days ago.
    const paid = await test.app.db
      .selectFrom('invoices')
      .select('id')
      .where('business_id', '=', businessId)
      .where('status', '=', 'paid')
      .where((eb) => eb.or([eb('branch_id', '=', place.Makati.id), eb('warehouse_id', '=', place['Valenzuela Central'].id)]))
      .orderBy('id')
      .limit(2)
      .execute();
    expect(paid).toHaveLength(2);
    const daysAgo = (days: number) => new Date(Date.now() + 8 * 3600_000 - days * 86_400_000).toISOString().slice(0, 10);
    await test.app.db
      .updateTable('invoices')
      .set({ date: daysAgo(1) })
      .where('id', '=', paid[0].id)
      .execute();
    await test.app.db
      .updateTable('invoices')
      .set({ date: daysAgo(8) })
      .where('id', '=', paid[1].id)
      .execute();
    const kept = (await download(clerk, 'invoices')).map((row) => row.id);
    expect(kept).toContain(paid[0].id);
    expect(kept).not.toContain(paid[1].id);
    for (const resource of ['items', 'sale-item-prices', 'stocks', 'branches', 'invoices']) {
      const expected = (await listed(clerk, resource)).filter((row) => belongsToWorkingSet(resource, row));
      const pages = await download(clerk, resource);
      expect(
        pages.map((row) => row.id),
        resource,
      ).toEqual(expected.map((row) => row.id));
      expect(pages, resource).toEqual(expected);
    }
    // Only their places': their stock rows, Makati's prices and the prices of every branch, their open invoices.
    for (const row of await download(clerk, 'stocks')) expect(held()).toContain(`${row.location_type}:${row.location_id}`);
    for (const row of await download(clerk, 'sale-item-prices')) expect([null, place.Makati.id]).toContain(row.branch_id);
    const invoices = await download(clerk, 'invoices');
    expect(invoices.length).toBeGreaterThan(0);
    for (const row of invoices) {
      expect(held()).toContain(row.branch_id ? `branch:${row.branch_id}` : `warehouse:${row.warehouse_id}`);
      if (row.status === 'paid') expect(row.date >= recentlyClosed(getResource('invoices'))!.since, `paid ${row.number}`).toBe(true);
      else expect(['unpaid', 'partially_paid']).toContain(row.status);
    }
    // The admin's stock pages hold other places too: the confinement is the user's, not the route's.
    const locations = new Set((await download(admin, 'stocks', 50)).map((row) => `${row.location_type}:${row.location_id}`));
    expect(locations.size).toBeGreaterThan(1);
  });

  it('refuses what is not in the working set or not the user’s, and pages out of range', async () => {
    const clerk = await makatiUser();
    expect((await clerk.send('GET', '/api/sync/records/contacts')).status).toBe(404);
    expect((await admin.send('GET', '/api/sync/records/roles')).status).toBe(404);
    expect((await admin.send('GET', '/api/sync/records/nothing')).status).toBe(404);
    for (const query of ['limit=0', 'limit=1001', 'after=-1', 'after=1.5', 'after=x']) {
      const answer = await admin.send('GET', `/api/sync/records/items?${query}`);
      expect(answer.status, query).toBe(422);
    }
    for (const cursor of ['', 'x', '1.2.3', `${'a'.repeat(36)}.1.2.3`]) {
      const answer = await admin.send('GET', `/api/sync/changes?cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(422);
    }
    expect((await clerk.send('GET', '/api/sync', undefined, { 'Business-ID': 'x' })).status).toBe(403);
  });

  it('sends what changed since the cursor at the user’s places, and names what left them', async () => {
    const clerk = await makatiUser();
    const { cursor } = (await clerk.send('GET', '/api/sync')).body.data;
    const item = (await download(clerk, 'items'))[0];
    const unit = item.unit_of_measurement_id;
    const price = (branch: number | null) =>
      admin.send('POST', '/api/sale-item-prices', {
        item_id: item.id,
        branch_id: branch,
        unit_of_measurement_id: unit,
        price: '12.50',
        effective_date: '2026-11-20',
      });
    const atMakati = await price(place.Makati.id);
    const atCebu = await price(place.Cebu.id);
    expect([atMakati.status, atCebu.status], JSON.stringify(atCebu.body)).toEqual([201, 201]);
    const renamed = await admin.send('PATCH', `/api/items/${item.id}`, { name: `${item.name} (new label)` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);

    const first = await changes(clerk, cursor);
    expect(first.reset).toBe(false);
    // (On PostgreSQL a delta may also bring again what committed while an older transaction of
    // another test still ran: the cursor waits for it. So the checks name what must and must not be there.)
    const ids = (rows: Row[] | undefined) => (rows ?? []).map((row) => row.id);
    expect(ids(first.changed['sale-item-prices'])).toContain(atMakati.body.data.id);
    expect(ids(first.changed['sale-item-prices'])).not.toContain(atCebu.body.data.id);
    // Cebu's price changed too, but it is not the clerk's: not sent, and not named as removed either
    // beyond its id (a device never held it).
    expect(JSON.stringify(first.changed)).not.toContain(`"branch_id":${place.Cebu.id}`);
    expect(first.changed.items).toContainEqual(expect.objectContaining({ id: item.id, name: `${item.name} (new label)` }));

    // The price moves to Cebu: it leaves the clerk's working set, and the delta says so.
    const moved = await admin.send('PATCH', `/api/sale-item-prices/${atMakati.body.data.id}`, { branch_id: place.Cebu.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const second = await changes(clerk, first.cursor);
    expect(second.removed['sale-item-prices']).toContain(atMakati.body.data.id);
    expect(ids(second.changed['sale-item-prices'])).not.toContain(atMakati.body.data.id);

    // An invoice paid leaves the open documents; an item trashed leaves the catalogue.
    const open = (await download(clerk, 'invoices')).find((row) => row.status === 'unpaid')!;
    const trashed = await admin.send('DELETE', `/api/items/${item.id}`);
    expect(trashed.status, JSON.stringify(trashed.body)).toBe(200);
    const voided = await admin.send('PATCH', `/api/invoices/${open.id}/void`);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const third = await changes(clerk, second.cursor);
    expect(third.removed.items).toContain(item.id);
    expect(third.removed.invoices).toContain(open.id);
    expect(ids(third.changed.items)).not.toContain(item.id);
    // The void put the goods back where they left: those stock rows come as changed.
    expect(third.changed.stocks?.length ?? 0).toBeGreaterThan(0);
    for (const row of third.changed.stocks ?? []) expect(held()).toContain(`${row.location_type}:${row.location_id}`);

    // Nothing new: nothing comes but what may come again while an older transaction runs.
    const quiet = await changes(clerk, third.cursor);
    expect(quiet.more).toBe(false);
    const earlier = [first, second, third];
    for (const [resource, rows] of Object.entries(quiet.changed)) {
      for (const row of rows)
        expect(
          earlier.flatMap((delta) => delta.changed[resource] ?? []),
          resource,
        ).toContainEqual(row);
    }
    for (const [resource, gone] of Object.entries(quiet.removed)) {
      expect(
        earlier.flatMap((delta) => delta.removed[resource] ?? []),
        resource,
      ).toEqual(expect.arrayContaining(gone));
    }
  });

  it('answers reset for a cursor of another history, and sends only the business of the session', async () => {
    const { cursor } = (await admin.send('GET', '/api/sync')).body.data as { cursor: string };
    const other = `00000000-0000-4000-8000-000000000000${cursor.slice(36)}`;
    expect(await changes(admin, other)).toEqual({ reset: true, cursor: null, more: false, changed: {}, removed: {} });
    // A change in the other demo business is not this business's delta.
    const businesses = (await admin.send('GET', '/api/businesses')).body.data as { id: number }[];
    const other2 = businesses.find((business) => business.id !== businessId)!.id;
    const brand = await admin.inBusiness(other2).send('POST', '/api/brands', { name: 'Elsewhere brand', description: null });
    expect(brand.status, JSON.stringify(brand.body)).toBe(201);
    const after = await changes(admin, cursor);
    expect(JSON.stringify(after.changed)).not.toContain('Elsewhere brand');
    expect(after.removed.brands ?? []).not.toContain(brand.body.data.id);
  });
});
