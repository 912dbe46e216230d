import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pricedLine } from '../../../tests/support/one-line';
import { databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * VAT by line, on each database: VATable, VAT-exempt and zero-rated items on one document, priced
 * with VAT on top or in the price as the business chooses (each document keeping the choice it
 * was made with), rounded per line; and a senior citizen's or PWD's 20 % with no VAT on what
 * qualifies, given only against an ID.
 */
describe.each(databaseKinds)('VAT by line on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  let branchId: number;
  let customerId: number;
  let supplierId: number;
  const items: Record<'vatable' | 'exempt' | 'zeroRated' | 'medicine', number> = { vatable: 0, exempt: 0, zeroRated: 0, medicine: 0 };

  const invoice = (lines: unknown[], extra: Record<string, unknown> = {}) =>
    admin.send('POST', '/api/invoices', { contact_id: customerId, branch_id: branchId, date: '2026-11-25', lines, ...extra });
  const pricesIncludeVat = async (include: boolean) =>
    expect((await admin.send('PATCH', `/api/businesses/${businessId}`, { prices_include_vat: include })).status).toBe(200);

  beforeAll(async () => {
    let businesses: [number, number];
    ({ test, admin, businesses } = await startDemo(kind));
    businessId = businesses[0];
    branchId = (await admin.send('GET', '/api/branches?limit=1&order_by=asc')).body.data[0].id;
    const types = (await admin.send('GET', '/api/contact-types?per_page=100')).body.data as { id: number; name: string }[];
    const typeOf = (name: string) => types.find((type) => type.name === name)!.id;
    customerId = (await admin.send('POST', '/api/contacts', { contact_type_id: typeOf('Customer'), name: 'VAT Test Walk-in' })).body.data
      .id;
    supplierId = (await admin.send('POST', '/api/contacts', { contact_type_id: typeOf('Supplier'), name: 'VAT Test Supplier' })).body.data
      .id;
    const made = async (sku: string, name: string, values: Record<string, unknown>) => {
      const answer = await admin.send('POST', '/api/items', { sku, name, unit_of_measurement_id: 1, ...values });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data;
    };
    // Left blank, an item is VATable, as most goods are.
    const soap = await made('VAT-SOAP', 'Safeguard Soap 135g', {});
    expect(soap).toMatchObject({ vat_category: 'vatable', sc_pwd_discount: false });
    items.vatable = soap.id;
    items.exempt = (await made('VAT-RICE', 'Dinorado Rice 1kg', { vat_category: 'exempt' })).id;
    items.zeroRated = (await made('VAT-EXPORT', 'Dried Mangoes for export 1kg', { vat_category: 'zero_rated' })).id;
    items.medicine = (await made('VAT-MED', 'Biogesic Paracetamol 500mg', { vat_category: 'vatable', sc_pwd_discount: true })).id;
    expect(
      (await admin.send('POST', '/api/items', { sku: 'VAT-BAD', name: 'Bad', unit_of_measurement_id: 1, vat_category: 'some' })).body
        .errors,
    ).toEqual({
      vat_category: ['The selected vat is invalid.'],
    });
    const stocked = await admin.send('POST', '/api/stock-adjustments', {
      branch_id: branchId,
      date: '2026-11-20',
      lines: Object.values(items).map((id) => ({ ...pricedLine(id, 1000, 0), unit_price: undefined, reason: 'opening_balance' })),
    });
    expect(stocked.status, JSON.stringify(stocked.body)).toBe(201);
  });
  afterAll(() => test.close());

  it('adds 12 % on VATable lines only, and shows each kind of sale apart, on VAT-exclusive prices', async () => {
    await pricesIncludeVat(false);
    const answer = await invoice([
      pricedLine(items.vatable, 3, 45.5, { discount_percent: 10 }),
      pricedLine(items.exempt, 2, 62),
      pricedLine(items.zeroRated, 1, 350),
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const made = answer.body.data;
    // 3 × 45.50 = 136.50, less 10 % (13.65) = 122.85, VAT 14.742 → 14.74; rice 124; mangoes 350.
    expect(made).toMatchObject({
      prices_include_vat: false,
      subtotal: 610.5,
      discount_total: 13.65,
      vatable_sales: 122.85,
      exempt_sales: 124,
      zero_rated_sales: 350,
      vat_total: 14.74,
      total: 611.59,
      balance: 611.59,
    });
    expect(made.lines.map((each: any) => [each.vat_category, each.amount, each.vat])).toEqual([
      ['vatable', 122.85, 14.74],
      ['exempt', 124, 0],
      ['zero_rated', 350, 0],
    ]);
  });

  it('takes the VAT out of VAT-inclusive prices, and a document keeps the terms it was made on', async () => {
    await pricesIncludeVat(false);
    const before = (await invoice([pricedLine(items.vatable, 1, 100)])).body.data;
    await pricesIncludeVat(true);
    const answer = await invoice([pricedLine(items.vatable, 3, 55), pricedLine(items.exempt, 1, 62), pricedLine(items.vatable, 1, 0.05)]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    // 165.00 with VAT in it: 147.32 + 17.68; ₱0.05: 0.04 + 0.01 (each line rounded on its own).
    expect(answer.body.data).toMatchObject({
      prices_include_vat: true,
      subtotal: 227.05,
      vatable_sales: 147.36,
      exempt_sales: 62,
      vat_total: 17.69,
      total: 227.05,
    });
    const kept = (await admin.send('GET', `/api/invoices/${before.id}`)).body.data;
    expect(kept).toMatchObject({ prices_include_vat: false, vatable_sales: 100, vat_total: 12, total: 112 });

    // Purchases follow the same terms: a purchase order and a bill.
    const order = await admin.send('POST', '/api/purchase-orders', {
      contact_id: supplierId,
      branch_id: branchId,
      date: '2026-11-25',
      lines: [pricedLine(items.vatable, 10, 11.2), pricedLine(items.exempt, 10, 40)],
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data).toMatchObject({ vatable_sales: 100, exempt_sales: 400, vat_total: 12, total: 512 });
    const bill = await admin.send('POST', '/api/bills', {
      contact_id: supplierId,
      branch_id: branchId,
      date: '2026-11-25',
      lines: [pricedLine(items.zeroRated, 2, 300)],
    });
    expect(bill.body.data).toMatchObject({ prices_include_vat: true, zero_rated_sales: 600, vat_total: 0, total: 600 });
    await pricesIncludeVat(false);
  });

  it('charges no VAT on the sales of a business that is not VAT-registered', async () => {
    expect((await admin.send('PATCH', `/api/businesses/${businessId}`, { vat_registered: false, prices_include_vat: true })).status).toBe(
      200,
    );
    const answer = await invoice([pricedLine(items.vatable, 2, 56), pricedLine(items.zeroRated, 1, 100)]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toMatchObject({
      subtotal: 212,
      vatable_sales: 0,
      exempt_sales: 212,
      zero_rated_sales: 0,
      vat_total: 0,
      total: 212,
    });
    expect(answer.body.data.lines.map((each: any) => each.vat_category)).toEqual(['exempt', 'exempt']);
    expect((await admin.send('PATCH', `/api/businesses/${businessId}`, { vat_registered: true, prices_include_vat: false })).status).toBe(
      200,
    );
  });

  it('gives a senior citizen 20 % off and no VAT on what qualifies, against their ID, and the rest as usual', async () => {
    await pricesIncludeVat(true);
    const lines = [pricedLine(items.medicine, 10, 5.6), pricedLine(items.vatable, 2, 56)];
    const noId = await invoice(lines, { buyer_discount: 'senior' });
    expect(noId.status).toBe(422);
    expect(noId.body.errors).toEqual({
      buyer_discount_id_number: ["A senior citizen's discount is given only against their ID: enter the ID number."],
      buyer_discount_name: ["A senior citizen's discount is given only against their ID: enter the name on it."],
    });
    expect((await invoice(lines, { buyer_discount: 'student' })).body.errors.buyer_discount).toEqual([
      'The selected senior citizen / pwd is invalid.',
    ]);

    const answer = await invoice(lines, {
      buyer_discount: 'senior',
      buyer_discount_id_number: 'MKT-SC-2019-04417',
      buyer_discount_name: 'Remedios C. Cruz',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    // Biogesic: ₱56 with VAT → less VAT 6 → ₱50, less 20 % (₱10) → ₱40, VAT-exempt. Soap: ₱112 with VAT, as for anyone.
    expect(answer.body.data).toMatchObject({
      buyer_discount: 'senior',
      buyer_discount_id_number: 'MKT-SC-2019-04417',
      buyer_discount_name: 'Remedios C. Cruz',
      subtotal: 168,
      less_vat: 6,
      sc_pwd_discount: 10,
      discount_total: 10,
      vatable_sales: 100,
      exempt_sales: 40,
      vat_total: 12,
      total: 152,
    });
    expect(
      answer.body.data.lines.map((each: any) => [each.sc_pwd, each.discount_percent, each.vat_category, each.amount, each.vat]),
    ).toEqual([
      [true, 20, 'exempt', 40, 0],
      [false, 0, 'vatable', 100, 12],
    ]);
    // The discount was given on the invoice as made: it cannot be added or taken off afterwards.
    const changed = await admin.send('PATCH', `/api/invoices/${answer.body.data.id}`, { buyer_discount: null });
    expect(changed.status).toBe(422);

    // A PWD on VAT-exclusive prices: 20 % off the price, no VAT; without a discount kind, an ID typed is not kept.
    await pricesIncludeVat(false);
    const pwd = await invoice([pricedLine(items.medicine, 1, 50, { discount_percent: 5 })], {
      buyer_discount: 'pwd',
      buyer_discount_id_number: 'PWD-137-2020-001',
      buyer_discount_name: 'Jose Rizal Santos',
    });
    expect(pwd.body.data).toMatchObject({ sc_pwd_discount: 10, less_vat: 0, exempt_sales: 40, vat_total: 0, total: 40 });
    const plain = await invoice([pricedLine(items.medicine, 1, 50)], { buyer_discount_id_number: 'typed by mistake' });
    expect(plain.body.data).toMatchObject({
      buyer_discount: null,
      buyer_discount_id_number: null,
      vatable_sales: 50,
      vat_total: 6,
      total: 56,
    });
  });
});
