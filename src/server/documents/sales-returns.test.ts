import { describe, expect, it } from 'vitest';
import { pricedLine } from '../../../tests/support/one-line';
import { returnLines, shareOf } from '../../../tests/support/returns';
import { startedOnce } from '../../../tests/support/started';
import {
  betweenPlaces,
  created,
  databaseKinds,
  firstOf,
  newContact,
  startWithStockAt,
  stockedItem,
  stockLevel,
} from '../../../tests/support/test-app';
import { todayInManila } from '../../domain/documents';
import { pesosToCentavos as centavos } from '../../domain/money';

/**
 * Sales returns, on each database: goods back from an invoice, each line its share of the invoice
 * line to the centavo (VAT and discounts, a senior citizen's 20 % too), restocked or written off,
 * credited to the invoice or refunded in tenders; never more than was sold, however many devices
 * return the same goods at once; a void undoing it once.
 */
describe.each(databaseKinds)('sales returns on %s', (kind) => {
  const today = todayInManila();
  /** The first branch, where the items are stocked and prices include VAT; a customer who brings goods back. */
  const world = startedOnce(async () => {
    const items = {
      soap: { sku: 'RET-SOAP', name: 'Return Test Soap' },
      rice: { sku: 'RET-RICE', name: 'Return Test Rice', vat_category: 'exempt' },
      medicine: { sku: 'RET-MED', name: 'Return Test Paracetamol', sc_pwd_discount: true },
    };
    const start = await startWithStockAt(kind, 'branch', items, 1000);
    const { admin, businessId } = start;
    expect((await admin.send('PATCH', `/api/businesses/${businessId}`, { prices_include_vat: true })).status).toBe(200);
    return { ...start, customerId: await newContact(admin, 'Customer', 'Return Suki') };
  });

  const invoice = async (lines: unknown[], extra: Record<string, unknown> = {}) =>
    created(world.admin, '/api/invoices', { contact_id: world.customerId, branch_id: world.place.id, date: today, lines, ...extra });
  const returned = (invoiceId: number, lines: unknown[], extra: Record<string, unknown> = {}) =>
    world.admin.send('POST', '/api/sales-returns', { invoice_id: invoiceId, date: today, settlement: 'credit', lines, ...extra });
  const back = returnLines('restock');
  const onHand = async (item: number) => (await stockLevel(world.admin, item, world.place)).onHand;

  it('credits 2 of 5 at their share of the line, VAT and discount included, and the rest makes up the line to the centavo', async () => {
    // 5 × ₱99.99 VAT in, 7 % off: an odd line, so that shares round.
    const sold = await invoice([pricedLine(world.items.soap, 5, 99.99, { discount_percent: 7 }), pricedLine(world.items.rice, 3, 51.25)]);
    const [soap, rice] = sold.lines;
    const soapBefore = await onHand(world.items.soap);
    const riceBefore = await onHand(world.items.rice);

    const first = await returned(sold.id, [back(soap.id, 2), back(rice.id, 1, { reason: 'expired', disposition: 'write_off' })]);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const made = first.body.data;
    // What the customer paid for each line is shared, and its VAT; the VATable sale is the rest.
    const soapPaid = shareOf(centavos(soap.amount) + centavos(soap.vat), 2, 5);
    const vat = shareOf(centavos(soap.vat), 2, 5);
    const ricePaid = shareOf(centavos(rice.amount), 1, 3);
    expect(centavos(made.vat_total)).toBe(vat);
    expect(centavos(made.vatable_sales)).toBe(soapPaid - vat);
    expect(centavos(made.exempt_sales)).toBe(ricePaid);
    expect(centavos(made.total)).toBe(soapPaid + ricePaid);
    expect(made).toMatchObject({
      status: 'posted',
      settlement: 'credit',
      contact_id: world.customerId,
      branch_id: world.place.id,
      refunded: 0,
    });
    expect(made.amount).toBe(made.total);
    expect(made.number).toMatch(/^SRN-/);
    expect(made.lines.map((each: { reason: string; disposition: string }) => [each.reason, each.disposition])).toEqual([
      ['damaged', 'restock'],
      ['expired', 'write_off'],
    ]);
    // The restocked soap is back on hand; the written-off rice is not.
    expect(await onHand(world.items.soap)).toBe(soapBefore + 2);
    expect(await onHand(world.items.rice)).toBe(riceBefore);
    const after = (await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data;
    expect(centavos(after.balance)).toBe(centavos(sold.total) - centavos(made.total));
    expect(after.status).toBe('partially_paid');
    expect(after.lines.map((each: { quantity_done: number }) => each.quantity_done)).toEqual([2, 1]);

    // The rest of both lines: every return together comes to the invoice, to the centavo.
    const rest = await returned(sold.id, [back(soap.id, 3), back(rice.id, 2, { reason: 'other', note: 'Bag torn' })]);
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    for (const figure of ['total', 'vat_total', 'vatable_sales', 'exempt_sales', 'discount_total', 'subtotal'])
      expect(centavos(made[figure]) + centavos(rest.body.data[figure]), figure).toBe(centavos(sold[figure]));
    const settled = (await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data;
    expect(settled).toMatchObject({ balance: 0, status: 'paid' });

    // Nothing is left to return.
    const more = await returned(sold.id, [back(soap.id, 1)]);
    expect(more.status).toBe(422);
    expect(more.body.errors).toEqual({ 'lines.0.quantity': ['All of this line was returned already.'] });
  });

  it("recomputes a senior citizen's discount in proportion", async () => {
    const sold = await invoice([pricedLine(world.items.medicine, 4, 7.5), pricedLine(world.items.soap, 1, 30)], {
      buyer_discount: 'senior',
      buyer_discount_id_number: 'SC-1234',
      buyer_discount_name: 'Lola Basyang',
    });
    const [medicine] = sold.lines;
    const answer = await returned(sold.id, [back(medicine.id, 1, { reason: 'changed_mind' })]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const made = answer.body.data;
    // The senior's medicine was sold VAT-exempt, 20 % off: a quarter of it comes back so.
    expect(centavos(made.sc_pwd_discount)).toBe(shareOf(centavos(sold.sc_pwd_discount), 1, 4));
    expect(centavos(made.less_vat)).toBe(shareOf(centavos(sold.less_vat), 1, 4));
    expect(centavos(made.exempt_sales)).toBe(shareOf(centavos(medicine.amount), 1, 4));
    expect(made.vat_total).toBe(0);
  });

  it('refunds in cash and GCash what was paid, no more, and keeps the tenders', async () => {
    const sold = await invoice([pricedLine(world.items.soap, 4, 50)], {
      payment: { tenders: [{ method: 'cash', amount: 150 }] },
    });
    const [soap] = sold.lines;
    // ₱100 back of the ₱150 paid: in two tenders.
    const tenders = [
      { method: 'cash', amount: 60 },
      { method: 'gcash', amount: 40, reference: '9012345678901' },
    ];
    const refused = await returned(sold.id, [back(soap.id, 4)], { settlement: 'refund', tenders });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.settlement[0]).toMatch(/only ₱150\.00 was paid on invoice .* and not refunded/);
    const short = await returned(sold.id, [back(soap.id, 2)], { settlement: 'refund', tenders: [{ method: 'cash', amount: 60 }] });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({ tenders: ["The refund's tenders must come to what the returned goods do: ₱100.00."] });

    const answer = await returned(sold.id, [back(soap.id, 2)], { settlement: 'refund', tenders });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toMatchObject({ refunded: 100, amount: 0, total: 100 });
    expect(answer.body.data.tenders.map((each: { method: string; amount: number }) => [each.method, each.amount])).toEqual([
      ['cash', 60],
      ['gcash', 40],
    ]);
    // Taken away for reconciliation, the refund is money out, beside the money its invoice took in.
    const csv = String((await world.admin.send('GET', `/api/invoice-payments/tenders.csv?from=${today}&to=${today}`)).body);
    const refundRows = csv.split('\r\n').filter((row) => row.includes(answer.body.data.number));
    expect(refundRows.map((row) => row.split(',').slice(2, 5).concat(row.split(',').slice(-2)))).toEqual([
      [sold.number, 'Return Suki', 'Cash', '-60.00', ''],
      [sold.number, 'Return Suki', 'GCash', '-40.00', ''],
    ]);
    expect(csv).toContain(`,${sold.number},Return Suki,Cash,,,,,150.00,`);
    // The invoice still owes what it owed: the money went back, not off its balance.
    expect((await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data).toMatchObject({ balance: 50, status: 'partially_paid' });
    // ₱50 of what was paid is left to refund: the other two (₱100) are more than that.
    const over = await returned(sold.id, [back(soap.id, 2)], { settlement: 'refund', tenders });
    expect(over.body.errors.settlement[0]).toMatch(/only ₱50\.00 was paid/);
  });

  it('returns the same goods once, however many try at once, and undoes a void once', async () => {
    const sold = await invoice([pricedLine(world.items.soap, 5, 20)]);
    const [soap] = sold.lines;
    const before = await onHand(world.items.soap);
    const answers = await Promise.all(Array.from({ length: 8 }, () => returned(sold.id, [back(soap.id, 5)])));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    expect(await onHand(world.items.soap)).toBe(before + 5);
    const made = answers.find((answer) => answer.status === 201)!.body.data;
    expect((await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data).toMatchObject({ balance: 0, status: 'paid' });

    // The invoice cannot be voided while its goods are back.
    expect((await world.admin.send('PATCH', `/api/invoices/${sold.id}/void`)).status).toBe(409);

    const voids = await Promise.all(Array.from({ length: 4 }, () => world.admin.send('PATCH', `/api/sales-returns/${made.id}/void`)));
    expect(voids.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await onHand(world.items.soap)).toBe(before);
    const reopened = (await world.admin.send('GET', `/api/invoices/${sold.id}`)).body.data;
    expect(reopened).toMatchObject({ balance: 100, status: 'unpaid' });
    expect(reopened.lines[0].quantity_done).toBe(0);
    // Its lines may be returned again.
    expect((await returned(sold.id, [back(soap.id, 1)])).status).toBe(201);
  });

  it("counts the period's returns on the overview by reason, voided ones left out, as their lines add up", async () => {
    const listed = (await world.admin.send('GET', `/api/sales-returns?date=${today}&per_page=100`)).body.data as {
      id: number;
      status: string;
    }[];
    const byReason = new Map<string, { returns: Set<number>; centavos: number }>();
    let total = 0;
    let count = 0;
    for (const { id, status } of listed) {
      if (status === 'void') continue;
      const made = (await world.admin.send('GET', `/api/sales-returns/${id}`)).body.data;
      count += 1;
      total += centavos(made.total);
      for (const each of made.lines as { reason: string; amount: number; vat: number }[]) {
        const entry = byReason.get(each.reason) ?? { returns: new Set(), centavos: 0 };
        entry.returns.add(id);
        entry.centavos += centavos(each.amount) + centavos(each.vat);
        byReason.set(each.reason, entry);
      }
    }
    expect(count).toBeGreaterThan(3);
    const card = (await world.admin.send('GET', `/api/overview/returns?from=${today}&to=${today}`)).body;
    expect(card.returns).toBe(count);
    expect(centavos(card.amount)).toBe(total);
    expect(card.data.map((row: { reason: string }) => row.reason)).toEqual(
      ['damaged', 'wrong_item', 'expired', 'changed_mind', 'other'].filter((reason) => byReason.has(reason)),
    );
    for (const row of card.data as { reason: string; returns: number; amount: number }[]) {
      expect(row.returns, row.reason).toBe(byReason.get(row.reason)!.returns.size);
      expect(centavos(row.amount), row.reason).toBe(byReason.get(row.reason)!.centavos);
    }
  });

  it('keeps quarantined goods on hand but out of every sale and transfer, until an adjustment releases or writes them off', async () => {
    const lamp = await stockedItem(world.admin, world.place, { sku: 'RET-LAMP', name: 'Return Test Lamp' }, 2);
    const sold = await invoice([pricedLine(lamp, 2, 350)]);
    const made = await returned(sold.id, [back(sold.lines[0].id, 2, { disposition: 'quarantine' })]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const stock = async () =>
      (await world.admin.send('GET', `/api/stocks?item_id=${lamp}&location_type=branch&location_id=${world.place.id}&is_strict=1`)).body
        .data[0];
    expect(await stock()).toMatchObject({ quantity_on_hand: 2, quantity_quarantined: 2 });

    // Neither sold nor moved: the ledger refuses, saying why.
    const sale = await world.admin.send('POST', '/api/invoices', {
      contact_id: world.customerId,
      branch_id: world.place.id,
      date: today,
      lines: [pricedLine(lamp, 1, 350)],
    });
    expect(sale.status).toBe(409);
    expect(sale.body.message).toBe(
      'Not enough Return Test Lamp (RET-LAMP) in stock at ' +
        `${(await world.admin.send('GET', `/api/branches/${world.place.id}`)).body.data.name}: 2 on hand (2 of them quarantined, not for sale or transfer), 1 needed.`,
    );
    const warehouse = await firstOf(world.admin, 'warehouses');
    const asked = await created(world.admin, '/api/stock-requests', {
      ...betweenPlaces(world.place, { type: 'warehouse', id: warehouse.id }),
      date: today,
      lines: [{ item_id: lamp, unit_of_measurement_id: 1, quantity: 1 }],
    });
    const transfer = await world.admin.send('POST', '/api/stock-transfers', {
      ...betweenPlaces(world.place, { type: 'warehouse', id: warehouse.id }),
      stock_request_id: asked.id,
      date: today,
      lines: [{ source_line_id: asked.lines[0].id, quantity: 1 }],
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(409);
    const adjusted = (reason: string, quantity: number) =>
      world.admin.send('POST', '/api/stock-adjustments', {
        branch_id: world.place.id,
        date: today,
        lines: [{ item_id: lamp, unit_of_measurement_id: 1, quantity, reason }],
      });
    // Nor adjusted away as damaged: quarantined goods leave by their own reason.
    expect((await adjusted('damaged', -1)).status).toBe(409);

    // One released is sold; one written off leaves the stock and the quarantine.
    const released = await adjusted('released', 1);
    expect(released.status, JSON.stringify(released.body)).toBe(201);
    expect(await stock()).toMatchObject({ quantity_on_hand: 2, quantity_quarantined: 1 });
    expect(
      (
        await world.admin.send('POST', '/api/invoices', {
          contact_id: world.customerId,
          branch_id: world.place.id,
          date: today,
          lines: [pricedLine(lamp, 1, 350)],
        })
      ).status,
    ).toBe(201);
    const writtenOff = await adjusted('quarantine_written_off', -1);
    expect(writtenOff.status, JSON.stringify(writtenOff.body)).toBe(201);
    expect(await stock()).toMatchObject({ quantity_on_hand: 0, quantity_quarantined: 0 });

    // Nothing left in quarantine to release; a release's sign is its reason's.
    const none = await adjusted('released', 1);
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/^Not that much Return Test Lamp \(RET-LAMP\) in quarantine at .+: 0 quarantined, 1 to take out\.$/);
    expect((await adjusted('released', -1)).body.errors).toEqual({
      'lines.0.quantity': ['Goods released from quarantine come into stock: the quantity must be above zero (1, not −1).'],
    });

    // A void undoes a write-off into quarantine again; the stock's movements show the quarantine's.
    expect((await world.admin.send('PATCH', `/api/stock-adjustments/${writtenOff.body.data.id}/void`)).status).toBe(200);
    expect(await stock()).toMatchObject({ quantity_on_hand: 1, quantity_quarantined: 1 });
    const movements = (await world.admin.send('GET', `/api/stocks/${(await stock()).id}/movements?per_page=100`)).body.data;
    expect(movements.map((each: { quantity: number; quarantined: number }) => [each.quantity, each.quarantined])).toEqual([
      [1, 1],
      [-1, -1],
      [-1, 0],
      [0, -1],
      [2, 2],
      [-2, 0],
      [2, 0],
    ]);
  });

  it('refuses in words what is not a line of the invoice, a credit past what is owed, and bad lines', async () => {
    const sold = await invoice([pricedLine(world.items.soap, 2, 10)], { payment: { tenders: [{ method: 'cash', amount: 20 }] } });
    const other = await invoice([pricedLine(world.items.soap, 1, 10)]);
    const foreign = await returned(sold.id, [back(other.lines[0].id, 1)]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors['lines.0.source_line_id'][0]).toMatch(/^Each line must be a line of invoice I-/);
    const credit = await returned(sold.id, [back(sold.lines[0].id, 1)]);
    expect(credit.status).toBe(422);
    expect(credit.body.errors.settlement[0]).toMatch(/more than the ₱0\.00 still owed on invoice .*: refund them instead\.$/);
    const bad = await returned(sold.id, [{ source_line_id: sold.lines[0].id, quantity: 1, reason: 'bored', disposition: 'keep' }]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      'lines.0.reason': ['The reason must be one of: damaged, wrong item, expired, changed mind, other.'],
      'lines.0.disposition': ['The disposition must be one of: back in stock, quarantined, written off.'],
    });
    const noNote = await returned(sold.id, [back(sold.lines[0].id, 1, { reason: 'other' })], { settlement: 'refund' });
    expect(noNote.body.errors).toMatchObject({ 'lines.0.note': ['Say why in the note when the reason is other.'] });
    expect(
      (await world.admin.send('POST', '/api/sales-returns', { invoice_id: 'x', date: today, settlement: 'credit', lines: [] })).status,
    ).toBe(422);
  });
});
