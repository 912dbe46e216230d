import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { overPaid } from '../../../tests/support/settlement';
import type { Db } from '../db/scope';
import { todayInManila } from '../../domain/documents';
import { ledgerDiscrepancies } from './ledger';

/**
 * Purchasing end to end through the API, on each database: purchase order → receive orders
 * (stock in, the order's status following) → bill → payments (the balance following), and the
 * voids that undo them. After every test the ledger must balance and nothing may be over-received
 * or over-paid. Expected figures are worked out by hand in the comments.
 */
describe.each(databaseKinds)('purchasing on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let db: Db;
  let supplierId: number;
  let warehouseId: number;
  let tuna: { id: number; unit_of_measurement_id: number; vat_category: string };
  let eggs: { id: number; unit_of_measurement_id: number; vat_category: string };

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    db = test.app.db;
    supplierId = await contactOfType(admin, 'Supplier');
    warehouseId = (await admin.send('GET', '/api/warehouses?limit=1&order_by=asc')).body.data[0].id;
    // One VATable item and one VAT-exempt (made here: every demo grocery is VATable), for the VAT arithmetic below.
    tuna = (await admin.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0];
    expect(tuna.vat_category).toBe('vatable');
    const exempt = await admin.send('POST', '/api/items', {
      sku: 'FRESH-EGG',
      name: 'Fresh eggs, tray of 30',
      unit_of_measurement_id: tuna.unit_of_measurement_id,
      vat_category: 'exempt',
    });
    expect(exempt.status).toBe(201);
    eggs = exempt.body.data;
  });
  afterAll(() => test.close());

  afterEach(async () => {
    expect(await ledgerDiscrepancies(db)).toEqual([]);
    const overReceived = await db
      .selectFrom('document_lines')
      .select('id')
      .where('document_type', '=', 'purchase-order')
      .where((eb) => eb.or([eb('quantity_done', '>', eb.ref('quantity')), eb('quantity_done', '<', 0)]))
      .execute();
    expect(overReceived).toEqual([]);
    expect(await overPaid(db, 'bills')).toEqual([]);
  });

  const onHand = async (itemId: number) => {
    const answer = await admin.send('GET', `/api/stocks?item_id=${itemId}&location_type=warehouse&location_id=${warehouseId}&is_strict=1`);
    expect(answer.status).toBe(200);
    return answer.body.data[0]?.quantity_on_hand ?? 0;
  };

  async function orderTenTunaAndFiveTrays() {
    const order = await admin.send('POST', '/api/purchase-orders', {
      contact_id: supplierId,
      warehouse_id: warehouseId,
      date: '2026-11-03',
      lines: [
        { item_id: tuna.id, unit_of_measurement_id: tuna.unit_of_measurement_id, quantity: 10, unit_price: 100 },
        { item_id: eggs.id, unit_of_measurement_id: eggs.unit_of_measurement_id, quantity: 5, unit_price: 20, discount_percent: 10 },
      ],
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    return order.body.data;
  }

  it('numbers, prices and totals a purchase order: its number, line amounts, discounts and totals', async () => {
    const order = await orderTenTunaAndFiveTrays();
    expect(order.number).toMatch(new RegExp(`^PO-20261103-W${String(warehouseId).padStart(5, '0')}-\\d{8}$`));
    expect(order.reference_number).toMatch(new RegExp(`^RN-${supplierId}${String(supplierId + 1).padStart(8, '0')}-20261103-\\d{4}$`));
    expect(order.status).toBe('open');
    // 10 × 100 = 1,000 (VATable: VAT 120); 5 × 20 = 100 less 10 % = 90 (no VAT).
    expect(order).toMatchObject({ subtotal: 1100, discount_total: 10, vat_total: 120, total: 1210 });
    expect(order.lines).toHaveLength(2);
    expect(order.lines[1]).toMatchObject({ quantity: 5, unit_price: 20, discount_percent: 10, amount: 90, vat: 0, quantity_done: 0 });

    const total = await admin.send('POST', '/api/documents/get-number-total-count', {
      document_name: 'purchase-order',
      warehouse_id: warehouseId,
    });
    expect(total.body.total).toBe(Number(order.number.slice(-8)));
    // The path the web app still sends, with the trailing slash it once had, answers the same.
    const slashed = await admin.send('POST', '/api/documents/get-number-total-count/', {
      document_name: 'purchase-order',
      warehouse_id: warehouseId,
    });
    expect(slashed.body).toEqual(total.body);
    const next = await orderTenTunaAndFiveTrays();
    expect(Number(next.number.slice(-8))).toBe(total.body.total + 1);
  });

  it('receives in parts, moves stock in, and the order follows; voiding a receipt undoes it', async () => {
    const order = await orderTenTunaAndFiveTrays();
    const [tunaLine, eggsLine] = order.lines;
    const before = await onHand(tuna.id);
    const receive = (lines: unknown[]) =>
      admin.send('POST', '/api/receive-orders', {
        purchase_order_id: order.id,
        contact_id: supplierId,
        warehouse_id: warehouseId,
        date: '2026-11-05',
        lines,
      });

    const first = await receive([{ source_line_id: tunaLine.id, quantity: 4 }]);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.number).toMatch(/^RO-20261105-W/);
    expect(first.body.data.total).toBe(448); // 4 × 100 + 12 % VAT
    expect(await onHand(tuna.id)).toBe(before + 4);
    expect((await admin.send('GET', `/api/purchase-orders/${order.id}`)).body.data.status).toBe('partially_received');

    const tooMany = await receive([{ source_line_id: tunaLine.id, quantity: 7 }]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors['lines.0.quantity']).toEqual(['Only 6 of this line remain to be received.']);
    const foreign = await receive([{ source_line_id: 999_999, quantity: 1 }]);
    expect(foreign.status).toBe(422);
    expect(await onHand(tuna.id)).toBe(before + 4);

    const rest = await receive([
      { source_line_id: tunaLine.id, quantity: 6 },
      { source_line_id: eggsLine.id, quantity: 5 },
    ]);
    expect(rest.status).toBe(201);
    const received = (await admin.send('GET', `/api/purchase-orders/${order.id}`)).body.data;
    expect(received.status).toBe('received');
    expect(received.lines.map((line: { quantity_done: number }) => line.quantity_done)).toEqual([10, 5]);
    expect(await onHand(tuna.id)).toBe(before + 10);

    // A receipt that moved stock is voided, not deleted; voiding takes the stock back out.
    expect((await admin.send('DELETE', `/api/receive-orders/${first.body.data.id}`)).status).toBe(409);
    const voided = await admin.send('PATCH', `/api/receive-orders/${first.body.data.id}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body.data.status).toBe('void');
    expect(await onHand(tuna.id)).toBe(before + 6);
    expect((await admin.send('GET', `/api/purchase-orders/${order.id}`)).body.data.status).toBe('partially_received');
    expect((await admin.send('PATCH', `/api/receive-orders/${first.body.data.id}/void`)).status).toBe(409);
    expect((await admin.send('DELETE', `/api/receive-orders/${first.body.data.id}`)).status).toBe(200);

    const stock = (await admin.send('GET', `/api/stocks?item_id=${tuna.id}&location_type=warehouse&location_id=${warehouseId}&is_strict=1`))
      .body.data[0];
    const movements = await admin.send('GET', `/api/stocks/${stock.id}/movements?per_page=100`);
    expect(movements.status).toBe(200);
    const mine = movements.body.data.filter((row: { document_id: number }) =>
      [first.body.data.id, rest.body.data.id].includes(row.document_id),
    );
    // Latest first: the void (today), then the receipts of 5 November, newest first.
    expect(mine.map((row: { quantity: number }) => row.quantity)).toEqual([-4, 6, 4]);
    expect(mine[0]).toMatchObject({ document_resource: 'receive-orders', document_id: first.body.data.id, document_date: todayInManila() });
  });

  it('changes an order’s lines until goods are received against it', async () => {
    const order = await orderTenTunaAndFiveTrays();
    const changed = await admin.send(
      'PATCH',
      `/api/purchase-orders/${order.id}`,
      {
        notes: 'Two more trays',
        lines: [{ item_id: eggs.id, unit_of_measurement_id: eggs.unit_of_measurement_id, quantity: 7, unit_price: 20 }],
      },
      { 'if-match': `"${order.version}"` },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // 7 × ₱20 = ₱140, VAT-exempt.
    expect(changed.body.data).toMatchObject({ notes: 'Two more trays', subtotal: 140, vat_total: 0, total: 140, number: order.number });
    expect(changed.body.data.lines.map((line: { quantity: number }) => line.quantity)).toEqual([7]);

    await admin.send('POST', '/api/receive-orders', {
      purchase_order_id: order.id,
      contact_id: supplierId,
      warehouse_id: warehouseId,
      date: '2026-11-05',
      lines: [{ source_line_id: changed.body.data.lines[0].id, quantity: 1 }],
    });
    const late = await admin.send('PATCH', `/api/purchase-orders/${order.id}`, {
      lines: [{ item_id: eggs.id, unit_of_measurement_id: eggs.unit_of_measurement_id, quantity: 1, unit_price: 20 }],
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('its lines can no longer change');
  });

  it('cancels an order nothing was received against, and not one that was', async () => {
    const untouched = await orderTenTunaAndFiveTrays();
    const cancelled = await admin.send('PATCH', `/api/purchase-orders/${untouched.id}/cancel`);
    expect(cancelled.body.data.status).toBe('cancelled');
    const late = await admin.send('POST', '/api/receive-orders', {
      purchase_order_id: untouched.id,
      contact_id: supplierId,
      warehouse_id: warehouseId,
      date: '2026-11-05',
      lines: [{ source_line_id: untouched.lines[0].id, quantity: 1 }],
    });
    expect(late.status).toBe(409);

    const started = await orderTenTunaAndFiveTrays();
    await admin.send('POST', '/api/receive-orders', {
      purchase_order_id: started.id,
      contact_id: supplierId,
      warehouse_id: warehouseId,
      date: '2026-11-05',
      lines: [{ source_line_id: started.lines[0].id, quantity: 1 }],
    });
    expect((await admin.send('PATCH', `/api/purchase-orders/${started.id}/cancel`)).status).toBe(409);
    expect((await admin.send('DELETE', `/api/purchase-orders/${started.id}`)).status).toBe(409);
  });

  it('bills an order and takes partial payments up to the balance, never beyond', async () => {
    const order = await orderTenTunaAndFiveTrays();
    const bill = await admin.send('POST', '/api/bills', {
      purchase_order_id: order.id,
      contact_id: supplierId,
      warehouse_id: warehouseId,
      date: '2026-11-06',
      due_date: '2026-12-06',
      lines: order.lines.map((line: Record<string, unknown>) => ({
        item_id: line.item_id,
        unit_of_measurement_id: line.unit_of_measurement_id,
        quantity: line.quantity,
        unit_price: line.unit_price,
        discount_percent: line.discount_percent,
      })),
    });
    expect(bill.status, JSON.stringify(bill.body)).toBe(201);
    expect(bill.body.data).toMatchObject({ total: 1210, amount_paid: 0, balance: 1210, status: 'unpaid' });
    const pay = (amount: number) =>
      admin.send('POST', '/api/bill-payments', {
        bill_id: bill.body.data.id,
        date: '2026-11-07',
        amount,
        payment_method: 'gcash',
        payment_reference: '9012345678901',
      });

    const first = await pay(500);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ contact_id: supplierId, warehouse_id: warehouseId, status: 'posted' });
    expect(first.body.data.number).toMatch(/^BP-20261107-W/);
    expect((await admin.send('GET', `/api/bills/${bill.body.data.id}`)).body.data).toMatchObject({
      amount_paid: 500,
      balance: 710,
      status: 'partially_paid',
    });

    const over = await pay(710.01);
    expect(over.status).toBe(422);
    expect(over.body.errors.amount).toEqual(['The amount may not be greater than the bill’s balance of ₱710.00.']);
    expect((await pay(0)).status).toBe(422);

    expect((await pay(710)).status).toBe(201);
    expect((await admin.send('GET', `/api/bills/${bill.body.data.id}`)).body.data).toMatchObject({ balance: 0, status: 'paid' });
    expect((await admin.send('PATCH', `/api/bills/${bill.body.data.id}/void`)).status).toBe(409);

    expect((await admin.send('PATCH', `/api/bill-payments/${first.body.data.id}/void`)).status).toBe(200);
    expect((await admin.send('GET', `/api/bills/${bill.body.data.id}`)).body.data).toMatchObject({
      amount_paid: 710,
      balance: 500,
      status: 'partially_paid',
    });
  });

  it('refuses a document without exactly one location, or with a line the business does not have', async () => {
    const body = {
      contact_id: supplierId,
      date: '2026-11-03',
      lines: [{ item_id: tuna.id, unit_of_measurement_id: tuna.unit_of_measurement_id, quantity: 1, unit_price: 1 }],
    };
    const none = await admin.send('POST', '/api/purchase-orders', body);
    expect(none.status).toBe(422);
    expect(none.body.errors.branch_id).toEqual(['The branch or warehouse field is required.']);
    const branchId = (await admin.send('GET', '/api/branches?limit=1')).body.data[0].id;
    const both = await admin.send('POST', '/api/purchase-orders', { ...body, warehouse_id: warehouseId, branch_id: branchId });
    expect(both.body.errors.warehouse_id).toEqual(['Choose a branch or a warehouse, not both.']);
    const unknown = await admin.send('POST', '/api/purchase-orders', {
      ...body,
      warehouse_id: warehouseId,
      lines: [{ item_id: 999_999, unit_of_measurement_id: tuna.unit_of_measurement_id, quantity: 1, unit_price: 1 }],
    });
    expect(unknown.body.errors['lines.0.item_id']).toEqual(['The selected item is invalid.']);
    const empty = await admin.send('POST', '/api/purchase-orders', { ...body, warehouse_id: warehouseId, lines: [] });
    expect(empty.body.errors.lines).toEqual(['A document needs at least one line.']);
  });

  it('never receives more than was ordered, nor pays more than is owed, when they race', async () => {
    const order = await orderTenTunaAndFiveTrays();
    const receipts = await Promise.all(
      Array.from({ length: 5 }, () =>
        admin.send('POST', '/api/receive-orders', {
          purchase_order_id: order.id,
          contact_id: supplierId,
          warehouse_id: warehouseId,
          date: '2026-11-05',
          lines: [{ source_line_id: order.lines[0].id, quantity: 3 }],
        }),
      ),
    );
    // 10 ordered: three receipts of 3 fit, the other two find only 1 left.
    expect(receipts.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 422, 422]);
    expect((await admin.send('GET', `/api/purchase-orders/${order.id}`)).body.data.lines[0].quantity_done).toBe(9);

    const bill = await admin.send('POST', '/api/bills', {
      contact_id: supplierId,
      warehouse_id: warehouseId,
      date: '2026-11-06',
      lines: [{ item_id: eggs.id, unit_of_measurement_id: eggs.unit_of_measurement_id, quantity: 10, unit_price: 100 }],
    });
    const payments = await Promise.all(
      Array.from({ length: 5 }, () =>
        admin.send('POST', '/api/bill-payments', { bill_id: bill.body.data.id, date: '2026-11-07', amount: 300, payment_method: 'cash' }),
      ),
    );
    // ₱1,000 owed: three payments of ₱300 fit, the other two would overpay.
    expect(payments.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 422, 422]);
    expect((await admin.send('GET', `/api/bills/${bill.body.data.id}`)).body.data).toMatchObject({ amount_paid: 900, balance: 100 });
  });

  it('never gives two documents the same number, however many are created at once', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, () => orderTenTunaAndFiveTrays()));
    const numbers = created.map((order) => order.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    const sequences = numbers.map((number) => Number(number.slice(-8))).sort((a, b) => a - b);
    expect(sequences[sequences.length - 1] - sequences[0]).toBe(numbers.length - 1);
  });
});
