import { describe, expect, it } from 'vitest';
import { created, databaseKinds, startDemo, stockUp } from '../../../tests/support/test-app';
import { startedOnce } from '../../../tests/support/started';
import { oneLineAtBranch } from '../../../tests/support/one-line';

/**
 * What a sales invoice must show of who sells and who buys, on each database: TINs kept as the BIR
 * prints them, branch codes with their leading zeros, and an invoice of ₱1,000 or more to a
 * VAT-registered buyer refused until the buyer's TIN and address are on the contact.
 */
describe.each(databaseKinds)('invoice particulars on %s', (kind) => {
  const world = startedOnce(async () => {
    const demo = await startDemo(kind);
    const { admin } = demo;
    const branchId: number = (await admin.send('GET', '/api/branches?limit=1&order_by=asc')).body.data[0].id;
    const customerTypeId: number = (await admin.send('GET', '/api/contact-types?name=Customer&is_strict=1')).body.data[0].id;
    // An item with plenty at the branch: whatever the invoice, it is the buyer's particulars that decide.
    const item: { id: number; unit_of_measurement_id: number } = await created(admin, '/api/items', {
      sku: 'PART-1',
      name: 'Particulars Test Rice 25kg',
      unit_of_measurement_id: 1,
      vat_category: 'vatable',
    });
    await stockUp(admin, { type: 'branch', id: branchId }, item, 100, { date: '2026-11-20' });
    return { ...demo, branchId, customerTypeId, item };
  }, false);

  it('keeps a TIN as the BIR prints it, and a branch code with its leading zeros', async () => {
    const business = await world.admin.send('PATCH', `/api/businesses/${world.businesses[0]}`, {
      registered_name: 'Aling Nena Trading Corporation',
      trade_name: 'Tindahan ni Aling Nena',
      tin: '123 456 789',
    });
    expect(business.status, JSON.stringify(business.body)).toBe(200);
    expect(business.body.data).toMatchObject({ tin: '123-456-789', registered_name: 'Aling Nena Trading Corporation' });
    const wrong = await world.admin.send('PATCH', `/api/businesses/${world.businesses[0]}`, { tin: '12345' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.tin).toEqual([
      'The tin must be 9 digits (123-456-789), with a branch code of 3 or 5 digits after it if given (123-456-789-000).',
    ]);

    const branch = await world.admin.send('PATCH', `/api/branches/${world.branchId}`, { branch_code: '00012' });
    expect(branch.body.data.branch_code).toBe('00012');
    expect((await world.admin.send('PATCH', `/api/branches/${world.branchId}`, { branch_code: 12 })).status).toBe(422);
    expect((await world.admin.send('PATCH', `/api/branches/${world.branchId}`, { branch_code: '0012' })).status).toBe(422);

    const contact = await world.admin.send('POST', '/api/contacts', {
      contact_type_id: world.customerTypeId,
      name: 'TIN Format Buyer',
      tin: '987654321000',
    });
    expect(contact.body.data.tin).toBe('987-654-321-000');
  });

  it('refuses an invoice of ₱1,000 or more to a VAT-registered buyer without a TIN, saying what is missing', async () => {
    const buyer = (
      await world.admin.send('POST', '/api/contacts', {
        contact_type_id: world.customerTypeId,
        name: 'Registered Buyer Inc.',
        vat_registered: true,
      })
    ).body.data;
    const invoice = (quantity: number) =>
      world.admin.send('POST', '/api/invoices', oneLineAtBranch(buyer.id, world.branchId, '2026-11-25', world.item, quantity, 100));
    // ₱100 × 9 + 12 % VAT = ₱1,008.00: at the threshold's far side.
    const refused = await invoice(9);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.contact_id).toEqual([
      "Registered Buyer Inc. is VAT-registered and this invoice comes to ₱1,008.00: an invoice of ₱1,000.00 or more to a VAT-registered buyer shows the buyer's name, address and TIN. Add Registered Buyer Inc.'s TIN and address to the contact first.",
    ]);
    // ₱100 × 8 + VAT = ₱896.00: under it.
    expect((await invoice(8)).status).toBe(201);

    await world.admin.send('PATCH', `/api/contacts/${buyer.id}`, { tin: '111-222-333-000' });
    expect((await invoice(9)).body.errors.contact_id[0]).toContain("Add Registered Buyer Inc.'s address to the contact first.");
    await world.admin.send('PATCH', `/api/contacts/${buyer.id}`, { address: '8 Ayala Avenue, Makati City' });
    expect((await invoice(9)).status).toBe(201);

    // A buyer that is not VAT-registered is not asked.
    const walkIn = (await world.admin.send('POST', '/api/contacts', { contact_type_id: world.customerTypeId, name: 'Walk-in Buyer' })).body
      .data;
    const sale = await world.admin.send(
      'POST',
      '/api/invoices',
      oneLineAtBranch(walkIn.id, world.branchId, '2026-11-25', world.item, 20, 100),
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
  });
});
