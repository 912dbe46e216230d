import { describe, expect, it } from 'vitest';
import { todayInManila } from '../../domain/documents';
import type { PlaceGrant, PlaceLevel } from '../../domain/places';
import {
  atPlace,
  betweenPlaces,
  contactOfType,
  created,
  databaseKinds,
  permissionsOn,
  type Place,
  type Session,
} from '../../../tests/support/test-app';
import { LOGISTICS, startMovingGoods } from '../../../tests/support/demo-places';
import { startedOnce } from '../../../tests/support/started';

/**
 * The rules of places on documents, through the API on each database: a stock request is made
 * where it asks from (`to_`) of any place of the business; a transfer is dispatched where the goods
 * leave and received where they arrive, a return sent back from where they arrived, and both sides
 * see each; a void or a cancel is the operating side's; a document is made only from one the user
 * sees; a count is read where the user views and counted and posted where they operate; and no
 * refusal tells a user what is on hand at a place that is not theirs.
 */

describe.each(databaseKinds)("documents follow the user's places on %s", (kind) => {
  const date = todayInManila();
  // Stock to move at every place the tests take goods from.
  const world = startedOnce(() => startMovingGoods(kind, ['makati', 'cebu', 'valenzuela'], 500));

  const line = (quantity: number) => ({ item_id: world.item.id, unit_of_measurement_id: world.item.unit_of_measurement_id, quantity });
  const grant = (at: Place, level: PlaceLevel): PlaceGrant => ({ ...at, level });
  /** Goods from Valenzuela to Makati, the way most tests move them. */
  const toMakati = () => betweenPlaces(world.place.valenzuela, world.place.makati);
  const made = (session: Session, resource: string, body: Record<string, unknown>) => created(session, `/api/${resource}`, body);
  const listed = async (session: Session, resource: string, id: number) =>
    (await session.send('GET', `/api/${resource}?per_page=100&id=${id}&is_strict=1`)).body.data.map((row: { id: number }) => row.id);

  it('makes a stock request at the requesting place, from any place of the business, and the asked place sends it', async () => {
    // Branch staff operate at Makati only; warehouse staff operate at Valenzuela and view the branches.
    const branchStaff = await world.test.signIn('branch@example.com', undefined, world.businessId);
    const warehouseStaff = await world.test.signIn('warehouse@example.com', undefined, world.businessId);
    const body = { ...toMakati(), date, lines: [line(8)] };

    // Valenzuela is not one of theirs, and they may still ask it.
    const theirs = (await branchStaff.send('GET', '/api/places')).body.data;
    expect(
      theirs.find((row: { id: number; type: string }) => row.type === 'warehouse' && row.id === world.place.valenzuela.id).level,
    ).toBeNull();
    const request = await made(branchStaff, 'stock-requests', body);
    expect(request).toMatchObject({
      status: 'pending',
      from_location_id: world.place.valenzuela.id,
      to_location_id: world.place.makati.id,
    });

    // Asking for another branch than theirs is refused, naming the side that asks.
    const elsewhere = await branchStaff.send('POST', '/api/stock-requests', {
      ...body,
      ...betweenPlaces(world.place.valenzuela, world.place.cebu),
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe(
      'You do not operate at Cebu: a stock request is made and changed only by someone who operates at the requesting place.',
    );
    // Viewing the requesting place is not enough.
    const viewer = await world.placed(LOGISTICS, grant(world.place.makati, 'view'), grant(world.place.valenzuela, 'operate'));
    expect((await viewer.send('POST', '/api/stock-requests', body)).status).toBe(403);

    // The asked place sees it, in its list and alone, and sends it; the branch sees the transfer and receives it.
    expect(await listed(warehouseStaff, 'stock-requests', request.id)).toEqual([request.id]);
    expect((await warehouseStaff.send('GET', `/api/stock-requests/${request.id}`)).status).toBe(200);
    const before = { valenzuela: await world.stock(world.place.valenzuela), makati: await world.stock(world.place.makati) };
    const transfer = await made(warehouseStaff, 'stock-transfers', {
      ...toMakati(),
      stock_request_id: request.id,
      date,
      lines: [{ source_line_id: request.lines[0].id, quantity: 8 }],
    });
    expect(await world.stock(world.place.valenzuela)).toEqual({ ...before.valenzuela, onHand: before.valenzuela.onHand - 8 });
    expect((await branchStaff.send('GET', `/api/stock-requests/${request.id}`)).body.data.status).toBe('transferred');
    expect(await listed(branchStaff, 'stock-transfers', transfer.id)).toEqual([transfer.id]);
    expect((await branchStaff.send('GET', `/api/stock-transfers/${transfer.id}`)).status).toBe(200);
    await made(branchStaff, 'stock-receives', {
      stock_transfer_id: transfer.id,
      date,
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 8 }],
    });
    expect(await world.stock(world.place.makati)).toEqual({ onHand: before.makati.onHand + 8, inTransit: before.makati.inTransit });

    // Someone at neither end sees none of it.
    const stranger = await world.placed(LOGISTICS, grant(world.place.mandaue, 'operate'));
    for (const [resource, id] of [
      ['stock-requests', request.id],
      ['stock-transfers', transfer.id],
    ] as const) {
      expect((await stranger.send('GET', `/api/${resource}/${id}`)).status).toBe(404);
      expect(await listed(stranger, resource, id)).toEqual([]);
    }
  });

  it('dispatches a transfer only where the goods leave, receives it only where they arrive, and both sides see it', async () => {
    const atMakati = await world.placed(LOGISTICS, grant(world.place.makati, 'operate'));
    const atValenzuela = await world.placed(LOGISTICS, grant(world.place.valenzuela, 'operate'));
    const request = await made(atMakati, 'stock-requests', { ...toMakati(), date, lines: [line(6)] });
    const fromRequest = (quantity: number) => ({
      ...toMakati(),
      stock_request_id: request.id,
      date,
      lines: [{ source_line_id: request.lines[0].id, quantity }],
    });

    // The side that asked does not send: a transfer made from its request leaves where the request asks from.
    const before = await world.stock(world.place.valenzuela);
    const asked = await atMakati.send('POST', '/api/stock-transfers', fromRequest(6));
    expect(asked.status).toBe(403);
    expect(asked.body.message).toMatch(/^You do not operate at Valenzuela Central: a stock transfer is made and changed only by someone/);
    // Nor may it send from its own place for that request.
    const own = await atMakati.send('POST', '/api/stock-transfers', {
      ...fromRequest(6),
      ...betweenPlaces(world.place.makati, world.place.cebu),
    });
    expect(own.status).toBe(422);
    expect(own.body.errors.from_location_id).toEqual(['A transfer for a request goes from and to the request’s locations.']);
    expect(await world.stock(world.place.valenzuela)).toEqual(before);

    const transfer = await made(atValenzuela, 'stock-transfers', fromRequest(6));
    for (const session of [atMakati, atValenzuela]) {
      expect(await listed(session, 'stock-transfers', transfer.id)).toEqual([transfer.id]);
      expect((await session.send('GET', `/api/stock-transfers/${transfer.id}`)).body.data.id).toBe(transfer.id);
    }

    // The sending side does not receive (nor does a viewer of the destination), and nothing moves.
    const receive = { stock_transfer_id: transfer.id, date, lines: [{ source_line_id: transfer.lines[0].id, quantity: 6 }] };
    const arriving = await world.stock(world.place.makati);
    const bySender = await atValenzuela.send('POST', '/api/stock-receives', receive);
    expect(bySender.status).toBe(403);
    expect(bySender.body.message).toBe(
      'You do not operate at Makati: a stock receive is made and changed only by someone who operates at the place receiving them.',
    );
    const makatiViewer = await world.placed(LOGISTICS, grant(world.place.makati, 'view'), grant(world.place.valenzuela, 'view'));
    expect((await makatiViewer.send('POST', '/api/stock-receives', receive)).status).toBe(403);
    expect(await world.stock(world.place.makati)).toEqual(arriving);
    expect((await world.admin.send('GET', `/api/stock-transfers/${transfer.id}`)).body.data.status).toBe('in_transit');

    const received = await made(atMakati, 'stock-receives', receive);
    expect(received).toMatchObject({ from_location_id: world.place.valenzuela.id, to_location_id: world.place.makati.id });
    expect(await world.stock(world.place.makati)).toEqual({ onHand: arriving.onHand + 6, inTransit: arriving.inTransit - 6 });
    // Both sides see the receive too.
    expect((await atValenzuela.send('GET', `/api/stock-receives/${received.id}`)).status).toBe(200);
    // Who may never receive it is told so, not that it is received already.
    expect((await atValenzuela.send('POST', '/api/stock-receives', receive)).status).toBe(403);
    expect((await atMakati.send('POST', '/api/stock-receives', receive)).status).toBe(409);

    // A return goes back from where the goods arrived: made there, not by the side they came from.
    const back = {
      stock_transfer_id: transfer.id,
      reason: 'Wrong item',
      date,
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 2 }],
    };
    const returnedBySender = await atValenzuela.send('POST', '/api/stock-returns', back);
    expect(returnedBySender.status).toBe(403);
    expect(returnedBySender.body.message).toBe(
      'You do not operate at Makati: a stock return is made and changed only by someone who operates at the place sending them back.',
    );
    const goingBack = await made(atMakati, 'stock-returns', back);
    expect(goingBack).toMatchObject({ from_location_id: world.place.makati.id, to_location_id: world.place.valenzuela.id });
    // Carried back by a transfer leaving Makati: its sender is Makati.
    const carry = {
      ...betweenPlaces(world.place.makati, world.place.valenzuela),
      stock_return_id: goingBack.id,
      date,
      lines: [{ source_line_id: goingBack.lines[0].id, quantity: 2 }],
    };
    expect((await atValenzuela.send('POST', '/api/stock-transfers', carry)).status).toBe(403);
    await made(atMakati, 'stock-transfers', carry);
    expect((await atValenzuela.send('GET', `/api/stock-returns/${goingBack.id}`)).body.data.status).toBe('transferred');
  });

  it('leaves a void or a cancel to the side that operates the document; the other side is refused, a stranger not told', async () => {
    const atMakati = await world.placed(LOGISTICS, grant(world.place.makati, 'operate'));
    const atValenzuela = await world.placed(LOGISTICS, grant(world.place.valenzuela, 'operate'));
    const stranger = await world.placed(LOGISTICS, grant(world.place.cebu, 'operate'));

    const request = await made(atMakati, 'stock-requests', { ...toMakati(), date, lines: [line(1)] });
    expect((await stranger.send('PATCH', `/api/stock-requests/${request.id}/cancel`)).status).toBe(404);
    expect((await atValenzuela.send('PATCH', `/api/stock-requests/${request.id}/cancel`)).status).toBe(403);
    const cancelled = await atMakati.send('PATCH', `/api/stock-requests/${request.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');

    const sent = () => made(atValenzuela, 'stock-transfers', { ...toMakati(), date, lines: [line(3)] });
    const transfer = await sent();
    const before = await world.stock(world.place.valenzuela);
    expect((await stranger.send('PATCH', `/api/stock-transfers/${transfer.id}/void`)).status).toBe(404);
    expect((await atMakati.send('PATCH', `/api/stock-transfers/${transfer.id}/void`)).status).toBe(403);
    expect(await world.stock(world.place.valenzuela)).toEqual(before);
    expect((await atValenzuela.send('PATCH', `/api/stock-transfers/${transfer.id}/void`)).status).toBe(200);
    expect(await world.stock(world.place.valenzuela)).toEqual({ ...before, onHand: before.onHand + 3 });

    const arriving = await sent();
    const received = await made(atMakati, 'stock-receives', {
      stock_transfer_id: arriving.id,
      date,
      lines: [{ source_line_id: arriving.lines[0].id, quantity: 3 }],
    });
    expect((await atValenzuela.send('PATCH', `/api/stock-receives/${received.id}/void`)).status).toBe(403);
    expect((await atMakati.send('PATCH', `/api/stock-receives/${received.id}/void`)).status).toBe(200);
    expect((await atValenzuela.send('GET', `/api/stock-transfers/${arriving.id}`)).body.data.status).toBe('in_transit');
  });

  it('makes a document only from one the user sees: another is answered as one that does not exist', async () => {
    const supplier = await contactOfType(world.admin, 'Supplier');
    const customer = await contactOfType(world.admin, 'Customer');
    const priced = { ...line(1), unit_price: 10 };
    const atCebu = atPlace(world.place.cebu);
    // At Cebu and Quezon City, which the user below neither views nor operates at.
    const order = await made(world.admin, 'purchase-orders', { ...atCebu, contact_id: supplier, date, lines: [priced] });
    const bill = await made(world.admin, 'bills', { ...atCebu, contact_id: supplier, date, lines: [priced] });
    const quotation = await made(world.admin, 'quotations', { ...atCebu, contact_id: customer, date, lines: [priced] });
    const invoice = await made(world.admin, 'invoices', { ...atCebu, contact_id: customer, date, lines: [priced] });
    const request = await made(world.admin, 'stock-requests', {
      ...betweenPlaces(world.place.quezon, world.place.cebu),
      date,
      lines: [line(1)],
    });
    const transfer = await made(world.admin, 'stock-transfers', {
      ...betweenPlaces(world.place.cebu, world.place.quezon),
      date,
      lines: [line(2)],
    });
    await made(world.admin, 'stock-receives', {
      stock_transfer_id: transfer.id,
      date,
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 1 }],
    });
    const goingBack = await made(world.admin, 'stock-returns', {
      stock_transfer_id: transfer.id,
      reason: 'Dented',
      date,
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 1 }],
    });

    const user = await world.placed(
      [
        ...permissionsOn(['purchase-orders', 'receive-orders', 'bills', 'bill-payments', 'debit-memoranda']),
        ...permissionsOn(['quotations', 'invoices', 'invoice-payments', 'credit-memoranda']),
        ...LOGISTICS,
        ...permissionsOn(['contacts', 'items', 'branches', 'warehouses'], ['view']),
      ],
      grant(world.place.makati, 'operate'),
      grant(world.place.mandaue, 'operate'),
    );
    const makati = atPlace(world.place.makati);
    const cases: [resource: string, field: string, source: number, body: Record<string, unknown>][] = [
      ['receive-orders', 'purchase_order_id', order.id, { ...makati, contact_id: supplier, date, lines: [priced] }],
      ['bills', 'purchase_order_id', order.id, { ...makati, contact_id: supplier, date, lines: [priced] }],
      ['invoices', 'quotation_id', quotation.id, { ...makati, contact_id: customer, date, lines: [priced] }],
      ['bill-payments', 'bill_id', bill.id, { date, tenders: [{ method: 'cash', amount: 1 }] }],
      ['debit-memoranda', 'bill_id', bill.id, { date, amount: 1, reason: 'Short' }],
      ['invoice-payments', 'invoice_id', invoice.id, { date, tenders: [{ method: 'cash', amount: 1 }] }],
      ['credit-memoranda', 'invoice_id', invoice.id, { date, amount: 1, reason: 'Short' }],
      // Sent from Mandaue, where the user operates: only the source is not theirs.
      [
        'stock-transfers',
        'stock_request_id',
        request.id,
        { ...betweenPlaces(world.place.mandaue, world.place.makati), date, lines: [line(1)] },
      ],
      [
        'stock-transfers',
        'stock_return_id',
        goingBack.id,
        { ...betweenPlaces(world.place.mandaue, world.place.makati), date, lines: [line(1)] },
      ],
      ['stock-receives', 'stock_transfer_id', transfer.id, { date, lines: [{ source_line_id: transfer.lines[0].id, quantity: 1 }] }],
      [
        'stock-returns',
        'stock_transfer_id',
        transfer.id,
        { reason: 'Dented', date, lines: [{ source_line_id: transfer.lines[0].id, quantity: 1 }] },
      ],
    ];
    const missing = 999_999;
    for (const [resource, field, source, body] of cases) {
      const refused = await user.send('POST', `/api/${resource}`, { ...body, [field]: source });
      const absent = await user.send('POST', `/api/${resource}`, { ...body, [field]: missing });
      expect([resource, refused.status], JSON.stringify(refused.body)).toEqual([resource, 422]);
      expect(refused.body, resource).toEqual(absent.body);
      expect(refused.body.errors[field], resource).toBeDefined();
    }
    // Nothing of the sources changed.
    expect((await world.admin.send('GET', `/api/purchase-orders/${order.id}`)).body.data.status).toBe('open');
    expect((await world.admin.send('GET', `/api/bills/${bill.id}`)).body.data.balance).toBe(bill.balance);
    expect((await world.admin.send('GET', `/api/quotations/${quotation.id}`)).body.data.status).toBe('open');
    expect((await world.admin.send('GET', `/api/stock-requests/${request.id}`)).body.data.status).toBe('pending');
    expect((await world.admin.send('GET', `/api/stock-transfers/${transfer.id}`)).body.data.status).toBe('partially_received');
  });

  it('never tells what is on hand at a place that is not the user’s: the place is refused before the stock is looked at', async () => {
    const customer = await contactOfType(world.admin, 'Customer');
    const atMakati = await world.placed(
      [...permissionsOn(['invoices', 'stock-adjustments']), ...LOGISTICS, ...permissionsOn(['contacts', 'items'], ['view'])],
      grant(world.place.makati, 'operate'),
      grant(world.place.quezon, 'view'),
    );
    const { onHand } = await world.stock(world.place.cebu);
    const tooMuch = line(onHand + 1000);
    const attempts = [
      ['invoices', { ...atPlace(world.place.cebu), contact_id: customer, date, lines: [{ ...tooMuch, unit_price: 10 }] }],
      ['invoices', { ...atPlace(world.place.quezon), contact_id: customer, date, lines: [{ ...tooMuch, unit_price: 10 }] }],
      ['stock-adjustments', { ...atPlace(world.place.cebu), date, lines: [{ ...line(-(onHand + 1000)), reason: 'lost' }] }],
      ['stock-transfers', { ...betweenPlaces(world.place.cebu, world.place.makati), date, lines: [tooMuch] }],
    ] as const;
    for (const [resource, body] of attempts) {
      const refused = await atMakati.send('POST', `/api/${resource}`, body);
      expect([resource, refused.status]).toEqual([resource, 403]);
      expect(refused.body.message).not.toMatch(/on hand|in stock|\d/);
    }

    // A receive takes its places from its transfer: refused before anything arrives at Cebu.
    const atValenzuela = await world.placed(LOGISTICS, grant(world.place.valenzuela, 'operate'));
    const transfer = await made(world.admin, 'stock-transfers', {
      ...betweenPlaces(world.place.valenzuela, world.place.cebu),
      date,
      lines: [line(4)],
    });
    const cebu = await world.stock(world.place.cebu);
    const receive = await atValenzuela.send('POST', '/api/stock-receives', {
      stock_transfer_id: transfer.id,
      date,
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 4 }],
    });
    expect(receive.status).toBe(403);
    expect(await world.stock(world.place.cebu)).toEqual(cebu);
  });

  describe('stock counts', () => {
    const COUNTING = [
      ...permissionsOn(['stock-counts'], ['view', 'create', 'update']),
      ...permissionsOn(['stock-adjustments'], ['create']),
    ];
    const start = async () =>
      (await made(world.admin, 'stock-counts', { ...atPlace(world.place.cebu), date, scope: 'picked' })).id as number;
    const entry = (session: Session, id: number, quantity = 1) =>
      session.send('POST', `/api/stock-counts/${id}/entries`, { item_id: world.item.id, quantity });

    it('are read where the user views, and counted, taken back and posted only where they operate', async () => {
      const operator = await world.placed(COUNTING, grant(world.place.cebu, 'operate'));
      const viewer = await world.placed(COUNTING, grant(world.place.cebu, 'view'));
      const stranger = await world.placed(COUNTING, grant(world.place.makati, 'operate'));
      const id = await start();
      expect((await entry(operator, id, 3)).status).toBe(201);

      // Not there for someone who does not view Cebu: every route answers as for no count at all.
      const routes = [
        ['GET', `/api/stock-counts/${id}/lines`, undefined],
        ['POST', `/api/stock-counts/${id}/entries`, { item_id: world.item.id, quantity: 1 }],
        ['PATCH', `/api/stock-counts/${id}/uncount`, { item_id: world.item.id }],
        ['PATCH', `/api/stock-counts/${id}/post`, undefined],
      ] as const;
      for (const [method, url, body] of routes) {
        const hidden = await stranger.send(method, url, body);
        expect([url, hidden.status]).toEqual([url, 404]);
        expect(hidden.body).toEqual((await stranger.send(method, url.replace(`/${id}/`, '/999999/'), body)).body);
      }
      // A viewer reads its lines, and changes nothing.
      const lines = await viewer.send('GET', `/api/stock-counts/${id}/lines`);
      expect(lines.status).toBe(200);
      expect(lines.body.data).toMatchObject([{ item_id: world.item.id, counted: 3 }]);
      for (const [method, url, body] of routes.slice(1)) {
        const refused = await viewer.send(method, url, body);
        expect([url, refused.status]).toEqual([url, 403]);
        expect(refused.body.message).toMatch(
          /^You do not operate at Cebu: a stock count is made and changed only by someone who operates at/,
        );
      }
      expect((await world.admin.send('GET', `/api/stock-counts/${id}/lines`)).body.data).toMatchObject([{ counted: 3, entries: 1 }]);
      expect((await world.admin.send('GET', `/api/stock-counts/${id}`)).body.data.status).toBe('open');

      // The operator takes the line back, counts again and posts.
      expect((await operator.send('PATCH', `/api/stock-counts/${id}/uncount`, { item_id: world.item.id })).body.data.counted).toBeNull();
      const { onHand } = await world.stock(world.place.cebu);
      expect((await entry(operator, id, onHand - 1)).status).toBe(201);
      const posted = await operator.send('PATCH', `/api/stock-counts/${id}/post`);
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
      expect(posted.body.data.status).toBe('posted');
      expect(await world.stock(world.place.cebu)).toMatchObject({ onHand: onHand - 1 });
    });

    it('add up only the entries of those who operate there, in parallel, and are posted once by them', async () => {
      const operator = await world.placed(COUNTING, grant(world.place.cebu, 'operate'));
      const viewer = await world.placed(COUNTING, grant(world.place.cebu, 'view'));
      const id = await start();
      const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => entry(index % 2 === 0 ? operator : viewer, id, 1)));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? 201 : 403)));
      expect((await world.admin.send('GET', `/api/stock-counts/${id}/lines`)).body.data).toMatchObject([{ counted: 6, entries: 6 }]);

      // Posted by the operator while the viewer tries too, and counted meanwhile: one post, nothing after it.
      const [byViewer, byOperator, late] = await Promise.all([
        viewer.send('PATCH', `/api/stock-counts/${id}/post`),
        operator.send('PATCH', `/api/stock-counts/${id}/post`),
        operator.send('PATCH', `/api/stock-counts/${id}/post`),
      ]);
      expect(byViewer.status).toBe(403);
      expect([byOperator.status, late.status].sort()).toEqual([200, 409]);
      expect((await world.admin.send('GET', `/api/stock-counts/${id}`)).body.data.status).toBe('posted');
      expect(await world.stock(world.place.cebu)).toMatchObject({ onHand: 6 });
    });
  });

  it('lets only the sending side dispatch a request, and only the receiving side take it in, when both try at once', async () => {
    const atMakati = await world.placed(LOGISTICS, grant(world.place.makati, 'operate'));
    const atValenzuela = await world.placed(LOGISTICS, grant(world.place.valenzuela, 'operate'));
    const other = await world.placed(LOGISTICS, grant(world.place.valenzuela, 'operate'));
    const request = await made(atMakati, 'stock-requests', { ...toMakati(), date, lines: [line(5)] });
    const fromRequest = { ...toMakati(), stock_request_id: request.id, date };
    const whole = { ...fromRequest, lines: [{ source_line_id: request.lines[0].id, quantity: 5 }] };
    const before = await world.stock(world.place.valenzuela);

    // The requesting side is refused; of two senders of the whole request, one sends it.
    const sends = await Promise.all([
      atMakati.send('POST', '/api/stock-transfers', whole),
      atValenzuela.send('POST', '/api/stock-transfers', whole),
      other.send('POST', '/api/stock-transfers', whole),
    ]);
    expect(sends[0].status).toBe(403);
    expect([sends[1].status, sends[2].status].sort()).toEqual([201, 409]);
    expect(await world.stock(world.place.valenzuela)).toEqual({ ...before, onHand: before.onHand - 5 });
    const transfer = (sends[1].status === 201 ? sends[1] : sends[2]).body.data;
    expect((await atMakati.send('GET', `/api/stock-requests/${request.id}`)).body.data.status).toBe('transferred');

    // Received by the branch while the warehouse tries too: the branch's receive only.
    const arriving = await world.stock(world.place.makati);
    const receive = { stock_transfer_id: transfer.id, date, lines: [{ source_line_id: transfer.lines[0].id, quantity: 5 }] };
    const [bySender, byReceiver] = await Promise.all([
      atValenzuela.send('POST', '/api/stock-receives', receive),
      atMakati.send('POST', '/api/stock-receives', receive),
    ]);
    expect([bySender.status, byReceiver.status]).toEqual([403, 201]);
    expect(await world.stock(world.place.makati)).toEqual({ onHand: arriving.onHand + 5, inTransit: arriving.inTransit - 5 });
    expect((await atValenzuela.send('GET', `/api/stock-transfers/${transfer.id}`)).body.data.status).toBe('received');
  });
});
