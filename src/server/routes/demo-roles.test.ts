import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formReads } from '../../domain/role-needs';
import { registry } from '../../domain/resources/registry';
import {
  betweenPlaces,
  contactOfType,
  created,
  databaseKinds,
  firstOf,
  startDemo,
  type Session,
  type TestApp,
} from '../../../tests/support/test-app';
import { DEMO_ROLES } from '../seed';

describe.each(databaseKinds)('the demo roles can do their jobs (%s)', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  const signIn = (email: string) => test.signIn(email, undefined, businessId);

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    businessId = admin.businessId!;
  });
  afterAll(async () => {
    await test?.close();
  });

  it.each(DEMO_ROLES.map((role) => [role.name, role] as const))('%s reads everything its forms look up', async (_name, role) => {
    const user = await signIn(role.email);
    const makes = registry.filter((definition) => role.permissions.includes(`create-${definition.permission}`));
    const refused: string[] = [];
    for (const definition of makes)
      for (const read of formReads(definition)) {
        const answer = await user.send('GET', `/api/${read}?limit=1`);
        if (answer.status !== 200) refused.push(`${definition.name} → ${read}: ${answer.status}`);
      }
    expect(refused).toEqual([]);
  });

  it('the cashier sells by the dozen at their branch, and the dozen is what is kept', async () => {
    const cashier = await signIn('cashier@example.com');
    const me = (await cashier.send('GET', '/api/auth/user')).body;
    expect(me.userable_type).toBe('branch');
    const dozen = (await cashier.send('GET', '/api/unit-of-measurements?abbreviation=doz&is_strict=1')).body.data[0];
    const conversion = (await cashier.send('GET', `/api/conversions?from_unit_id=${dozen.id}&is_strict=1`)).body.data[0];
    expect(conversion).toMatchObject({ item_id: null, factor: 12 });
    const stock = (await cashier.send('GET', `/api/stocks?location_type=branch&location_id=${me.userable_id}&is_strict=1&per_page=100`))
      .body.data;
    const inPieces = (await cashier.send('GET', '/api/items?per_page=100')).body.data.filter(
      (item: { unit_of_measurement_id: number }) => item.unit_of_measurement_id === conversion.to_unit_id,
    );
    const stocked = stock.find(
      (row: { item_id: number; quantity_on_hand: number }) =>
        row.quantity_on_hand >= 12 && inPieces.some((item: { id: number }) => item.id === row.item_id),
    );
    expect(stocked).toBeDefined();
    const customer = { id: await contactOfType(cashier, 'Customer') };
    const sold = await cashier.send('POST', '/api/invoices', {
      contact_id: customer.id,
      branch_id: me.userable_id,
      date: '2026-11-24',
      lines: [{ item_id: stocked.item_id, unit_of_measurement_id: dozen.id, quantity: 1, unit_price: 500 }],
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.data.lines[0]).toMatchObject({ unit_of_measurement_id: dozen.id, quantity: 1 });
  });

  it('branch staff receive a transfer at their branch', async () => {
    const staff = await signIn('branch@example.com');
    const me = (await staff.send('GET', '/api/auth/user')).body;
    expect(me.userable_type).toBe('branch');
    const warehouse = await firstOf(admin, 'warehouses');
    const stocked = (
      await admin.send('GET', `/api/stocks?location_type=warehouse&location_id=${warehouse.id}&is_strict=1&per_page=100`)
    ).body.data.find((row: { quantity_on_hand: number }) => row.quantity_on_hand >= 2);
    const item = (await admin.send('GET', `/api/items/${stocked.item_id}`)).body.data;
    const toTheirBranch = betweenPlaces({ type: 'warehouse', id: warehouse.id }, { type: 'branch', id: me.userable_id });
    const line = (quantity: number) => ({ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity });
    const transfer = await created(admin, '/api/stock-transfers', { ...toTheirBranch, date: '2026-11-24', lines: [line(2)] });
    await created(staff, '/api/stock-receives', {
      stock_transfer_id: transfer.id,
      date: '2026-11-24',
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 2 }],
    });
    await created(staff, '/api/stock-requests', { ...toTheirBranch, date: '2026-11-24', lines: [line(5)] });
  });

  it('keeps the Makati cashier to Makati: every invoice, stock and branch they see, and a sale elsewhere refused', async () => {
    const cashier = await signIn('cashier@example.com');
    const me = (await cashier.send('GET', '/api/auth/user')).body;
    expect(me.places).toMatchObject({ all: null, grants: [{ type: 'branch', id: me.userable_id, level: 'operate', name: 'Makati' }] });
    const everyInvoice = (await admin.send('GET', '/api/invoices?per_page=100')).body.data as { branch_id: number | null }[];
    expect(everyInvoice.some((invoice) => invoice.branch_id !== me.userable_id)).toBe(true);
    const invoices = (await cashier.send('GET', '/api/invoices?per_page=100')).body;
    expect(invoices.data.length).toBe(everyInvoice.filter((invoice) => invoice.branch_id === me.userable_id).length);
    expect(invoices.meta.total).toBe(invoices.data.length);
    const stocks = (await cashier.send('GET', '/api/stocks?per_page=100')).body.data as { location_type: string; location_id: number }[];
    expect(stocks.length).toBeGreaterThan(0);
    expect(stocks.every((row) => row.location_type === 'branch' && row.location_id === me.userable_id)).toBe(true);
    expect((await cashier.send('GET', '/api/branches?per_page=100')).body.data.map((branch: { name: string }) => branch.name)).toEqual([
      'Makati',
    ]);
    const cebu = (await admin.send('GET', '/api/branches?name=Cebu&is_strict=1')).body.data[0];
    const cebuInvoice = everyInvoice.find((invoice) => invoice.branch_id === cebu.id) as { id: number } | undefined;
    if (cebuInvoice) expect((await cashier.send('GET', `/api/invoices/${cebuInvoice.id}`)).status).toBe(404);
    const item = (await admin.send('GET', '/api/items?limit=1')).body.data[0];
    const sold = await cashier.send('POST', '/api/invoices', {
      contact_id: await contactOfType(cashier, 'Customer'),
      branch_id: cebu.id,
      date: '2026-11-24',
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, unit_price: 10 }],
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(403);
    expect(sold.body.message).toContain('Cebu');
  });

  it('keeps warehouse staff from adjusting at a branch, and branch staff from asking for another branch', async () => {
    const warehouse = await signIn('warehouse@example.com');
    const staff = await signIn('branch@example.com');
    const makati = (await staff.send('GET', '/api/auth/user')).body.userable_id as number;
    const quezonCity = (await admin.send('GET', '/api/branches?name=Quezon%20City&is_strict=1')).body.data[0];
    const central = (await admin.send('GET', '/api/warehouses?name=Valenzuela%20Central&is_strict=1')).body.data[0];
    const item = (await admin.send('GET', '/api/items?limit=1')).body.data[0];
    const line = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1 };
    // Warehouse staff see the branches, but adjust only at their warehouse.
    expect((await warehouse.send('GET', `/api/branches/${makati}`)).status).toBe(200);
    const found = [{ ...line, reason: 'found' }];
    const atBranch = await warehouse.send('POST', '/api/stock-adjustments', { branch_id: makati, date: '2026-11-24', lines: found });
    expect(atBranch.status, JSON.stringify(atBranch.body)).toBe(403);
    const atWarehouse = await warehouse.send('POST', '/api/stock-adjustments', {
      warehouse_id: central.id,
      date: '2026-11-24',
      lines: found,
    });
    expect(atWarehouse.status, JSON.stringify(atWarehouse.body)).toBe(201);
    // Branch staff ask the warehouse for their own branch, never for another.
    const ask = (to: number) =>
      staff.send('POST', '/api/stock-requests', {
        from_location_type: 'warehouse',
        from_location_id: central.id,
        to_location_type: 'branch',
        to_location_id: to,
        date: '2026-11-24',
        lines: [line],
      });
    const forOther = await ask(quezonCity.id);
    expect(forOther.status, JSON.stringify(forOther.body)).toBe(403);
    expect(forOther.body.message).toContain('Quezon City');
    expect((await ask(makati)).status).toBe(201);
  });

  it('refuses a supplier on an invoice and a customer on a purchase order, saying which to pick', async () => {
    const types = (await admin.send('GET', '/api/contact-types?per_page=100')).body.data as { id: number; name: string }[];
    const typeId = (name: string) => types.find((type) => type.name === name)!.id;
    const supplier = (await admin.send('GET', `/api/contacts?contact_type_id=${typeId('Supplier')}&limit=1`)).body.data[0];
    const customer = (await admin.send('GET', `/api/contacts?contact_type_id=${typeId('Customer')}&limit=1`)).body.data[0];
    const branch = (await admin.send('GET', '/api/branches?limit=1')).body.data[0];
    const item = (await admin.send('GET', '/api/items?limit=1')).body.data[0];
    const lines = [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, unit_price: 10 }];
    const invoice = await admin.send('POST', '/api/invoices', { contact_id: supplier.id, branch_id: branch.id, date: '2026-11-24', lines });
    expect(invoice.status).toBe(422);
    expect(invoice.body.errors.contact_id).toEqual([`${supplier.name} is a supplier, not a customer: pick a customer.`]);
    const order = await admin.send('POST', '/api/purchase-orders', {
      contact_id: customer.id,
      branch_id: branch.id,
      date: '2026-11-24',
      lines,
    });
    expect(order.status).toBe(422);
    expect(order.body.errors.contact_id).toEqual([`${customer.name} is a customer, not a supplier: pick a supplier.`]);
    // The picker's own search: only customers for an invoice.
    const customers = (await admin.send('GET', `/api/contacts?contact_type_id=${typeId('Customer')}&per_page=100`)).body.data;
    expect(customers.length).toBeGreaterThan(0);
    expect(customers.every((contact: { contact_type_id: number }) => contact.contact_type_id === typeId('Customer'))).toBe(true);
  });

  it("finds a picker's term in any of its fields by any part: a SKU's middle, a supplier's company", async () => {
    const names = async (url: string) => (await admin.send('GET', url)).body.data.map((row: { name: string }) => row.name);
    expect(await names('/api/items?q=BLG&limit=15')).toEqual(['Lucky Me! Beef Noodles 55g']);
    expect(await names('/api/items?q=blg&limit=15')).toEqual(['Lucky Me! Beef Noodles 55g']);
    expect(await names('/api/items?q=beef&limit=15')).toEqual(['Lucky Me! Beef Noodles 55g']);
    expect(await names('/api/contacts?q=luzon%20grocery&limit=15')).toEqual(['Juan dela Cruz']);
    // A percent sign is looked for as it is, not as a wildcard.
    expect(await names('/api/items?q=%25&limit=15')).toEqual([]);
    expect((await admin.send('GET', `/api/items?q=${'x'.repeat(256)}`)).status).toBe(422);
  });
});
