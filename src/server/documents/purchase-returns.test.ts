import { describe, expect, it } from 'vitest';
import { pricedLine } from '../../../tests/support/one-line';
import { returnLines, shareOf } from '../../../tests/support/returns';
import { startedOnce } from '../../../tests/support/started';
import { created, databaseKinds, newContact, startWithStockAt, stockedItem } from '../../../tests/support/test-app';
import { todayInManila } from '../../domain/documents';
import { pesosToCentavos as centavos } from '../../domain/money';

/**
 * Purchase returns, on each database: goods sent back to their supplier from a bill, out of
 * sellable stock or out of quarantine, each line its share of the bill's line to the centavo,
 * taken off the bill or refunded by the supplier in tenders (money in, beside the bill's payments);
 * never more than was billed, however many devices send the same goods back at once; a void
 * undoing it once. Printed, it is the debit memorandum naming the bill.
 */
describe.each(databaseKinds)('purchase returns on %s', (kind) => {
  const today = todayInManila();
  /** The first warehouse, where the items are stocked; a supplier to bill and return to, and a customer. */
  const world = startedOnce(async () => {
    const items = { nails: { sku: 'PRN-NAILS', name: 'Return Test Nails' }, paint: { sku: 'PRN-PAINT', name: 'Return Test Paint' } };
    const start = await startWithStockAt(kind, 'warehouse', items, 100);
    const supplierId = await newContact(start.admin, 'Supplier', 'Hardware Supplier');
    return { ...start, supplierId, customerId: await newContact(start.admin, 'Customer', 'Paint Buyer') };
  });

  const bill = async (lines: unknown[]) =>
    created(world.admin, '/api/bills', { contact_id: world.supplierId, warehouse_id: world.place.id, date: today, lines });
  const sentBack = (billId: number, lines: unknown[], extra: Record<string, unknown> = {}) =>
    world.admin.send('POST', '/api/purchase-returns', { bill_id: billId, date: today, settlement: 'credit', lines, ...extra });
  const back = returnLines('from_stock');
  const stock = async (item: number) => {
    const row = (
      await world.admin.send('GET', `/api/stocks?item_id=${item}&location_type=warehouse&location_id=${world.place.id}&is_strict=1`)
    ).body.data[0];
    return { onHand: row.quantity_on_hand as number, quarantined: row.quantity_quarantined as number };
  };

  it('takes 2 of 5 off the bill at their share of the line, VAT included, the goods leaving stock; the rest makes up the bill', async () => {
    const billed = await bill([pricedLine(world.items.nails, 5, 33.33, { discount_percent: 3 }), pricedLine(world.items.paint, 3, 415)]);
    const [nails, paint] = billed.lines;
    const before = { nails: (await stock(world.items.nails)).onHand, paint: (await stock(world.items.paint)).onHand };

    const first = await sentBack(billed.id, [back(nails.id, 2), back(paint.id, 1, { reason: 'over_delivered' })]);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const made = first.body.data;
    const nailsBack = shareOf(centavos(nails.amount) + centavos(nails.vat), 2, 5);
    const paintBack = shareOf(centavos(paint.amount) + centavos(paint.vat), 1, 3);
    expect(centavos(made.total)).toBe(nailsBack + paintBack);
    expect(centavos(made.vat_total)).toBe(shareOf(centavos(nails.vat), 2, 5) + shareOf(centavos(paint.vat), 1, 3));
    expect(made).toMatchObject({
      status: 'posted',
      settlement: 'credit',
      contact_id: world.supplierId,
      warehouse_id: world.place.id,
      branch_id: null,
      bill_date: billed.date,
      refunded: 0,
    });
    expect(made.amount).toBe(made.total);
    expect(made.number).toMatch(/^PRN-/);
    expect(await stock(world.items.nails)).toMatchObject({ onHand: before.nails - 2 });
    expect(await stock(world.items.paint)).toMatchObject({ onHand: before.paint - 1 });
    const after = (await world.admin.send('GET', `/api/bills/${billed.id}`)).body.data;
    expect(centavos(after.balance)).toBe(centavos(billed.total) - centavos(made.total));
    expect(after.lines.map((each: { quantity_done: number }) => each.quantity_done)).toEqual([2, 1]);

    const rest = await sentBack(billed.id, [back(nails.id, 3), back(paint.id, 2, { reason: 'other', note: 'Wrong shade' })]);
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    for (const figure of ['total', 'vat_total', 'vatable_sales', 'discount_total', 'subtotal'])
      expect(centavos(made[figure]) + centavos(rest.body.data[figure]), figure).toBe(centavos(billed[figure]));
    expect((await world.admin.send('GET', `/api/bills/${billed.id}`)).body.data).toMatchObject({ balance: 0, status: 'paid' });
    const more = await sentBack(billed.id, [back(nails.id, 1)]);
    expect(more.body.errors).toEqual({ 'lines.0.quantity': ['All of this line was returned already.'] });
  });

  it("sends a customer's quarantined return on to the supplier out of quarantine, and never sellable goods that are not there", async () => {
    // Bills move no stock: the 3 billed are the 3 put at the warehouse.
    const lamp = await stockedItem(world.admin, world.place, { sku: 'PRN-LAMP', name: 'Return Test Lamp' }, 3);
    const billed = await bill([pricedLine(lamp, 3, 200)]);
    // One sold, and brought back broken: quarantined.
    const sold = await created(world.admin, '/api/invoices', {
      contact_id: world.customerId,
      warehouse_id: world.place.id,
      date: today,
      lines: [pricedLine(lamp, 1, 350)],
    });
    const quarantined = await world.admin.send('POST', '/api/sales-returns', {
      invoice_id: sold.id,
      date: today,
      settlement: 'credit',
      lines: [{ source_line_id: sold.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'quarantine' }],
    });
    expect(quarantined.status, JSON.stringify(quarantined.body)).toBe(201);
    expect(await stock(lamp)).toEqual({ onHand: 3, quarantined: 1 });

    const answer = await sentBack(billed.id, [back(billed.lines[0].id, 1, { disposition: 'from_quarantine' })]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(await stock(lamp)).toEqual({ onHand: 2, quarantined: 0 });
    // Nothing more is in quarantine; and what is sellable (2) is less than 3.
    const none = await sentBack(billed.id, [back(billed.lines[0].id, 1, { disposition: 'from_quarantine' })]);
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/^Not that much Return Test Lamp \(PRN-LAMP\) in quarantine at .+: 0 quarantined, 1 to take out\.$/);
    // Sold out meanwhile: no goods to send back.
    await created(world.admin, '/api/invoices', {
      contact_id: world.customerId,
      warehouse_id: world.place.id,
      date: today,
      lines: [pricedLine(lamp, 2, 350)],
    });
    const gone = await sentBack(billed.id, [back(billed.lines[0].id, 2)]);
    expect(gone.status).toBe(409);
    expect(gone.body.message).toMatch(/^Not enough Return Test Lamp \(PRN-LAMP\) in stock at .+: 0 on hand, 2 needed\.$/);
    expect((await world.admin.send('GET', `/api/bills/${billed.id}`)).body.data.lines[0].quantity_done).toBe(1);
  });

  it('records a refund from the supplier in tenders, at most what was paid on the bill, as money back beside its payments', async () => {
    const billed = await bill([pricedLine(world.items.paint, 4, 250)]);
    await created(world.admin, '/api/bill-payments', {
      bill_id: billed.id,
      date: today,
      tenders: [{ method: 'bank_transfer', amount: billed.total, reference: 'IBFT-PRN-1' }],
    });
    const [paint] = billed.lines;
    const onCredit = await sentBack(billed.id, [back(paint.id, 1)]);
    expect(onCredit.status).toBe(422);
    expect(onCredit.body.errors.settlement[0]).toMatch(/more than the ₱0\.00 still owed on bill .*: refund them instead\.$/);

    const quarter = shareOf(centavos(billed.total), 1, 4) / 100;
    const answer = await sentBack(billed.id, [back(paint.id, 1)], { settlement: 'refund', tenders: [{ method: 'cash', amount: quarter }] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toMatchObject({ refunded: quarter, amount: 0, total: quarter, settlement: 'refund' });
    const csv = String((await world.admin.send('GET', `/api/bill-payments/tenders.csv?from=${today}&to=${today}`)).body);
    const refundRows = csv.split('\r\n').filter((row) => row.includes(answer.body.data.number));
    expect(refundRows).toHaveLength(1);
    expect(refundRows[0]).toContain(`,${billed.number},Hardware Supplier,Cash,,,,,-${quarter.toFixed(2)},`);
    // The bill owes nothing still: the money came back, not off its balance.
    expect((await world.admin.send('GET', `/api/bills/${billed.id}`)).body.data).toMatchObject({ balance: 0, status: 'paid' });
    // The other three come to more than what is left of what was paid once the bill owes part again.
    const half = await bill([pricedLine(world.items.paint, 2, 100)]);
    await created(world.admin, '/api/bill-payments', { bill_id: half.id, date: today, tenders: [{ method: 'cash', amount: 50 }] });
    const over = await sentBack(half.id, [back(half.lines[0].id, 2)], {
      settlement: 'refund',
      tenders: [{ method: 'cash', amount: half.total }],
    });
    expect(over.body.errors.settlement).toEqual([
      `The returned goods come to ₱${Number(half.total).toFixed(2)}, but only ₱50.00 was paid on bill ${half.number} and not refunded: choose “Off the bill” instead.`,
    ]);
  });

  it('sends the same goods back once, however many try at once, and undoes a void once', async () => {
    const billed = await bill([pricedLine(world.items.nails, 6, 10)]);
    const [nails] = billed.lines;
    const before = (await stock(world.items.nails)).onHand;
    const answers = await Promise.all(Array.from({ length: 8 }, () => sentBack(billed.id, [back(nails.id, 6)])));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    expect((await stock(world.items.nails)).onHand).toBe(before - 6);
    const made = answers.find((answer) => answer.status === 201)!.body.data;
    expect((await world.admin.send('GET', `/api/bills/${billed.id}`)).body.data).toMatchObject({ balance: 0, status: 'paid' });

    const voids = await Promise.all(Array.from({ length: 4 }, () => world.admin.send('PATCH', `/api/purchase-returns/${made.id}/void`)));
    expect(voids.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    expect((await stock(world.items.nails)).onHand).toBe(before);
    const reopened = (await world.admin.send('GET', `/api/bills/${billed.id}`)).body.data;
    expect(reopened).toMatchObject({ status: 'unpaid' });
    expect(centavos(reopened.balance)).toBe(centavos(billed.total));
    expect(reopened.lines[0].quantity_done).toBe(0);
    expect((await sentBack(billed.id, [back(nails.id, 1)])).status).toBe(201);
  });

  it("refuses in words what is not a line of the bill, a sale's dispositions, and a sale's settlement", async () => {
    const billed = await bill([pricedLine(world.items.nails, 2, 10)]);
    const other = await bill([pricedLine(world.items.nails, 1, 10)]);
    const foreign = await sentBack(billed.id, [back(other.lines[0].id, 1)]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors['lines.0.source_line_id'][0]).toMatch(/^Each line must be a line of bill B-/);
    const bad = await sentBack(billed.id, [back(billed.lines[0].id, 1, { reason: 'changed_mind', disposition: 'restock' })], {
      settlement: 'exchange',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      settlement: [
        'The settlement must be credit (off the bill), refund (refunded by the supplier) or account (credit from the supplier, on account).',
      ],
      'lines.0.reason': ['The reason must be one of: damaged, wrong item, expired, over-delivered, other.'],
      'lines.0.disposition': ['The disposition must be one of: from stock, from quarantine.'],
    });
    const missing = await world.admin.send('POST', '/api/purchase-returns', {
      bill_id: 999_999,
      date: today,
      settlement: 'credit',
      lines: [back(1, 1)],
    });
    expect(missing.body.errors).toEqual({ bill_id: ['The selected bill is invalid.'] });
  });
});
