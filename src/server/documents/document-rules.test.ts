import { describe, expect, it } from 'vitest';
import { sampleBody } from '../../../tests/support/samples';
import { startedOnce } from '../../../tests/support/started';
import { databaseKinds, startDemo } from '../../../tests/support/test-app';
import { getResource } from '../../domain/resources/registry';

/**
 * What a document refuses rather than half-does: fields it fixed when it was made, amounts
 * beyond what a document may hold, and lines of a receipt or bill that do not match its order.
 */
describe.each(databaseKinds)('document rules on %s', (kind) => {
  const world = startedOnce(() => startDemo(kind));

  const history = async (resource: string, id: number) =>
    (await world.admin.send('GET', `/api/${resource}/${id}/activity`)).body.data.map((entry: { action: string }) => entry.action);

  it('refuses, naming them, the fields a posted invoice fixed, and changes nothing', async () => {
    const made = await world.admin.send('POST', '/api/invoices', await sampleBody(world.admin, getResource('invoices')));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const invoice = made.body.data;
    const customers = (await world.admin.send('GET', `/api/contacts?per_page=100`)).body.data as { id: number }[];
    const otherCustomer = customers.find((contact) => contact.id !== invoice.contact_id)!;
    const refused = await world.admin.send('PATCH', `/api/invoices/${invoice.id}`, {
      contact_id: otherCustomer.id,
      date: '2026-01-02',
      lines: [{ item_id: invoice.lines[0].item_id, unit_of_measurement_id: invoice.lines[0].unit_of_measurement_id, quantity: 1 }],
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors).sort()).toEqual(['contact_id', 'date', 'lines']);
    expect(refused.body.errors.lines).toEqual(['The lines cannot change once this invoice is made.']);
    expect(refused.body.errors.contact_id).toEqual(['The customer cannot change once this invoice is made.']);
    const after = (await world.admin.send('GET', `/api/invoices/${invoice.id}`)).body.data;
    expect(after.version).toBe(invoice.version);
    expect(after.contact_id).toBe(invoice.contact_id);
    expect(await history('invoices', invoice.id)).toEqual(['created']);
  });

  it('keeps the version and writes no history for an update that changes nothing', async () => {
    const made = await world.admin.send('POST', '/api/brands', { name: `Same ${Date.now()}`, description: 'Kept' });
    const brand = made.body.data;
    const same = await world.admin.send(
      'PATCH',
      `/api/brands/${brand.id}`,
      { name: brand.name, description: 'Kept' },
      { 'if-match': '"1"' },
    );
    expect(same.status).toBe(200);
    expect(same.body.data.version).toBe(1);
    expect(await history('brands', brand.id)).toEqual(['created']);
    const changed = await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'Changed' });
    expect(changed.body.data.version).toBe(2);
    expect(await history('brands', brand.id)).toEqual(['updated', 'created']);
  });

  it('refuses a line or a total beyond ₱10,000,000,000 with a 422 naming it, and stores nothing', async () => {
    const body = await sampleBody(world.admin, getResource('purchase-orders'));
    const before = (await world.admin.send('GET', '/api/purchase-orders')).body.meta.total;
    const [line] = body.lines as Record<string, unknown>[];
    const huge = await world.admin.send('POST', '/api/purchase-orders', {
      ...body,
      lines: [{ ...line, quantity: 1_000_000_000, unit_price: 1_000_000_000 }],
    });
    expect(huge.status).toBe(422);
    expect(huge.body.errors['lines.0.quantity'][0]).toContain('₱10,000,000,000.00');
    // Each line within the bound, together beyond it.
    const many = Array.from({ length: 3 }, () => ({ ...line, quantity: 4_000_000, unit_price: 1_000 }));
    const total = await world.admin.send('POST', '/api/purchase-orders', { ...body, lines: many });
    expect(total.status).toBe(422);
    expect(total.body.errors.lines[0]).toContain('the most a document may total');
    expect((await world.admin.send('GET', '/api/purchase-orders')).body.meta.total).toBe(before);
  });

  describe('a receipt or a bill made from a purchase order', () => {
    async function order() {
      const made = await world.admin.send('POST', '/api/purchase-orders', await sampleBody(world.admin, getResource('purchase-orders')));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.data;
    }
    const unlinked = (
      purchaseOrder: { id: number; contact_id: number; lines: Record<string, unknown>[] },
      quantity: number,
      itemId?: number,
    ) => ({
      purchase_order_id: purchaseOrder.id,
      contact_id: purchaseOrder.contact_id,
      warehouse_id: (purchaseOrder as unknown as { warehouse_id: number }).warehouse_id,
      date: '2026-11-02',
      lines: [
        {
          item_id: itemId ?? purchaseOrder.lines[0].item_id,
          unit_of_measurement_id: purchaseOrder.lines[0].unit_of_measurement_id,
          quantity,
        },
      ],
    });

    for (const resource of ['receive-orders', 'bills']) {
      it(`${resource}: takes lines without source_line_id to the order's line of their item, never beyond what is open`, async () => {
        const purchaseOrder = await order();
        const ordered = purchaseOrder.lines[0].quantity as number;
        const first = await world.admin.send('POST', `/api/${resource}`, unlinked(purchaseOrder, ordered));
        expect(first.status, JSON.stringify(first.body)).toBe(201);
        expect(first.body.data.lines[0].source_line_id).toBe(purchaseOrder.lines[0].id);
        const beyond = await world.admin.send('POST', `/api/${resource}`, unlinked(purchaseOrder, 1));
        if (resource === 'receive-orders') {
          // Its one line received in full, the order is received: its lifecycle makes no more receipts of it.
          expect(beyond.status).toBe(409);
          expect(beyond.body.message).toMatch(/ is received: no receive order can be made from it\.$/);
        } else {
          expect(beyond.status).toBe(422);
          expect(beyond.body.errors['lines.0.quantity'][0]).toMatch(/^Only 0 of this line remain/);
        }

        const [otherItem] = (await world.admin.send('GET', '/api/items?per_page=15&order_by=desc')).body.data;
        const stranger = await world.admin.send('POST', `/api/${resource}`, unlinked(await order(), 1, otherItem.id));
        expect(stranger.status).toBe(422);
        expect(stranger.body.errors['lines.0.item_id'][0]).toMatch(/^This item is not on purchase order /);
      });
    }
  });
});
