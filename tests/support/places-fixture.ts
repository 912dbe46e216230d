import { expect } from 'vitest';
import { todayInManila, type Location } from '../../src/domain/documents';
import type { ResourceDefinition } from '../../src/domain/resource';
import { getResource, registry } from '../../src/domain/resources/registry';
import type { PlaceAccess, PlaceType } from '../../src/domain/places';
import { addDays } from '../../src/server/overview/calendar';
import { png } from './png';
import { sampleBody } from './samples';
import type { DatabaseKind } from '../../src/server/db/dialect';
import { contactOfType, created, placeNamed, startDemo, type Session } from './test-app';
import { sendFile } from './upload';

/**
 * The demo business with records of every kind at every place, for suites that prove a user
 * confined to some places sees and changes nothing of the others. The user it is built for views
 * Makati (a branch) and operates at Valenzuela Central (a warehouse); Quezon City, Cebu and
 * Mandaue are the places they do not work at. Beside what the demo holds (nearly all of it at
 * Makati and Valenzuela), the admin makes:
 *
 *   - elsewhere: stock at Quezon City, Cebu and Mandaue; at Mandaue an order, its receipt, a bill,
 *     its payment and a debit memo, a quotation, an invoice, its payment and a credit memo, and an
 *     open count with an entry; at Quezon City an invoice, and another voided and trashed; a request,
 *     two transfers (one received and returned, one in transit) between Mandaue and Cebu; prices
 *     for Cebu and Quezon City; memos and files on them;
 *   - at Makati, which the user only views: a document of every kind it can hold, a transfer and a
 *     return leaving it, a price, a memo, and files; an invoice voided and trashed, a memo trashed;
 *   - for the user to act on at Valenzuela: a transfer from Mandaue in transit to it.
 *
 * Any other document of one place, which this does not know by name, is made from the samples at
 * Mandaue (or Cebu, when it is at branches only) and at Makati (`sampleBodyAt`).
 */

export interface PlacesWorld {
  place: { makati: number; quezon: number; cebu: number; valenzuela: number; mandaue: number };
  /** What the user holds: Makati to view, Valenzuela to operate. */
  access: PlaceAccess;
  item: { id: number; unit: number };
  customer: number;
  supplier: number;
  /** Per resource, a live record at places the user does not work at. */
  foreign: Record<string, number>;
  /** Per resource, a trashed record at places the user does not work at. */
  foreignTrashed: Record<string, number>;
  /** Per resource, a record the user views but may not change (at Makati, or leaving it). */
  viewOnly: Record<string, number>;
  /** Per resource, a trashed record the user views but may not restore nor delete. */
  viewOnlyTrashed: Record<string, number>;
  /** A file attached to each record of `foreign` and `viewOnly` that takes files, by `resource:id`. */
  files: Record<string, number>;
  /** Sources of documents made from another: a bill, invoice, transfer to receive or to return from, per side. */
  sources: {
    foreign: { bill: number; invoice: number; transferInTransit: number; transferReceived: number };
    viewOnly: { bill: number; invoice: number; transferInTransit: number; transferReceived: number };
    /** In transit from Mandaue to Valenzuela: the user receives it, then returns some. */
    toValenzuela: number;
  };
}

export const photo = png(8, 8);

/** The cells of each row of a CSV as the exports write it (quoted cells may hold commas, quotes and line breaks). */
export function csvRecords(csv: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const text = csv.replace(/^\uFEFF/, '');
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted && char === '"' && text[at + 1] === '"') {
      cell += '"';
      at++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\r' && text[at + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      at++;
    } else {
      cell += char;
    }
  }
  const [headings = [], ...records] = rows;
  return records.map((cells) => Object.fromEntries(headings.map((heading, index) => [heading, cells[index]])));
}

/**
 * The columns naming the one place a document of `definition` is at, when a body for it can be
 * derived from the samples: a document at a branch or a warehouse, not made from another (a
 * payment's or a memo's place is its source's; one that must have a source names its lines).
 */
export function onePlaceColumns(definition: ResourceDefinition): { branch?: string; warehouse?: string } | undefined {
  const { document, places } = definition;
  if (!document || document.twoLocations || !places || Object.keys(places.ends).length !== 1) return undefined;
  const end = places.ends[places.operates];
  if (!end || 'type' in end) return undefined;
  if (document.source && (document.lines === 'none' || definition.fields[document.source.field]?.required)) return undefined;
  return end;
}

/**
 * A body making a document of `definition` at the first of `places` it can be at: the sample's
 * (`sampleBody`), at that place instead of the sample's, made from no other document, its lines of
 * `item`. Undefined when the body cannot be derived (`onePlaceColumns`) or the document is at none of them.
 */
export async function sampleBodyAt(
  admin: Session,
  definition: ResourceDefinition,
  places: readonly Location[],
  item: { id: number; unit: number },
): Promise<Record<string, unknown> | undefined> {
  const columns = onePlaceColumns(definition);
  const place = columns && places.find((each) => columns[each.type]);
  if (!columns || !place) return undefined;
  const body = await sampleBody(admin, definition);
  for (const column of Object.values(columns)) delete body[column];
  if (definition.document?.source) delete body[definition.document.source.field];
  body[columns[place.type]!] = place.id;
  if (Array.isArray(body.lines))
    body.lines = body.lines.map((line: Record<string, unknown>) => ({ ...line, item_id: item.id, unit_of_measurement_id: item.unit }));
  return body;
}

/** The two demo branches the smaller place suites use, by key: Makati, where their user works, and Quezon City. */
export const BRANCH_NAMES = { makati: 'Makati', quezonCity: 'Quezon City' } as const;
export type TwoBranches<T> = Record<keyof typeof BRANCH_NAMES, T>;

/** `startDemo(kind)`, with the first business on its own, the two branches' ids and a sample quotation the admin made at each. */
export async function startTwoBranches(kind: DatabaseKind) {
  const demo = await startDemo(kind);
  type Quotation = { id: number; number: string };
  const quotationAt = async (branch_id: number): Promise<Quotation> => {
    const body = { ...(await sampleBody(demo.admin, getResource('quotations'))), branch_id, warehouse_id: null };
    return created(demo.admin, '/api/quotations', body);
  };
  const branches: TwoBranches<number> = {
    makati: await placeNamed(demo.admin, 'branch', BRANCH_NAMES.makati),
    quezonCity: await placeNamed(demo.admin, 'branch', BRANCH_NAMES.quezonCity),
  };
  const quotations: TwoBranches<Quotation> = {
    makati: await quotationAt(branches.makati),
    quezonCity: await quotationAt(branches.quezonCity),
  };
  return { ...demo, business: demo.businesses[0], branches, quotations };
}

/** Builds the world on the admin's session in the demo's first business. */
export async function buildPlacesWorld(admin: Session): Promise<PlacesWorld> {
  const today = todayInManila();
  const daysAgo = (days: number) => addDays(today, -days);
  const made = (resource: string, body: Record<string, unknown>) => created(admin, `/api/${resource}`, body);
  const place = {
    makati: await placeNamed(admin, 'branch', 'Makati'),
    quezon: await placeNamed(admin, 'branch', 'Quezon City'),
    cebu: await placeNamed(admin, 'branch', 'Cebu'),
    valenzuela: await placeNamed(admin, 'warehouse', 'Valenzuela Central'),
    mandaue: await placeNamed(admin, 'warehouse', 'Mandaue'),
  };
  const access: PlaceAccess = {
    all: null,
    grants: [
      { type: 'branch', id: place.makati, level: 'view' },
      { type: 'warehouse', id: place.valenzuela, level: 'operate' },
    ],
  };
  const customer = await contactOfType(admin, 'Customer');
  const supplier = await contactOfType(admin, 'Supplier');
  const unit = (await admin.send('GET', '/api/unit-of-measurements?order_by=asc&limit=1')).body.data[0].id;
  const item = { id: (await made('items', { sku: 'PLACES-1', name: 'Kept by place', unit_of_measurement_id: unit })).id as number, unit };
  const line = (quantity: number) => ({ item_id: item.id, unit_of_measurement_id: unit, quantity });
  const priced = (quantity: number) => ({ ...line(quantity), unit_price: 25 });
  const branch = (id: number) => ({ branch_id: id });
  const warehouse = (id: number) => ({ warehouse_id: id });
  const between = (fromType: PlaceType, from: number, toType: PlaceType, to: number) => ({
    from_location_type: fromType,
    from_location_id: from,
    to_location_type: toType,
    to_location_id: to,
  });

  // Stock of the item at every place, so documents that take goods out can.
  for (const at of [branch(place.makati), branch(place.quezon), branch(place.cebu), warehouse(place.valenzuela), warehouse(place.mandaue)])
    await made('stock-adjustments', { ...at, date: daysAgo(30), lines: [{ ...line(500), reason: 'opening_balance' }] });

  const foreign: Record<string, number> = {};
  const foreignTrashed: Record<string, number> = {};
  const viewOnly: Record<string, number> = {};
  const viewOnlyTrashed: Record<string, number> = {};

  /** The documents a place buys and sells with, in `into` (one record of each kind). */
  async function tradeAt(at: Record<string, number>, into: Record<string, number>) {
    const order = await made('purchase-orders', { ...at, contact_id: supplier, date: daysAgo(20), lines: [priced(10)] });
    into['purchase-orders'] = order.id;
    into['receive-orders'] = (
      await made('receive-orders', {
        ...at,
        contact_id: supplier,
        purchase_order_id: order.id,
        date: daysAgo(19),
        lines: order.lines.map((orderLine: { id: number }) => ({ source_line_id: orderLine.id, quantity: 4 })),
      })
    ).id;
    const bill = await made('bills', { ...at, contact_id: supplier, date: daysAgo(19), lines: [priced(10)] });
    into.bills = bill.id;
    into['bill-payments'] = (
      await made('bill-payments', { bill_id: bill.id, date: daysAgo(18), tenders: [{ method: 'cash', amount: 50 }] })
    ).id;
    into['debit-memoranda'] = (
      await made('debit-memoranda', { bill_id: bill.id, date: daysAgo(17), amount: 5, reason: 'Short-shipped' })
    ).id;
    into['purchase-returns'] = (
      await made('purchase-returns', {
        bill_id: bill.id,
        date: daysAgo(17),
        settlement: 'credit',
        lines: [{ source_line_id: bill.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'from_stock' }],
      })
    ).id;
    into.quotations = (await made('quotations', { ...at, contact_id: customer, date: daysAgo(16), lines: [priced(3)] })).id;
    const invoice = await made('invoices', { ...at, contact_id: customer, date: daysAgo(15), lines: [priced(3)] });
    into.invoices = invoice.id;
    into['invoice-payments'] = (
      await made('invoice-payments', { invoice_id: invoice.id, date: daysAgo(14), tenders: [{ method: 'cash', amount: 20 }] })
    ).id;
    into['credit-memoranda'] = (
      await made('credit-memoranda', { invoice_id: invoice.id, date: daysAgo(13), amount: 5, reason: 'Dented' })
    ).id;
    into['sales-returns'] = (
      await made('sales-returns', {
        invoice_id: invoice.id,
        date: daysAgo(13),
        settlement: 'credit',
        lines: [{ source_line_id: invoice.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'restock' }],
      })
    ).id;
    into['stock-adjustments'] = (
      await made('stock-adjustments', { ...at, date: daysAgo(12), lines: [{ ...line(-1), reason: 'damaged' }] })
    ).id;
    const count = await made('stock-counts', { ...at, date: daysAgo(1), scope: 'picked' });
    into['stock-counts'] = count.id;
    const entry = await admin.send('POST', `/api/stock-counts/${count.id}/entries`, { item_id: item.id, quantity: 7 });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    return { bill: bill.id as number, invoice: invoice.id as number };
  }

  /** Every other document of one place, from the samples, at the first of `places` it can be at (in `into`). */
  async function othersAt(places: readonly Location[], into: Record<string, number>) {
    for (const definition of registry.filter((each) => each.document && into[each.name] === undefined)) {
      const body = await sampleBodyAt(admin, definition, places, item);
      if (body) into[definition.name] = (await made(definition.name, body)).id;
    }
  }

  /**
   * Goods sent between two places: a transfer received in full and partly returned (its receipt and
   * return go in `into`), and another still in transit (in `into` too when `withTransit`).
   */
  async function moved(ends: ReturnType<typeof between>, into: Record<string, number>, withTransit: boolean) {
    const received = await made('stock-transfers', { ...ends, date: daysAgo(10), lines: [line(6)] });
    const receipt = await made('stock-receives', {
      stock_transfer_id: received.id,
      date: daysAgo(9),
      lines: [{ source_line_id: received.lines[0].id, quantity: 6 }],
    });
    const returned = await made('stock-returns', {
      stock_transfer_id: received.id,
      reason: 'Wrong variant',
      date: daysAgo(8),
      lines: [{ source_line_id: received.lines[0].id, quantity: 1 }],
    });
    const inTransit = await made('stock-transfers', { ...ends, date: daysAgo(2), lines: [line(2)] });
    into['stock-receives'] = receipt.id;
    into['stock-returns'] = returned.id;
    if (withTransit) into['stock-transfers'] = inTransit.id;
    return { transferInTransit: inTransit.id as number, transferReceived: received.id as number };
  }

  // Elsewhere: Mandaue trades, Quezon City sells, goods move between Mandaue and Cebu.
  const foreignTrade = await tradeAt(warehouse(place.mandaue), foreign);
  const quezonSale = await made('invoices', { ...branch(place.quezon), contact_id: customer, date: daysAgo(3), lines: [priced(2)] });
  await made('invoice-payments', {
    invoice_id: quezonSale.id,
    date: daysAgo(3),
    tenders: [{ method: 'gcash', amount: 30, reference: '9012345678904' }],
  });
  const voided = await made('invoices', { ...branch(place.quezon), contact_id: customer, date: daysAgo(3), lines: [priced(1)] });
  expect((await admin.send('PATCH', `/api/invoices/${voided.id}/void`)).status).toBe(200);
  expect((await admin.send('DELETE', `/api/invoices/${voided.id}`)).status).toBe(200);
  foreignTrashed.invoices = voided.id;
  foreign['stock-requests'] = (
    await made('stock-requests', { ...between('warehouse', place.mandaue, 'branch', place.cebu), date: daysAgo(11), lines: [line(6)] })
  ).id;
  const foreignMoves = await moved(between('warehouse', place.mandaue, 'branch', place.cebu), foreign, true);
  const service: number = (await admin.send('GET', '/api/services?order_by=asc&limit=1')).body.data[0].id;
  foreign['sale-item-prices'] = (
    await made('sale-item-prices', {
      item_id: item.id,
      branch_id: place.cebu,
      unit_of_measurement_id: unit,
      price: 30,
      effective_date: daysAgo(30),
    })
  ).id;
  const trashedPrice = await made('sale-item-prices', {
    item_id: item.id,
    branch_id: place.quezon,
    unit_of_measurement_id: unit,
    price: 31,
    effective_date: daysAgo(29),
  });
  expect((await admin.send('DELETE', `/api/sale-item-prices/${trashedPrice.id}`)).status).toBe(200);
  foreignTrashed['sale-item-prices'] = trashedPrice.id;
  foreign['service-prices'] = (
    await made('service-prices', { service_id: service, branch_id: place.quezon, price: 75, effective_date: daysAgo(30) })
  ).id;
  foreign.branches = place.cebu;
  foreign.warehouses = place.mandaue;
  foreign.stocks = (
    await admin.send('GET', `/api/stocks?item_id=${item.id}&location_type=warehouse&location_id=${place.mandaue}&is_strict=1`)
  ).body.data[0].id;

  // At Makati, which the user views only.
  const viewedTrade = await tradeAt(branch(place.makati), viewOnly);
  viewOnly['stock-requests'] = (
    await made('stock-requests', { ...between('warehouse', place.valenzuela, 'branch', place.makati), date: daysAgo(11), lines: [line(6)] })
  ).id;
  // Goods come to Makati from Valenzuela: their receipt and return are Makati's to act on, the transfer in transit
  // Valenzuela's (where the user operates). The transfer Makati would act on leaves it for Quezon City.
  const viewedMoves = await moved(between('warehouse', place.valenzuela, 'branch', place.makati), viewOnly, false);
  viewOnly['stock-transfers'] = (
    await made('stock-transfers', { ...between('branch', place.makati, 'branch', place.quezon), date: daysAgo(2), lines: [line(1)] })
  ).id;
  viewOnly['sale-item-prices'] = (
    await made('sale-item-prices', {
      item_id: item.id,
      branch_id: place.makati,
      unit_of_measurement_id: unit,
      price: 29,
      effective_date: daysAgo(30),
    })
  ).id;
  viewOnly['service-prices'] = (
    await made('service-prices', { service_id: service, branch_id: place.makati, price: 74, effective_date: daysAgo(30) })
  ).id;
  const voidedHere = await made('invoices', { ...branch(place.makati), contact_id: customer, date: daysAgo(3), lines: [priced(1)] });
  expect((await admin.send('PATCH', `/api/invoices/${voidedHere.id}/void`)).status).toBe(200);
  expect((await admin.send('DELETE', `/api/invoices/${voidedHere.id}`)).status).toBe(200);
  viewOnlyTrashed.invoices = voidedHere.id;
  viewOnly.branches = place.makati;
  viewOnly.stocks = (
    await admin.send('GET', `/api/stocks?item_id=${item.id}&location_type=branch&location_id=${place.makati}&is_strict=1`)
  ).body.data[0].id;

  const toValenzuela = (
    await made('stock-transfers', {
      ...between('warehouse', place.mandaue, 'warehouse', place.valenzuela),
      date: daysAgo(2),
      lines: [line(4)],
    })
  ).id;

  // Any other document of one place: at Mandaue (or Cebu, at branches only), and at Makati.
  await othersAt(
    [
      { type: 'warehouse', id: place.mandaue },
      { type: 'branch', id: place.cebu },
    ],
    foreign,
  );
  await othersAt([{ type: 'branch', id: place.makati }], viewOnly);

  // Memos about a document elsewhere and one at Makati, one more elsewhere in the trash.
  const memo = (resource: string, type: string, id: number, subject: string) =>
    made('document-memoranda', { document_type: type, document_id: id, date: daysAgo(1), subject, body: `About ${resource} ${id}` });
  foreign['document-memoranda'] = (await memo('invoices', 'invoice', quezonSale.id, 'Quezon City dispute')).id;
  const trashedMemo = await memo('purchase-orders', 'purchase-order', foreign['purchase-orders'], 'Mandaue supplier rebate');
  expect((await admin.send('DELETE', `/api/document-memoranda/${trashedMemo.id}`)).status).toBe(200);
  foreignTrashed['document-memoranda'] = trashedMemo.id;
  viewOnly['document-memoranda'] = (await memo('invoices', 'invoice', viewOnly.invoices, 'Makati dispute')).id;
  const trashedHere = await memo('invoices', 'invoice', viewOnly.invoices, 'Makati complaint withdrawn');
  expect((await admin.send('DELETE', `/api/document-memoranda/${trashedHere.id}`)).status).toBe(200);
  viewOnlyTrashed['document-memoranda'] = trashedHere.id;

  // A file on each of those records that takes files.
  const files: Record<string, number> = {};
  for (const [resource, id] of [...Object.entries(foreign), ...Object.entries(viewOnly)]) {
    if (!getResource(resource).attachments) continue;
    const answer = await sendFile(admin, `/api/${resource}/${id}/files`, 'receipt.png', photo);
    expect(answer.status, `a file on ${resource} ${id}: ${JSON.stringify(answer.body)}`).toBe(201);
    files[`${resource}:${id}`] = answer.body.data.id;
  }

  return {
    place,
    access,
    item,
    customer,
    supplier,
    foreign,
    foreignTrashed,
    viewOnly,
    viewOnlyTrashed,
    files,
    sources: {
      foreign: { ...foreignTrade, ...foreignMoves },
      viewOnly: { ...viewedTrade, ...viewedMoves },
      toValenzuela,
    },
  };
}
