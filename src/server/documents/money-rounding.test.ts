import { describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, startSellingDemo } from '../../../tests/support/test-app';
import { oneLineAtBranch } from '../../../tests/support/one-line';
import { startedOnce } from '../../../tests/support/started';

/**
 * Money sent with a third decimal is kept to the centavo the same way everywhere — a tender, a
 * line's price, a money field: half away from zero, as written (0.005 → 0.01 and 1.005 → 1.01).
 */
describe.each(databaseKinds)('money with a third decimal on %s', (kind) => {
  const world = startedOnce(async () => {
    const start = await startSellingDemo(kind, { sku: 'ROUND-1', name: 'Rounding Candy' }, 10);
    return { ...start, customer: await contactOfType(start.admin, 'Customer') };
  });

  it('keeps tenders, a line’s price and a money field to the centavo, rounding each third decimal alike', async () => {
    const sold = await world.admin.send(
      'POST',
      '/api/invoices',
      oneLineAtBranch(world.customer, world.branchId, '2026-11-10', world.item, 1, 1.005),
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.data.lines[0].unit_price).toBe(1.01);

    const paid = await world.admin.send('POST', '/api/invoice-payments', {
      invoice_id: sold.body.data.id,
      contact_id: world.customer,
      branch_id: world.branchId,
      date: '2026-11-11',
      tenders: [
        { method: 'cash', amount: 0.005 },
        { method: 'cash', amount: 1.005 },
      ],
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.amount).toBe(1.02);
    const kept = await world.test.app.db
      .selectFrom('payment_tenders')
      .select('amount')
      .where('payment_type', '=', 'invoice-payment')
      .where('payment_id', '=', paid.body.data.id)
      .orderBy('position')
      .execute();
    expect(kept.map((row) => Number(row.amount))).toEqual([1, 101]);

    const contact = await world.admin.send('PATCH', `/api/contacts/${world.customer}`, { credit_limit: 2.675 });
    expect(contact.status, JSON.stringify(contact.body)).toBe(200);
    expect(contact.body.data.credit_limit).toBe(2.68);
  });
});
