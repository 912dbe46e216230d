import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseItemPrices } from '../../domain/resources/purchase-item-prices';
import { contactOfType, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { contactsOfOtherKind } from './contact-kinds';

/** A purchase price listed for one supplier names a supplier: never a customer, by the form, the API or an import. */
describe.each(databaseKinds)('purchase item prices’ suppliers on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  let supplier: { id: number; name: string };
  let customer: { id: number; name: string };
  let body: Record<string, unknown>;

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    const contact = async (id: number) => (await admin.send('GET', `/api/contacts/${id}`)).body.data;
    supplier = await contact(await contactOfType(admin, 'Supplier'));
    customer = await contact(await contactOfType(admin, 'Customer'));
    const item = (await admin.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0];
    body = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, price: 12.5, effective_date: '2026-11-20' };
  });
  afterAll(() => test.close());

  const words = () => `${customer.name} is a customer, not a supplier: pick a supplier.`;

  it('refuses a customer as the supplier, on a create and an update, in words on the supplier field', async () => {
    const refused = await admin.send('POST', '/api/purchase-item-prices', { ...body, contact_id: customer.id });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ contact_id: [words()] });

    const listed = await admin.send('POST', '/api/purchase-item-prices', { ...body, contact_id: supplier.id });
    expect(listed.status, JSON.stringify(listed.body)).toBe(201);
    const changed = await admin.send('PATCH', `/api/purchase-item-prices/${listed.body.data.id}`, { contact_id: customer.id });
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual({ contact_id: [words()] });
    expect((await admin.send('GET', `/api/purchase-item-prices/${listed.body.data.id}`)).body.data.contact_id).toBe(supplier.id);

    // No supplier at all: the price holds for every supplier.
    expect((await admin.send('POST', '/api/purchase-item-prices', { ...body, contact_id: null })).status).toBe(201);
  });

  it('takes a contact of a type of the business’s own, as a purchase order does', async () => {
    const type = await admin.send('POST', '/api/contact-types', { name: 'Distributor' });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    const distributor = await admin.send('POST', '/api/contacts', { contact_type_id: type.body.data.id, name: 'Both Ways Trading' });
    expect((await admin.send('POST', '/api/purchase-item-prices', { ...body, contact_id: distributor.body.data.id })).status).toBe(201);
  });

  it('narrows its supplier picker to suppliers, as the purchase documents’ is', () => {
    expect(purchaseItemPrices.fields.contact_id.contactType).toBe('Supplier');
  });

  it('answers the import, in one call, which contacts are of the other kind', async () => {
    const scope = { businessId: businesses[0], userId: 0, permissions: new Set<string>() };
    const refused = await contactsOfOtherKind(test.app.db, scope, 'Supplier', [supplier.id, customer.id, customer.id, 999_999]);
    expect([...refused]).toEqual([[customer.id, words()]]);
    // Another business's contacts are not this one's.
    expect((await contactsOfOtherKind(test.app.db, { ...scope, businessId: businesses[1] }, 'Supplier', [customer.id])).size).toBe(0);
  });
});
