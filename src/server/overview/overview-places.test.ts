import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceAccess } from '../../domain/places';
import { contactTypeId, created, databaseKinds, userWithPermissions, type Session } from '../../../tests/support/test-app';
import { aging, openBalance, startBooks } from '../../../tests/support/overview-cards';

/**
 * The overview follows the places a user views: a user kept to one branch sees in every card that
 * branch's figures and nothing of the other places; a user who views every place sees what the
 * admin sees. On each database, with documents made through the API at two branches and a
 * warehouse (T = today; items VAT-exempt, so totals are the lines' amounts):
 *
 *   Alpha (reorder 10, ₱20/pc), Bravo (reorder 5, ₱10/pc). Received: Ayala Alpha 12, Bravo 4;
 *   Bonifacio Alpha 30, Bravo 20; Central (the warehouse) Alpha 5, Bravo 50.
 *   Invoices: Ayala IA1 T-3 Alpha 2 × 100 = 200 due T+10, IA2 T-40 Bravo 1 × 50 = 50 due T-35;
 *     Bonifacio IB1 T-3 Alpha 5 × 100 = 500, IB2 T-1 Bravo 2 × 30 = 60 paid; Central IW1 T-2 Alpha 1 × 100 = 100.
 *   Bills: Ayala BA1 T-5 Bravo 1 × 10; Central BW1 T-5 Bravo 30 × 10 = 300.
 *   Stock requests: Ayala from Central; Bonifacio from Ayala; Bonifacio from Central.
 *   On hand (bills move no stock): Ayala Alpha 10, Bravo 3; Bonifacio Alpha 25, Bravo 18; Central Alpha 4, Bravo 50.
 */
describe.each(databaseKinds)('overview by place on %s', (kind) => {
  const { T, day, world, ids } = startBooks(kind);
  /** What each place made, `resource:id`: the recent documents a user of that place sees. */
  const madeAt: Record<'ayala' | 'bonifacio' | 'central', Set<string>> = { ayala: new Set(), bonifacio: new Set(), central: new Set() };

  const VIEWS = ['invoices', 'bills', 'stocks', 'receive-orders', 'invoice-payments', 'stock-requests'].map((prefix) => `view-${prefix}`);
  const as = async (places: PlaceAccess) => (await userWithPermissions(world.test, world.businessId, VIEWS, places)).session;
  const viewing = (type: 'branch' | 'warehouse', id: number, level: 'view' | 'operate' = 'view') =>
    as({ all: null, grants: [{ type, id, level }] });

  beforeAll(async () => {
    ids.supplier = (
      await created(world.admin, '/api/contacts', { name: 'Supplier One', contact_type_id: await contactTypeId(world.admin, 'Supplier') })
    ).id;
    ids.customer = (
      await created(world.admin, '/api/contacts', { name: 'Customer One', contact_type_id: await contactTypeId(world.admin, 'Customer') })
    ).id;
    ids.ayala = (await created(world.admin, '/api/branches', { code: 'AY', name: 'Ayala' })).id;
    ids.bonifacio = (await created(world.admin, '/api/branches', { code: 'BO', name: 'Bonifacio' })).id;
    ids.central = (await created(world.admin, '/api/warehouses', { code: 'CE', name: 'Central' })).id;
    ids.piece = (await created(world.admin, '/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' })).id;
    const item = (sku: string, name: string, reorder: number) =>
      created(world.admin, '/api/items', { sku, name, unit_of_measurement_id: ids.piece, reorder_level: reorder, vat_category: 'exempt' });
    ids.alpha = (await item('A-1', 'Alpha', 10)).id;
    ids.bravo = (await item('B-1', 'Bravo', 5)).id;
    for (const [item, price] of [
      [ids.alpha, 20],
      [ids.bravo, 10],
    ]) {
      await created(world.admin, '/api/purchase-item-prices', {
        item_id: item,
        unit_of_measurement_id: ids.piece,
        price,
        effective_date: '2025-01-01',
      });
    }

    type Place = 'ayala' | 'bonifacio' | 'central';
    const at = (place: Place) => (place === 'central' ? { warehouse_id: ids.central } : { branch_id: ids[place] });
    const line = (item: number, quantity: number, unitPrice: number) => ({
      item_id: item,
      unit_of_measurement_id: ids.piece,
      quantity,
      unit_price: unitPrice,
    });
    const document = async (place: Place, resource: string, body: Record<string, unknown>) => {
      const made = await created(world.admin, `/api/${resource}`, { ...at(place), ...body });
      madeAt[place].add(`${resource}:${String(made.id)}`);
      return made.id as number;
    };
    const received = (place: Place, alpha: number, bravo: number) =>
      document(place, 'receive-orders', {
        contact_id: ids.supplier,
        date: '2025-01-01',
        lines: [line(ids.alpha, alpha, 20), line(ids.bravo, bravo, 10)],
      });
    await received('ayala', 12, 4);
    await received('bonifacio', 30, 20);
    await received('central', 5, 50);
    const invoice = (place: Place, date: string, dueDate: string | null, sold: ReturnType<typeof line>) =>
      document(place, 'invoices', { contact_id: ids.customer, date, due_date: dueDate, lines: [sold] });
    ids.ia1 = await invoice('ayala', day(-3), day(10), line(ids.alpha, 2, 100));
    ids.ia2 = await invoice('ayala', day(-40), day(-35), line(ids.bravo, 1, 50));
    ids.ib1 = await invoice('bonifacio', day(-3), null, line(ids.alpha, 5, 100));
    ids.ib2 = await invoice('bonifacio', day(-1), null, line(ids.bravo, 2, 30));
    await document('bonifacio', 'invoice-payments', { invoice_id: ids.ib2, date: day(-1), amount: 60, payment_method: 'cash' });
    ids.iw1 = await invoice('central', day(-2), null, line(ids.alpha, 1, 100));
    const bill = (place: Place, bought: ReturnType<typeof line>) =>
      document(place, 'bills', { contact_id: ids.supplier, date: day(-5), due_date: null, lines: [bought] });
    ids.ba1 = await bill('ayala', line(ids.bravo, 1, 10));
    ids.bw1 = await bill('central', line(ids.bravo, 30, 10));

    const request = async (from: Place, to: Place) => {
      const end = (place: Place) => (place === 'central' ? 'warehouse' : 'branch');
      const made = await created(world.admin, '/api/stock-requests', {
        from_location_type: end(from),
        from_location_id: ids[from],
        to_location_type: end(to),
        to_location_id: ids[to],
        date: day(-1),
        lines: [{ item_id: ids.alpha, unit_of_measurement_id: ids.piece, quantity: 1 }],
      });
      for (const place of [from, to]) madeAt[place].add(`stock-requests:${String(made.id)}`);
    };
    await request('central', 'ayala');
    await request('ayala', 'bonifacio');
    await request('central', 'bonifacio');
  });

  const exempt = (amount: number) => ({ vatable_sales: 0, exempt_sales: amount, zero_rated_sales: 0, vat_total: 0 });
  const CARDS = [
    `sales-purchases?from=${day(-40)}&to=${T}&interval=month`,
    `sales-purchases?from=${day(-5)}&to=${T}`,
    'receivables',
    'payables',
    'stock-value',
    'low-stock',
    `top-items?from=${day(-40)}&to=${T}`,
    'recent-documents?limit=30',
  ];
  const card = async (session: Session, path: string) => {
    const answer = await session.send('GET', `/api/overview/${path}`);
    expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };

  it("gives a user kept to one branch that branch's sales and purchases, and nothing of the other places", async () => {
    const ayala = await viewing('branch', ids.ayala);
    const days = await card(ayala, `sales-purchases?from=${day(-5)}&to=${T}`);
    expect(days.data).toEqual(
      Array.from({ length: 6 }, (_, index) => ({
        period: day(index - 5),
        sales: index === 2 ? 200 : 0, // IA1
        purchases: index === 0 ? 10 : 0, // BA1
      })),
    );
    expect(days.totals).toEqual({ sales: 200, purchases: 10 });
    expect(days.vat).toEqual({ sales: exempt(200), purchases: exempt(10) });
    const whole = await card(ayala, `sales-purchases?from=${day(-40)}&to=${T}&interval=day`);
    expect(whole.totals).toEqual({ sales: 250, purchases: 10 });
    // The admin sees every place: IA1 + IA2 + IB1 + IB2 + IW1, BA1 + BW1.
    expect((await card(world.admin, `sales-purchases?from=${day(-40)}&to=${T}&interval=day`)).totals).toEqual({
      sales: 910,
      purchases: 310,
    });
  });

  it("ages only the branch's open balances", async () => {
    const ayala = await viewing('branch', ids.ayala);
    expect((await card(ayala, 'receivables')).data).toEqual({
      total: 250,
      count: 2,
      aging: aging({ '0-30': [200, 1], '31-60': [50, 1], '61-90': [0, 0], '90+': [0, 0] }),
      oldest: [
        openBalance('Customer One', { id: ids.ia2, date: day(-40), due_date: day(-35), balance: 50, days_overdue: 35 }),
        openBalance('Customer One', { id: ids.ia1, date: day(-3), due_date: day(10), balance: 200, days_overdue: 0 }),
      ],
    });
    expect((await card(ayala, 'payables')).data).toMatchObject({ total: 10, count: 1, oldest: [{ id: ids.ba1 }] });
    // The admin: IB1 and IW1 too (IB2 is paid); BW1 too.
    expect((await card(world.admin, 'receivables')).data).toMatchObject({ total: 850, count: 4 });
    expect((await card(world.admin, 'payables')).data).toMatchObject({ total: 310, count: 2 });
  });

  it("values and watches only the branch's stock: the admin's rows of that branch", async () => {
    const ayala = await viewing('branch', ids.ayala);
    const value = await card(world.admin, 'stock-value');
    expect(value.total).toBe(1490);
    const ofAyala = value.data.filter(
      (row: { location_type: string; location_id: number }) => row.location_type === 'branch' && row.location_id === ids.ayala,
    );
    // Alpha 10 × ₱20 + Bravo 3 × ₱10.
    expect(ofAyala).toEqual([{ location_type: 'branch', location_id: ids.ayala, name: 'Ayala', value: 230, items: 2 }]);
    expect(await card(ayala, 'stock-value')).toEqual({ data: ofAyala, total: 230 });

    const low = await card(world.admin, 'low-stock');
    // Central's Alpha (4 of 10), Ayala's Bravo (3 of 5) and Alpha (10 of 10).
    expect(low.data.map((row: { item: string; location: string }) => `${row.location} ${row.item}`)).toEqual([
      'Central Alpha',
      'Ayala Bravo',
      'Ayala Alpha',
    ]);
    expect(await card(ayala, 'low-stock')).toEqual({ data: low.data.slice(1), total: 2 });
    expect(await card(ayala, 'low-stock?limit=1')).toEqual({ data: low.data.slice(1, 2), total: 2 });
  });

  it("ranks only the branch's sales", async () => {
    const ayala = await viewing('branch', ids.ayala);
    expect((await card(ayala, `top-items?from=${day(-40)}&to=${T}`)).data).toEqual([
      { item_id: ids.alpha, item: 'Alpha', quantity: 2, amount: 200 },
      { item_id: ids.bravo, item: 'Bravo', quantity: 1, amount: 50 },
    ]);
    expect((await card(world.admin, `top-items?from=${day(-40)}&to=${T}`)).data).toEqual([
      { item_id: ids.alpha, item: 'Alpha', quantity: 8, amount: 800 },
      { item_id: ids.bravo, item: 'Bravo', quantity: 3, amount: 110 },
    ]);
  });

  it("lists the recent documents at the user's places: the admin's, less the other places'", async () => {
    const everything = (await card(world.admin, 'recent-documents?limit=30')).data as { resource: string; id: number }[];
    expect(everything).toHaveLength(14);
    for (const [place, session] of [
      ['ayala', await viewing('branch', ids.ayala)],
      ['central', await viewing('warehouse', ids.central, 'operate')],
    ] as const) {
      const seen = (await card(session, 'recent-documents?limit=30')).data;
      const expected = everything.filter((row) => madeAt[place].has(`${row.resource}:${row.id}`));
      expect(seen, place).toEqual(expected);
      expect(seen.length, place).toBe(madeAt[place].size);
    }
    // A stock request is seen at both its ends: Ayala asked Central, and Bonifacio asked Ayala.
    const ayala = await viewing('branch', ids.ayala);
    const requests = (await card(ayala, 'recent-documents?limit=30')).data.filter(
      (row: { resource: string }) => row.resource === 'stock-requests',
    );
    expect(requests).toHaveLength(2);
  });

  it("gives a warehouse's user the warehouse's figures: its sale, its bill, its stock", async () => {
    const central = await viewing('warehouse', ids.central, 'operate');
    expect((await card(central, `sales-purchases?from=${day(-40)}&to=${T}&interval=month`)).totals).toEqual({ sales: 100, purchases: 300 });
    expect((await card(central, 'receivables')).data).toMatchObject({ total: 100, count: 1, oldest: [{ id: ids.iw1 }] });
    expect((await card(central, 'payables')).data).toMatchObject({ total: 300, count: 1, oldest: [{ id: ids.bw1 }] });
    // Alpha 4 × ₱20 + Bravo 50 × ₱10.
    expect((await card(central, 'stock-value')).total).toBe(580);
    expect((await card(central, 'low-stock')).data.map((row: { location: string; item: string }) => `${row.location} ${row.item}`)).toEqual(
      ['Central Alpha'],
    );
    expect((await card(central, `top-items?from=${day(-40)}&to=${T}`)).data).toEqual([
      { item_id: ids.alpha, item: 'Alpha', quantity: 1, amount: 100 },
    ]);
  });

  it('gives a user of two places both places, and one who views every place what the admin sees', async () => {
    const both = await as({
      all: null,
      grants: [
        { type: 'branch', id: ids.ayala, level: 'view' },
        { type: 'warehouse', id: ids.central, level: 'view' },
      ],
    });
    expect((await card(both, `sales-purchases?from=${day(-40)}&to=${T}&interval=month`)).totals).toEqual({ sales: 350, purchases: 310 });
    expect((await card(both, 'stock-value')).total).toBe(810);

    const everywhere = await as({ all: 'view', grants: [] });
    for (const path of CARDS) expect(await card(everywhere, path), path).toEqual(await card(world.admin, path));
  });

  it('gives a user who views no place empty cards', async () => {
    const nowhere = await as({ all: null, grants: [] });
    const sales = await card(nowhere, `sales-purchases?from=${day(-1)}&to=${T}`);
    expect(sales).toEqual({
      data: [
        { period: day(-1), sales: 0, purchases: 0 },
        { period: T, sales: 0, purchases: 0 },
      ],
      totals: { sales: 0, purchases: 0 },
      vat: { sales: exempt(0), purchases: exempt(0) },
    });
    for (const path of ['receivables', 'payables'])
      expect((await card(nowhere, path)).data, path).toMatchObject({ total: 0, count: 0, oldest: [] });
    expect(await card(nowhere, 'stock-value')).toEqual({ data: [], total: 0 });
    expect(await card(nowhere, 'low-stock')).toEqual({ data: [], total: 0 });
    expect(await card(nowhere, 'top-items')).toEqual({ data: [] });
    expect(await card(nowhere, 'recent-documents')).toEqual({ data: [] });
  });
});
