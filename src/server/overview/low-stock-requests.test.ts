import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactTypeId, created, databaseKinds, startEmpty, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';

/**
 * The low stock card names the open stock request already asking for a low stock, so the overview
 * offers that request rather than a second one. On each database, with documents made through
 * the API (items VAT-exempt; reorder level 10 each):
 *
 *   Received: Central (the warehouse) Alpha 100, Bravo 100; Ayala Alpha 5, Bravo 5; Bonifacio Alpha 5.
 *   Requests: R1 Ayala asks Central for Alpha 10 and Bravo 10, and gets all the Bravo (a transfer);
 *     R2 Ayala asks Central for Alpha 3, later; R3 Bonifacio asks Central for Alpha, cancelled;
 *     R4 Bonifacio asks Central for Alpha, trashed; R5 Central asks Ayala for Bravo.
 *   So Ayala's Alpha is asked for by R1 and R2 (R2 is the newer); Ayala's Bravo by none (R1's Bravo
 *   is all sent, R5 asks Ayala, not for it); Bonifacio's Alpha by none.
 */
describe.each(databaseKinds)('low stock with its open requests on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  const ids: Record<string, number> = {};
  const numbers: Record<string, string> = {};

  beforeAll(async () => {
    ({ test, admin, businessId } = await startEmpty(kind));
    const supplier = await created(admin, '/api/contacts', {
      name: 'Supplier One',
      contact_type_id: await contactTypeId(admin, 'Supplier'),
    });
    ids.central = (await created(admin, '/api/warehouses', { code: 'CE', name: 'Central' })).id;
    ids.ayala = (await created(admin, '/api/branches', { code: 'AY', name: 'Ayala' })).id;
    ids.bonifacio = (await created(admin, '/api/branches', { code: 'BO', name: 'Bonifacio' })).id;
    ids.piece = (await created(admin, '/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' })).id;
    const item = async (sku: string, name: string) =>
      (await created(admin, '/api/items', { sku, name, unit_of_measurement_id: ids.piece, reorder_level: 10, vat_category: 'exempt' }))
        .id as number;
    ids.alpha = await item('A-1', 'Alpha');
    ids.bravo = await item('B-1', 'Bravo');

    const line = (item: number, quantity: number) => ({ item_id: item, unit_of_measurement_id: ids.piece, quantity, unit_price: 10 });
    const receive = (place: Record<string, number>, lines: ReturnType<typeof line>[]) =>
      created(admin, '/api/receive-orders', { contact_id: supplier.id, date: '2025-01-01', ...place, lines });
    await receive({ warehouse_id: ids.central }, [line(ids.alpha, 100), line(ids.bravo, 100)]);
    await receive({ branch_id: ids.ayala }, [line(ids.alpha, 5), line(ids.bravo, 5)]);
    await receive({ branch_id: ids.bonifacio }, [line(ids.alpha, 5)]);

    type Place = 'central' | 'ayala' | 'bonifacio';
    const end = (place: Place) => (place === 'central' ? 'warehouse' : 'branch');
    const ends = (from: Place, to: Place) => ({
      from_location_type: end(from),
      from_location_id: ids[from],
      to_location_type: end(to),
      to_location_id: ids[to],
    });
    const request = async (name: string, from: Place, to: Place, lines: [number, number][]) => {
      const made = await created(admin, '/api/stock-requests', {
        ...ends(from, to),
        date: '2025-02-01',
        lines: lines.map(([item, quantity]) => ({ item_id: item, unit_of_measurement_id: ids.piece, quantity })),
      });
      ids[name] = made.id;
      numbers[name] = made.number;
      return made;
    };
    const r1 = await request('r1', 'central', 'ayala', [
      [ids.alpha, 10],
      [ids.bravo, 10],
    ]);
    await created(admin, '/api/stock-transfers', {
      ...ends('central', 'ayala'),
      stock_request_id: r1.id,
      date: '2025-02-02',
      lines: [{ source_line_id: r1.lines[1].id, quantity: 10 }],
    });
    await request('r2', 'central', 'ayala', [[ids.alpha, 3]]);
    await request('r3', 'central', 'bonifacio', [[ids.alpha, 5]]);
    expect((await admin.send('PATCH', `/api/stock-requests/${ids.r3}/cancel`)).status).toBe(200);
    await request('r4', 'central', 'bonifacio', [[ids.alpha, 5]]);
    expect((await admin.send('DELETE', `/api/stock-requests/${ids.r4}`)).status).toBe(200);
    await request('r5', 'ayala', 'central', [[ids.bravo, 1]]);
  });
  afterAll(() => test.close());

  /** Each low stock as "place item", with the number of the request asking for it (or null). */
  const asked = async (session: Session) => {
    const answer = await session.send('GET', '/api/overview/low-stock');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.data as { location: string; item: string; open_request: { id: number; number: string } | null }[];
    return Object.fromEntries(rows.map((row) => [`${row.location} ${row.item}`, row.open_request]));
  };

  it('names the newest open request from the place still asking for the item, and none where nothing asks', async () => {
    expect(await asked(admin)).toEqual({
      'Ayala Alpha': { id: ids.r2, number: numbers.r2 },
      'Ayala Bravo': null,
      'Bonifacio Alpha': null,
    });
  });

  it('stops naming a request once its line of the item is wholly transferred', async () => {
    const r2 = (await admin.send('GET', `/api/stock-requests/${ids.r2}`)).body.data;
    await created(admin, '/api/stock-transfers', {
      from_location_type: 'warehouse',
      from_location_id: ids.central,
      to_location_type: 'branch',
      to_location_id: ids.ayala,
      stock_request_id: ids.r2,
      date: '2025-02-03',
      lines: [{ source_line_id: r2.lines[0].id, quantity: 3 }],
    });
    // R1 still asks for Alpha: it is named now.
    expect((await asked(admin))['Ayala Alpha']).toEqual({ id: ids.r1, number: numbers.r1 });
  });

  it('names requests only to a user who may view them, at the places they view', async () => {
    const stocksOnly = await userWithPermissions(test, businessId, ['view-stocks']);
    expect(Object.values(await asked(stocksOnly.session))).toEqual([null, null, null]);

    const ayala = await userWithPermissions(test, businessId, ['view-stocks', 'view-stock-requests'], {
      all: null,
      grants: [{ type: 'branch', id: ids.ayala, level: 'view' }],
    });
    expect(await asked(ayala.session)).toEqual({ 'Ayala Alpha': { id: ids.r1, number: numbers.r1 }, 'Ayala Bravo': null });
  });
});
