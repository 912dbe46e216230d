import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditAfterEach } from '../../../tests/support/audited';
import { randomSequence } from '../../../tests/support/random-sequence';
import {
  betweenPlaces,
  contactOfType,
  created,
  databaseKinds,
  firstOf,
  startDemo,
  startEmpty,
  stockUp,
  type Session,
  type TestApp,
} from '../../../tests/support/test-app';
import { todayInManila } from '../../domain/documents';
import type { Db, Scope, Trx } from '../db/scope';
import { auditDatabase, type AuditFinding } from './audit';
import { costWaiting, FOLLOW_UP_MS, settleCosts } from './cost-follow-up';
import { up as upgradeCosts } from '../db/migrations/2026-12-08-01-costs-carried-and-billed';
import { costUncosted, recostItem } from './costing';
import { move } from './ledger';

class RolledBack extends Error {}

/** `n` days after ten days ago: the worked example's day n. */
function day(n: number): string {
  const date = new Date(`${todayInManila()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 10 + n);
  return date.toISOString().slice(0, 10);
}

/** What an item's entries and its lines' costs are, as kept (once what waits is costed): to compare with a recomputation. */
async function kept(db: Db, businessId: number, itemIds: readonly number[]) {
  await settleCosts(db, businessId);
  const entries = await db
    .selectFrom('cost_entries')
    .select(['document_type', 'document_id', 'item_id', 'date', 'quantity', 'value', 'quantity_after', 'value_after'])
    .where('business_id', '=', businessId)
    .where('item_id', 'in', itemIds)
    .orderBy('item_id')
    .orderBy('date')
    .orderBy('sequence')
    .execute();
  const lines = await db
    .selectFrom('document_lines')
    .select(['id', 'cost'])
    .where('business_id', '=', businessId)
    .where('item_id', 'in', itemIds)
    .orderBy('id')
    .execute();
  const states = await db
    .selectFrom('item_costs')
    .select(['item_id', 'quantity', 'value', 'average_value', 'average_quantity'])
    .where('business_id', '=', businessId)
    .where('item_id', 'in', itemIds)
    .orderBy('item_id')
    .execute();
  return { entries, lines, states };
}

/** What the audit finds after `tamper` changes the database, the change rolled back after. */
async function auditedAfter(db: Db, tamper: (trx: Trx) => Promise<void>): Promise<AuditFinding[]> {
  let findings: AuditFinding[] = [];
  await db
    .transaction()
    .execute(async (trx) => {
      await tamper(trx);
      findings = await auditDatabase(trx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return findings;
}

/** Every item's costs made again from the ledger alone. */
async function recomputed(db: Db, businessId: number, itemIds: readonly number[]) {
  await db.transaction().execute(async (trx) => {
    for (const itemId of itemIds) await recostItem(trx, businessId, itemId);
  });
  return kept(db, businessId, itemIds);
}

describe.each(databaseKinds)('moving-average cost on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  let branchId: number;
  let makatiId: number;
  let supplierId: number;
  let customerId: number;

  beforeAll(async () => {
    let businesses: [number, number];
    ({ test, admin, businesses } = await startDemo(kind));
    businessId = businesses[0];
    // The worked example's own branch, so that the margins it reads are its alone.
    branchId = (await created(admin, '/api/branches', { code: 'COSTING', name: 'Costing Branch' })).id;
    makatiId = (await firstOf(admin, 'branches')).id;
    supplierId = await contactOfType(admin, 'Supplier');
    customerId = await contactOfType(admin, 'Customer');
    const business = await admin.send('PATCH', `/api/businesses/${businessId}`, { prices_include_vat: false, vat_registered: true });
    expect(business.status).toBe(200);
  });
  afterAll(() => test.close());
  auditAfterEach(() => test);

  const newItem = async (sku: string) =>
    (await created(admin, '/api/items', { sku, name: `Costed ${sku}`, unit_of_measurement_id: 1 })).id as number;
  const lineOf = (item: number, quantity: number, unitPrice: number) => ({
    item_id: item,
    unit_of_measurement_id: 1,
    quantity,
    unit_price: unitPrice,
  });
  const receipt = (item: number, date: string, quantity: number, unitPrice: number) =>
    created(admin, '/api/receive-orders', {
      contact_id: supplierId,
      branch_id: branchId,
      date,
      lines: [lineOf(item, quantity, unitPrice)],
    });
  const sale = (item: number, date: string, quantity: number, unitPrice: number) =>
    created(admin, '/api/invoices', { contact_id: customerId, branch_id: branchId, date, lines: [lineOf(item, quantity, unitPrice)] });
  /** A document's first line's cost, in pesos. */
  const costOf = async (type: string, id: number) => {
    await settleCosts(test.app.db, businessId);
    const line = await test.app.db
      .selectFrom('document_lines')
      .select('cost')
      .where('document_type', '=', type)
      .where('document_id', '=', id)
      .executeTakeFirstOrThrow();
    return line.cost === null ? null : Number(line.cost) / 100;
  };
  /** What the item holds, business-wide, and what it is worth, in pesos. */
  const held = async (item: number) => {
    await settleCosts(test.app.db, businessId);
    const state = await test.app.db
      .selectFrom('item_costs')
      .select(['quantity', 'value'])
      .where('business_id', '=', businessId)
      .where('item_id', '=', item)
      .executeTakeFirstOrThrow();
    return { quantity: Number(state.quantity) / 1000, value: Number(state.value) / 100 };
  };

  it('costs the worked example of docs/costing.md: receipts, sales, a back-dated receipt, a void, a return', async () => {
    const item = await newItem('COST-WORKED');
    await receipt(item, day(1), 10, 100);
    const r2 = await receipt(item, day(2), 10, 130);
    const s1 = await sale(item, day(3), 5, 200);
    await receipt(item, day(5), 5, 150);
    const s2 = await sale(item, day(6), 8, 200);
    expect([await costOf('invoice', s1.id), await costOf('invoice', s2.id)]).toEqual([575, 990]);
    expect(await held(item)).toEqual({ quantity: 12, value: 1485 });

    // Entered late, dated day 4: S2 is costed again at the new average.
    await receipt(item, day(4), 10, 90);
    expect([await costOf('invoice', s1.id), await costOf('invoice', s2.id)]).toEqual([575, 900]);
    expect(await held(item)).toEqual({ quantity: 22, value: 2475 });

    // R2 voided: it never raised the average.
    expect((await admin.send('PATCH', `/api/receive-orders/${r2.id}/void`)).status).toBe(200);
    expect([await costOf('invoice', s1.id), await costOf('invoice', s2.id)]).toEqual([500, 860]);
    expect(await held(item)).toEqual({ quantity: 12, value: 1290 });

    // Two of S2's eight come back at what they left with.
    const back = await admin.send('POST', '/api/sales-returns', {
      invoice_id: s2.id,
      date: day(7),
      settlement: 'credit',
      lines: [{ source_line_id: s2.lines[0].id, quantity: 2, reason: 'changed_mind', disposition: 'restock' }],
    });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(await costOf('sales-return', back.body.data.id)).toBe(215);
    expect(await held(item)).toEqual({ quantity: 14, value: 1505 });

    // Its margin, to whoever sees costs: 8 sold at ₱200.00 for goods that cost ₱860.00.
    const shown = (await admin.send('GET', `/api/invoices/${s2.id}`)).body.data;
    expect(shown.lines[0]).toMatchObject({ amount: 1600, cost: 860, margin: 740 });
    expect(shown).toMatchObject({ cost_of_goods: 860, margin: 740, margin_percent: 46.25 });
    // The period's margin at the branch: S1 ₱1,000 − ₱500 and S2 ₱1,600 − ₱860, less the return's ₱400 at its ₱215.
    const margins = await admin.send('GET', `/api/overview/margins?from=${day(1)}&to=${day(7)}`);
    expect(margins.status).toBe(200);
    expect(margins.body.data.find((row: { location_id: number }) => row.location_id === branchId)).toEqual({
      location_type: 'branch',
      location_id: branchId,
      name: 'Costing Branch',
      sales: 2200,
      cost_of_goods: 1145,
      margin: 1055,
      margin_percent: 47.95,
    });

    // A cashier sells without seeing what the goods cost.
    await stockUp(admin, { type: 'branch', id: makatiId }, { id: item, unit_of_measurement_id: 1 }, 5, { date: day(10) });
    const atMakati = await created(admin, '/api/invoices', {
      contact_id: customerId,
      branch_id: makatiId,
      date: day(10),
      lines: [lineOf(item, 1, 200)],
    });
    expect((await admin.send('GET', `/api/invoices/${atMakati.id}`)).body.data.lines[0].cost).not.toBeNull();
    const cashier = await test.signIn('cashier@example.com', undefined, businessId);
    const theirs = await cashier.send('GET', `/api/invoices/${atMakati.id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.lines[0]).not.toHaveProperty('cost');
    expect(theirs.body.data).not.toHaveProperty('margin');
    expect((await cashier.send('GET', `/api/overview/margins?from=${day(1)}&to=${day(7)}`)).status).toBe(403);

    const before = await kept(test.app.db, businessId, [item]);
    expect(await recomputed(test.app.db, businessId, [item])).toEqual(before);

    // The audit costs the item again and finds a line stamped off what that gives.
    const findings = await auditedAfter(test.app.db, async (trx) => {
      await trx.updateTable('document_lines').set({ cost: 86_001 }).where('id', '=', s2.lines[0].id).execute();
    });
    expect(findings).toEqual([
      {
        check: 'costs',
        message: `Costed COST-WORKED (COST-WORKED): a line of Invoice ${s2.number} is stamped at ₱860.01, but its entry gives ₱860.00.`,
      },
    ]);
  });

  it('costs goods received against an order at what their bill pays, net of VAT, and at the receipt again once the bill is voided', async () => {
    const item = await newItem('COST-BILLED');
    const order = await created(admin, '/api/purchase-orders', {
      contact_id: supplierId,
      branch_id: branchId,
      date: day(1),
      lines: [lineOf(item, 10, 100)],
    });
    const orderLine = order.lines[0].id as number;
    const received = await created(admin, '/api/receive-orders', {
      purchase_order_id: order.id,
      contact_id: supplierId,
      branch_id: branchId,
      date: day(1),
      lines: [{ source_line_id: orderLine, quantity: 10 }],
    });
    const s1 = await sale(item, day(2), 4, 200);
    expect(await costOf('invoice', s1.id)).toBe(400);
    // Billed days later at ₱112.00 a piece before VAT (₱1,254.40 with it): the business claims the VAT back.
    const bill = await created(admin, '/api/bills', {
      purchase_order_id: order.id,
      contact_id: supplierId,
      branch_id: branchId,
      date: day(3),
      lines: [{ source_line_id: orderLine, quantity: 10, unit_price: 112 }],
    });
    expect(bill.total).toBe(1254.4);
    expect(await costOf('invoice', s1.id)).toBe(448);
    expect(await held(item)).toEqual({ quantity: 6, value: 672 });
    const s2 = await sale(item, day(4), 2, 200);
    expect(await costOf('invoice', s2.id)).toBe(224);
    const before = await kept(test.app.db, businessId, [item]);
    expect(await recomputed(test.app.db, businessId, [item])).toEqual(before);
    expect((await admin.send('GET', `/api/invoices/${s1.id}`)).body.data).toMatchObject({ cost_of_goods: 448, margin: 352 });

    // Voided, it never priced them: the receipt's ₱100.00 again, and every sale costed again from it.
    expect((await admin.send('PATCH', `/api/bills/${bill.id}/void`)).status).toBe(200);
    expect([await costOf('invoice', s1.id), await costOf('invoice', s2.id)]).toEqual([400, 200]);
    expect(await held(item)).toEqual({ quantity: 4, value: 400 });
    expect(await costOf('receive-order', received.id)).toBe(1000);

    // Billed again for half the order at ₱90.00: what the order line received costs ₱90.00 a piece.
    await created(admin, '/api/bills', {
      purchase_order_id: order.id,
      contact_id: supplierId,
      branch_id: branchId,
      date: day(5),
      lines: [{ source_line_id: orderLine, quantity: 5, unit_price: 90 }],
    });
    expect([await costOf('invoice', s1.id), await costOf('receive-order', received.id)]).toEqual([360, 900]);
    const after = await kept(test.app.db, businessId, [item]);
    expect(await recomputed(test.app.db, businessId, [item])).toEqual(after);

    // The audit prices the receipt again from its bills and finds an entry left at its own price.
    const findings = await auditedAfter(test.app.db, async (trx) => {
      await trx
        .updateTable('cost_entries')
        .set({ given_value: 100_000 })
        .where('document_type', '=', 'receive-order')
        .where('document_id', '=', received.id)
        .execute();
    });
    expect(findings).toEqual([
      {
        check: 'costs',
        message: `Costed COST-BILLED (COST-BILLED): Receive Order ${received.number} (business ${businessId}) is worth ₱1,000.00 in its cost entry, but its lines give ₱900.00.`,
      },
    ]);
  });

  it('prices each receipt at its bill when receipts and bills of the same orders are posted at once', async () => {
    const items = await Promise.all(Array.from({ length: 6 }, (_, n) => newItem(`COST-BILL-RACE-${n}`)));
    const orders = await Promise.all(
      items.map((item) =>
        created(admin, '/api/purchase-orders', {
          contact_id: supplierId,
          branch_id: branchId,
          date: day(1),
          lines: [lineOf(item, 10, 100)],
        }),
      ),
    );
    // Each order received and billed by two requests at once: the receipt's follow-up and the bill
    // meet on the item's cost row, whichever comes second reading what the first committed.
    const posted = await Promise.all(
      orders.flatMap((order, n) => {
        const body = { purchase_order_id: order.id, contact_id: supplierId, branch_id: branchId, date: day(2) };
        const line = { source_line_id: order.lines[0].id, quantity: 10 };
        return [
          admin.send('POST', '/api/receive-orders', { ...body, lines: [line] }),
          admin.send('POST', '/api/bills', { ...body, lines: [{ ...line, unit_price: 110 + n }] }),
        ];
      }),
    );
    for (const answer of posted) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    await settleCosts(test.app.db, businessId);
    for (const [n, item] of items.entries()) expect(await held(item)).toEqual({ quantity: 10, value: 10 * (110 + n) });
    const before = await kept(test.app.db, businessId, items);
    expect(await recomputed(test.app.db, businessId, items)).toEqual(before);
  });

  it('costs transfers and billed receipts moved before their rules again from the ledger, as the app starts after its upgrade', async () => {
    const db = test.app.db;
    const items = (await db.selectFrom('items').select('id').where('business_id', '=', businessId).execute()).map((row) => row.id);
    const before = await kept(db, businessId, items);
    const carried = before.entries.filter((entry) => entry.document_type === 'stock-transfer');
    expect(carried.length).toBeGreaterThan(0);
    // As a Bodega before them left it: no transfer's entry nor stamp, receipts at their own price.
    await db.deleteFrom('cost_entries').where('document_type', '=', 'stock-transfer').execute();
    await db.updateTable('document_lines').set({ cost: null }).where('document_type', '=', 'stock-transfer').execute();
    await upgradeCosts(db);
    expect(await costUncosted(db)).toBeGreaterThan(0);
    expect(await kept(db, businessId, items)).toEqual(before);
  });

  it('stamps a transfer with what its goods were worth as they left, and again when an earlier receipt changes that', async () => {
    const item = await newItem('COST-CARRIED');
    await receipt(item, day(1), 10, 100);
    const transfer = async (date: string, quantity: number) =>
      created(admin, '/api/stock-transfers', {
        ...betweenPlaces({ type: 'branch', id: branchId }, { type: 'branch', id: makatiId }),
        date,
        lines: [{ item_id: item, unit_of_measurement_id: 1, quantity }],
      });
    const t1 = await transfer(day(3), 4);
    expect(await costOf('stock-transfer', t1.id)).toBe(400);
    // The business holds as much as before: a transfer moves no cost.
    expect(await held(item)).toEqual({ quantity: 10, value: 1000 });
    // A receipt entered late, dated before the transfer: it left at the new average.
    await receipt(item, day(2), 10, 130);
    expect(await costOf('stock-transfer', t1.id)).toBe(460);
    expect(await held(item)).toEqual({ quantity: 20, value: 2300 });
    // Its cost is shown to whoever sees costs, and to no one else.
    expect((await admin.send('GET', `/api/stock-transfers/${t1.id}`)).body.data.lines[0].cost).toBe(460);
    // Voided, it carries nothing and keeps no cost.
    const t2 = await transfer(day(4), 2);
    expect(await costOf('stock-transfer', t2.id)).toBe(230);
    expect((await admin.send('PATCH', `/api/stock-transfers/${t2.id}/void`)).status).toBe(200);
    expect(await costOf('stock-transfer', t2.id)).toBeNull();
    // Received short and closed: the goods lost leave at the average they left with.
    const received = await admin.send('POST', '/api/stock-receives', {
      stock_transfer_id: t1.id,
      date: day(5),
      lines: [{ source_line_id: t1.lines[0].id, quantity: 3 }],
      rest: 'close',
      lost_reason: 'damaged',
    });
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    expect(await costOf('stock-transfer', t1.id)).toBe(460);
    expect(await held(item)).toEqual({ quantity: 19, value: 2185 });
    const before = await kept(test.app.db, businessId, [item]);
    expect(await recomputed(test.app.db, businessId, [item])).toEqual(before);
  });

  it('leaves every stamped cost as a recomputation gives it when a thousand offline sales dated yesterday are replayed after a back-dated receipt', async () => {
    const item = await newItem('COST-REPLAY');
    await receipt(item, day(10), 1500, 40);
    for (let n = 0; n < 10; n += 1) await sale(item, day(10), 10, 90);
    // Entered late: a receipt of two days ago, before everything sold today.
    await receipt(item, day(8), 1000, 70);
    // A device that sold yesterday without a network sends its thousand sales now, each once.
    for (let n = 0; n < 1000; n += 1) {
      const replayed = await admin.send(
        'POST',
        '/api/invoices',
        { contact_id: customerId, branch_id: branchId, date: day(9), lines: [lineOf(item, 1, 90)] },
        { 'idempotency-key': `cost-replay-${kind}-${n}` },
      );
      expect(replayed.status).toBe(201);
    }
    const before = await kept(test.app.db, businessId, [item]);
    expect(before.lines.filter((line) => line.cost !== null)).toHaveLength(1012);
    expect(await recomputed(test.app.db, businessId, [item])).toEqual(before);
    // In date order: 1,000 in at ₱70 two days ago, all sold yesterday at ₱70; 1,500 in at ₱40 today, 100 sold: 1,400 at ₱40.
    expect(await held(item)).toEqual({ quantity: 1400, value: 56_000 });
  }, 240_000);

  /** How many of the item's movements wait for their follow-up (read without settling them). */
  const waitingOf = async (db: Db, item: number) =>
    Number(
      (
        await db
          .selectFrom('stock_movements')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('item_id', '=', item)
          .where('costed', '=', 0)
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('costs what sales moved after their answers, unasked, those answered meanwhile in the same follow-up', async () => {
    const item = await newItem('COST-UNASKED');
    await receipt(item, day(1), 50, 20);
    for (let n = 1; n <= 3; n += 1) await sale(item, day(2), n, 30);
    // Nobody reads a cost: the follow-up comes by itself, long before the sweep (SWEEP_MS, 10 s).
    await vi.waitFor(async () => expect(await waitingOf(test.app.db, item)).toBe(0), { timeout: 5_000, interval: 50 });
    expect(await kept(test.app.db, businessId, [item])).toEqual(await recomputed(test.app.db, businessId, [item]));
  });

  it('costs the follow-up it owes before the server stops (PostgreSQL)', async (context) => {
    if (kind !== 'postgres') return context.skip('a second instance to stop shares the database only on PostgreSQL');
    const twin = await test.secondInstance();
    const item = await newItem('COST-STOPPED');
    await receipt(item, day(1), 10, 20);
    // The receipt's follow-up on this instance has come and gone: only the twin owes one for the sale.
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_MS * 2));
    expect(await waitingOf(test.app.db, item)).toBe(0);
    const sold = await twin.on(admin).send('POST', '/api/invoices', {
      contact_id: customerId,
      branch_id: branchId,
      date: day(2),
      lines: [lineOf(item, 2, 30)],
    });
    expect(sold.status).toBe(201);
    await twin.close();
    expect(await waitingOf(test.app.db, item)).toBe(0);
  });

  it('costs each waiting movement once when the follow-ups of two server instances race (PostgreSQL)', async (context) => {
    if (kind !== 'postgres') return context.skip('two instances share a database only on PostgreSQL');
    const twin = await test.secondInstance();
    try {
      const item = await newItem('COST-RACE');
      await receipt(item, day(1), 400, 50);
      const other = twin.on(admin);
      // Sales through both instances at once, some dated before others; each instance's follow-ups
      // run after its answers, and both are told to settle besides, all at the same time.
      const sales = Array.from({ length: 40 }, (_, n) =>
        (n % 2 === 0 ? admin : other).send('POST', '/api/invoices', {
          contact_id: customerId,
          branch_id: branchId,
          date: day(2 + (n % 5)),
          lines: [lineOf(item, 1 + (n % 3), 90)],
        }),
      );
      const settling = [settleCosts(test.app.db), settleCosts(twin.app.db as Db), settleCosts(twin.app.db as Db, businessId)];
      for (const sold of await Promise.all(sales)) expect(sold.status).toBe(201);
      await Promise.all([...settling, settleCosts(test.app.db), settleCosts(twin.app.db as Db)]);
      const waiting = await test.app.db
        .selectFrom('stock_movements')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('costed', '=', 0)
        .executeTakeFirstOrThrow();
      expect(Number(waiting.count)).toBe(0);
      const before = await kept(test.app.db, businessId, [item]);
      // One entry per document: none costed twice.
      expect(before.entries).toHaveLength(41);
      expect(await recomputed(test.app.db, businessId, [item])).toEqual(before);
    } finally {
      await twin.close();
    }
  });

  it('costs the goods a database moved before costing was kept from the ledger, once, as the app starts', async () => {
    const db = test.app.db;
    const items = (await db.selectFrom('items').select('id').where('business_id', '=', businessId).execute()).map((row) => row.id);
    const before = await kept(db, businessId, items);
    expect(before.entries.length).toBeGreaterThan(10);
    // As an older Bodega left it: the ledger, no costs.
    await db.deleteFrom('cost_entries').execute();
    await db.deleteFrom('item_costs').execute();
    await db.updateTable('document_lines').set({ cost: null }).execute();
    expect(await costUncosted(db)).toBeGreaterThan(10);
    expect(await kept(db, businessId, items)).toEqual(before);
    expect(await costUncosted(db)).toBe(0);
  });

  it('keeps, through a random history of back-dated movements and voids, what a full recomputation gives', async () => {
    const { test: empty, admin, businessId: business } = await startEmpty(kind);
    try {
      const db = empty.app.db;
      const random = randomSequence(kind === 'sqlite' ? 7 : 11);
      const pick = (n: number) => Math.floor(random() * n);
      const branch = await created(admin, '/api/branches', { code: 'COST', name: 'Costing' });
      const elsewhere = {
        type: 'branch' as const,
        id: (await created(admin, '/api/branches', { code: 'AWAY', name: 'Away' })).id as number,
      };
      const unit = await created(admin, '/api/unit-of-measurements', { name: 'Piece', abbreviation: 'pc' });
      const location = { type: 'branch' as const, id: branch.id as number };
      const itemIds: number[] = [];
      for (let n = 0; n < 5; n += 1) {
        itemIds.push((await created(admin, '/api/items', { sku: `RANDOM-${n}`, name: `Random ${n}`, unit_of_measurement_id: unit.id })).id);
      }
      const scope = { businessId: business, userId: 0 } as Scope;
      const onHand = new Map(itemIds.map((id) => [id, 0]));
      const made: {
        type: string;
        id: number;
        item: number;
        quantity: number;
        date: string;
        lineId: number;
        source?: number;
        voided: boolean;
      }[] = [];
      let movements = 0;
      let nextId = 1;
      let today = 0;
      const dated = (offset: number) => {
        const date = new Date(Date.UTC(2026, 0, 1 + offset));
        return date.toISOString().slice(0, 10);
      };
      // Each document costed as its follow-up would after its commit, but one in seven left to wait
      // with others of its item until the round's end.
      const followUp = async (trx: Trx, item: number) => {
        if (movements % 7 !== 0) await costWaiting(trx, business, [item]);
      };
      while (movements < 10_000) {
        await db.transaction().execute(async (trx) => {
          for (let step = 0; step < 100; step += 1) {
            const item = itemIds[pick(itemIds.length)];
            if (random() < 0.05) today += 1;
            // One in six is dated days before the latest.
            const date = dated(random() < 1 / 6 ? Math.max(0, today - 1 - pick(30)) : today);
            const roll = random();
            const held = onHand.get(item)!;
            let type: string;
            let quantity: number;
            let line: Record<string, unknown> = {};
            if (roll < 0.08 && made.some((one) => !one.voided)) {
              // A void: the document's movement undone (a receipt only while its goods are still held).
              // (an invoice only while no return of it stands).
              const returned = new Set(made.filter((one) => one.source && !one.voided).map((one) => one.source));
              // Mostly a document of the last days, as voids are; now and then an old one.
              const candidates = random() < 0.9 ? made.slice(-200) : made;
              const open = candidates.filter(
                (one) => !one.voided && !returned.has(one.lineId) && (one.quantity < 0 || one.quantity <= onHand.get(one.item)!),
              );
              if (open.length === 0) continue;
              const undone = open[pick(open.length)];
              undone.voided = true;
              onHand.set(undone.item, onHand.get(undone.item)! - undone.quantity);
              await move(trx, scope, { type: undone.type, id: undone.id, number: 'V', date: dated(today) }, [
                { itemId: undone.item, location, quantity: -undone.quantity },
                // A transfer's goods come back from transit.
                ...(undone.type === 'stock-transfer'
                  ? [{ itemId: undone.item, location: elsewhere, quantity: 0, inTransit: undone.quantity }]
                  : []),
              ]);
              movements += 1;
              await followUp(trx, undone.item);
              continue;
            }
            const sold = made.filter((one) => one.type === 'invoice' && !one.voided && one.item === item);
            if (roll < 0.5 || held < 1000) {
              type = 'receive-order';
              quantity = (1 + pick(40)) * 1000;
              const unitPrice = 5000 + pick(10_000);
              line = { unit_price: unitPrice, amount: (unitPrice * quantity) / 1000 };
            } else if (roll < 0.58) {
              // Goods sent to the other branch: they stay in transit, the business holding as much.
              type = 'stock-transfer';
              quantity = -Math.min(held, (1 + pick(10)) * 1000);
            } else if (roll < 0.93 || sold.length === 0) {
              type = 'invoice';
              quantity = -Math.min(held, (1 + pick(20)) * 1000);
              line = { unit_price: 20_000, amount: (20_000 * -quantity) / 1000 };
            } else {
              // A return of part of an earlier sale, restocked.
              const source = sold[pick(sold.length)];
              if (date < source.date) continue;
              type = 'sales-return';
              quantity = Math.max(1000, Math.floor(-source.quantity / 2000) * 1000);
              line = { unit_price: 0, amount: 0, source_line_id: source.lineId, disposition: 'restock', reason: 'damaged' };
            }
            const id = nextId++;
            const inserted = await trx
              .insertInto('document_lines')
              .values({
                business_id: business,
                document_type: type,
                document_id: id,
                position: 0,
                item_id: item,
                unit_of_measurement_id: unit.id,
                quantity: Math.abs(quantity),
                base_quantity: Math.abs(quantity),
                unit_price: 0,
                amount: 0,
                vat: 0,
                source_line_id: null,
                quantity_done: 0,
                reason: null,
                note: null,
                disposition: null,
                ...line,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            onHand.set(item, held + quantity);
            made.push({
              type,
              id,
              item,
              quantity,
              date,
              lineId: inserted.id,
              source: line.source_line_id as number | undefined,
              voided: false,
            });
            await move(trx, scope, { type, id, number: String(id), date }, [
              { itemId: item, location, quantity },
              ...(type === 'stock-transfer' ? [{ itemId: item, location: elsewhere, quantity: 0, inTransit: -quantity }] : []),
            ]);
            movements += 1;
            await followUp(trx, item);
          }
          // What waited is costed together, document by document in the order they moved.
          await costWaiting(trx, business, itemIds);
        });
      }
      const incremental = await kept(db, business, itemIds);
      expect(incremental.entries.length).toBeGreaterThan(5000);
      expect(incremental.lines.filter((line) => line.cost !== null).length).toBeGreaterThan(3000);
      const transfers = made.filter((one) => one.type === 'stock-transfer');
      expect(transfers.filter((one) => one.voided).length).toBeGreaterThan(10);
      const stamped = new Map(incremental.lines.map((line) => [line.id, line.cost]));
      // Every transfer still sent is stamped, every one voided not.
      expect(transfers.every((one) => (stamped.get(one.lineId) === null) === one.voided)).toBe(true);
      expect(await recomputed(db, business, itemIds)).toEqual(incremental);
    } finally {
      await empty.close();
    }
  }, 240_000);
});
