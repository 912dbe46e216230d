import { describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, startSellingDemo, userWithPermissions, type Session } from '../../../tests/support/test-app';
import { oneLineAtBranch } from '../../../tests/support/one-line';
import { startedOnce } from '../../../tests/support/started';

/**
 * What an invoice's read carries for its printed copy, on each database: when it was issued (on
 * the device's clock for one made offline), by whom, and the payments settling it with their
 * tenders — voided ones left out, and none for a user who may not view payments.
 */
describe.each(databaseKinds)('an invoice as its printed copy reads it on %s', (kind) => {
  /** The demo cashier sells at the business's first branch, where the item is stocked. */
  const world = startedOnce(async () => {
    const start = await startSellingDemo(kind, { sku: 'ISSUE-1', name: 'Issue Test Pandesal' });
    const customerId = await contactOfType(start.admin, 'Customer');
    return { ...start, customerId, cashier: await start.test.signIn('cashier@example.com', undefined, start.businessId) };
  });

  const sell = async (session: Session, headers: Record<string, string> = {}) => {
    const sold = await session.send(
      'POST',
      '/api/invoices',
      oneLineAtBranch(world.customerId, world.branchId, '2026-11-27', world.item, 1, 129.29),
      headers,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    return sold.body.data as { id: number; number: string; total: number; issued_at: string; issued_by: unknown; payments: unknown };
  };
  const pay = async (invoiceId: number, tenders: Record<string, unknown>[]) => {
    const paid = await world.cashier.send('POST', '/api/invoice-payments', { invoice_id: invoiceId, date: '2026-11-27', tenders });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    return paid.body.data as { id: number; number: string; version: number };
  };
  const none = { bank: null, check_number: null, check_date: null };

  it('names the cashier who issued it and when, and lists its payments with their tenders, voided ones left out', async () => {
    const before = Date.now();
    const sold = await sell(world.cashier);
    expect(sold.issued_by).toEqual({ id: expect.any(Number), display: 'Branch Cashier' });
    expect(Date.parse(sold.issued_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(sold.issued_at)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(sold.payments).toEqual([]);

    // ₱144.80 in all: a payment in error, voided; then ₱100.00 in cash and the rest by GCash.
    expect(sold.total).toBe(144.8);
    const wrong = await pay(sold.id, [{ method: 'maya', amount: 10, reference: 'MAYA-WRONG' }]);
    const voided = await world.admin.send('PATCH', `/api/invoice-payments/${wrong.id}/void`, {}, { 'If-Match': `"${wrong.version}"` });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const cash = await pay(sold.id, [{ method: 'cash', amount: 100 }]);
    const rest = await pay(sold.id, [{ method: 'gcash', amount: 44.8, reference: '9012345678901' }]);

    const payments = [
      {
        id: cash.id,
        number: cash.number,
        date: '2026-11-27',
        amount: 100,
        tenders: [{ method: 'cash', amount: 100, reference: null, ...none }],
      },
      {
        id: rest.id,
        number: rest.number,
        date: '2026-11-27',
        amount: 44.8,
        tenders: [{ method: 'gcash', amount: 44.8, reference: '9012345678901', ...none }],
      },
    ];
    const read = (await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data;
    expect(read).toMatchObject({ status: 'paid', issued_at: sold.issued_at, issued_by: sold.issued_by, payments });
    // A list carries the same, so the copy a device keeps prints them without a network.
    const listed = (await world.cashier.send('GET', `/api/invoices?id=${sold.id}&is_strict=1`)).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ issued_by: sold.issued_by, payments });
  });

  it('gives an invoice made offline the time it was made on the device, when made and ever after', async () => {
    const madeAt = new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString();
    const sold = await sell(world.cashier, { 'x-made-at': madeAt, 'x-made-offline': 'true' });
    expect(sold.issued_at).toBe(madeAt);
    expect((await world.cashier.send('GET', `/api/invoices/${sold.id}`)).body.data.issued_at).toBe(madeAt);
    // Made online by the admin: the server's time, and the admin's name.
    const online = await sell(world.admin);
    expect(online.issued_by).toEqual({ id: expect.any(Number), display: 'Administrator' });
    expect(Math.abs(Date.parse(online.issued_at) - Date.now())).toBeLessThan(60_000);
  });

  it('shows no payments to a user who may view invoices but not payments', async () => {
    const sold = await sell(world.cashier);
    await pay(sold.id, [{ method: 'cash', amount: sold.total }]);
    const { session: viewer } = await userWithPermissions(world.test, world.businessId, ['view-invoices']);
    const read = (await viewer.send('GET', `/api/invoices/${sold.id}`)).body.data;
    expect(read.status).toBe('paid');
    expect(read.issued_by).toEqual({ id: expect.any(Number), display: 'Branch Cashier' });
    expect(read).not.toHaveProperty('payments');
  });
});
