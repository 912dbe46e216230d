import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentNumber, todayInManila } from '../../domain/documents';
import { getResource } from '../../domain/resources/registry';
import { contactOfType, databaseKinds, demoBusinessIds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * Number blocks (documents/number-blocks.ts): a cashier's device reserves numbers of its invoice
 * series, gives them offline, and hands back what it did not use — each number to one document
 * only, blocks never overlapping, on both databases and under parallel requests.
 */

describe.each(databaseKinds)('number blocks on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let cashier: Session;
  let businessId: number;
  let makati: number;
  let warehouse: number;
  let sale: (extra?: Record<string, unknown>) => Record<string, unknown>;
  const today = todayInManila();

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    businessId = admin.businessId!;
    cashier = await test.signIn('cashier@example.com', undefined, businessId);
    const places = (await admin.send('GET', '/api/places')).body.data as { type: string; id: number; name: string }[];
    makati = places.find((place) => place.name === 'Makati')!.id;
    warehouse = places.find((place) => place.type === 'warehouse')!.id;
    const item = (await admin.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0];
    const customer = await contactOfType(cashier, 'Customer');
    sale = (extra = {}) => ({
      contact_id: customer,
      branch_id: makati,
      date: today,
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, unit_price: 10 }],
      ...extra,
    });
  });
  afterAll(() => test.close());

  const reserve = (session: Session, body: Record<string, unknown>) => session.send('POST', '/api/number-blocks', body);
  const invoiceNumber = (sequence: number) =>
    documentNumber(getResource('invoices').document!.prefix, today, { type: 'branch', id: makati }, sequence);

  it('reserves blocks that never overlap, and the series goes on after them', async () => {
    const first = await reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati }, size: 5 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ resource: 'invoices', location: { type: 'branch', id: makati }, returned_from: null });
    expect(first.body.data.last - first.body.data.first).toBe(4);
    expect(first.body.data.numbers.first).toBe(invoiceNumber(first.body.data.first));

    // Six devices at once: six blocks side by side.
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati }, size: 3 })),
    );
    expect(racing.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    const blocks = [first.body.data, ...racing.map((answer) => answer.body.data)].sort((a, b) => a.first - b.first);
    for (let at = 1; at < blocks.length; at += 1) expect(blocks[at].first).toBe(blocks[at - 1].last + 1);

    const online = await cashier.send('POST', '/api/invoices', sale());
    expect(online.status, JSON.stringify(online.body)).toBe(201);
    expect(online.body.data.number).toBe(invoiceNumber(blocks.at(-1).last + 1));

    const held = (await cashier.send('GET', '/api/number-blocks')).body.data.map((block: { id: number }) => block.id);
    expect(held).toEqual(expect.arrayContaining(blocks.map((block) => block.id)));
    expect((await admin.send('GET', '/api/number-blocks')).body.data).toEqual([]);
  });

  it('gives each number of a block to one document only, even sent at once', async () => {
    const block = (await reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati }, size: 4 })).body.data;
    const made = await cashier.send('POST', '/api/invoices', sale({ numbered: { block_id: block.id, sequence: block.first + 1 } }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.number).toBe(invoiceNumber(block.first + 1));

    const again = await cashier.send('POST', '/api/invoices', sale({ numbered: { block_id: block.id, sequence: block.first + 1 } }));
    expect(again.status).toBe(409);

    const before = Number((await admin.send('GET', '/api/invoices?limit=1')).body.meta.total);
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        cashier.send('POST', '/api/invoices', sale({ numbered: { block_id: block.id, sequence: block.first } })),
      ),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(Number((await admin.send('GET', '/api/invoices?limit=1')).body.meta.total)).toBe(before + 1);
  });

  it('refuses a number that is not the sender’s to give, in words', async () => {
    const block = (await reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati }, size: 2 })).body.data;
    const refused = async (session: Session, numbered: unknown, extra: Record<string, unknown> = {}) => {
      const answer = await session.send('POST', '/api/invoices', sale({ numbered, ...extra }));
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      return answer.body.errors.numbered?.[0] ?? JSON.stringify(answer.body.errors);
    };
    expect(await refused(cashier, { block_id: block.id, sequence: block.last + 1 })).toContain('one of the block’s');
    expect(await refused(admin, { block_id: block.id, sequence: block.first })).toBe('No such number block of yours.');
    expect(await refused(cashier, { block_id: block.id, sequence: block.first }, { date: '2099-01-01' })).toContain('dated up to');
    const other = (await reserve(admin, { resource: 'quotations', place: { type: 'branch', id: makati }, size: 2 })).body.data;
    expect(await refused(admin, { block_id: other.id, sequence: other.first })).toContain('another kind of document or another place');
    // Strict integers only.
    expect(await refused(cashier, { block_id: String(block.id), sequence: block.first })).toBeTruthy();
  });

  it('takes back what a device did not use, once, and never a number already given', async () => {
    const block = (await reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati }, size: 5 })).body.data;
    expect(
      (await cashier.send('POST', '/api/invoices', sale({ numbered: { block_id: block.id, sequence: block.first + 2 } }))).status,
    ).toBe(201);
    const tooEarly = await cashier.send('POST', `/api/number-blocks/${block.id}/return`, { first_unused: block.first + 1 });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.message).toContain(`Number ${block.first + 2}`);
    expect((await admin.send('POST', `/api/number-blocks/${block.id}/return`, { first_unused: block.first + 3 })).status).toBe(404);
    // Its holder, from another business they belong to: no such block there.
    const [, otherBusiness] = await demoBusinessIds(test);
    const fromElsewhere = cashier.inBusiness(otherBusiness);
    const foreign = await fromElsewhere.send('POST', `/api/number-blocks/${block.id}/return`, { first_unused: block.first + 3 });
    expect([403, 404]).toContain(foreign.status);
    const adminElsewhere = await admin
      .inBusiness(otherBusiness)
      .send('POST', `/api/number-blocks/${block.id}/return`, { first_unused: block.first + 3 });
    expect(adminElsewhere.status).toBe(404);

    const racing = await Promise.all(
      Array.from({ length: 4 }, () => cashier.send('POST', `/api/number-blocks/${block.id}/return`, { first_unused: block.first + 3 })),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    expect(racing.find((answer) => answer.status === 200)!.body.data.returned_from).toBe(block.first + 3);
    // Returned numbers are given to nobody; those before them still are.
    const returned = await cashier.send('POST', '/api/invoices', sale({ numbered: { block_id: block.id, sequence: block.first + 3 } }));
    expect(returned.status).toBe(422);
    expect((await cashier.send('POST', '/api/invoices', sale({ numbered: { block_id: block.id, sequence: block.first } }))).status).toBe(
      201,
    );
    expect((await cashier.send('GET', '/api/number-blocks')).body.data.map((held: { id: number }) => held.id)).not.toContain(block.id);
  });

  it('reserves only for someone who makes the kind at the place', async () => {
    const warehouseStaff = await test.signIn('warehouse@example.com', undefined, businessId);
    expect((await reserve(warehouseStaff, { resource: 'invoices', place: { type: 'branch', id: makati } })).status).toBe(403);
    expect((await reserve(cashier, { resource: 'invoices', place: { type: 'warehouse', id: warehouse } })).status).toBe(403);
    expect((await reserve(cashier, { resource: 'stock-transfers', place: { type: 'branch', id: makati } })).status).toBe(422);
    expect((await reserve(cashier, { resource: 'nothing', place: { type: 'branch', id: makati } })).status).toBe(422);
    expect((await reserve(admin, { resource: 'invoices', place: { type: 'branch', id: 99_999 } })).status).toBe(422);
    expect((await reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati }, size: 0 })).status).toBe(422);
    const sized = await reserve(cashier, { resource: 'invoices', place: { type: 'branch', id: makati } });
    expect(sized.status).toBe(201);
    expect(sized.body.data.last - sized.body.data.first + 1).toBeGreaterThanOrEqual(20);
  });
});
