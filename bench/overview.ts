import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { todayInManila } from '../src/domain/documents';
import { getResource } from '../src/domain/resources/registry';
import { buildApp } from '../src/server/app';
import type { AppConfig } from '../src/server/config';
import { addDays } from '../src/server/overview/calendar';
import { recount } from '../src/server/resources/resource-counts';
import { seed } from '../src/server/seed';
import { ADMIN, BUSINESS_ID, DATA_DIR, itemNames } from './bench-database';
import { randomSequence } from '../tests/support/random-sequence';

/**
 * The overview benchmark (issue #6): a business with a million stock movements and a hundred
 * thousand invoices, written with bulk SQL rather than through the API, then each overview card
 * timed server-side with `app.inject` (routing, auth, the queries and the JSON, no network), one
 * request after another, and the whole overview as the screen asks for it: all cards at once.
 *
 * Two years of business, day by day: receive orders of 20 lines into any of 5 locations, invoices
 * of 3 lines out of the branches, bills of 3 lines. Stock balances are the sums of the movements
 * (a voided invoice has its goods out and back, as voiding does). Invoices and bills carry their
 * paid amounts and balances directly: no payment documents are written.
 */

const OVERVIEW_DATABASE_PATH = `${DATA_DIR}overview.sqlite`;

export const OVERVIEW_DATA = {
  days: 730,
  items: 10_000,
  invoices: 100_000,
  invoiceLines: 3,
  bills: 20_000,
  billLines: 3,
  receiveOrders: 35_000,
  receiveLines: 20,
  warehouses: 2,
  branches: 3,
  customers: 500,
  suppliers: 50,
};

const CONFIG: AppConfig = {
  database: { url: `file:${OVERVIEW_DATABASE_PATH}` },
  loginAttemptsPerMinute: 1000,
  secureCookies: false,
  logger: false,
};

export const OVERVIEW_SAMPLES = { warmUp: 20, perCard: 200, wholeOverview: 100 };

export interface OverviewSeed {
  totalMs: number;
  movements: number;
  invoices: number;
  invoiceLines: number;
  bills: number;
  stocks: number;
  lowStocks: number;
}

export interface CardFigures {
  name: string;
  request: string;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The answer's size, to show the work was real. */
  bytes: number;
}

export interface OverviewFigures {
  date: Date;
  seed: OverviewSeed;
  cards: CardFigures[];
  whole: CardFigures;
  /** Informative: the longest periods a card takes. */
  longest: CardFigures[];
  /** The 1-minute load average at the end: other work on a shared machine slows every figure. */
  loadAverage: number;
}

/** Spreads `total` over the days: how many fall on `day`. */
const shareOf = (total: number, day: number, days: number) => Math.floor(((day + 1) * total) / days) - Math.floor((day * total) / days);

/** An item's sale price per piece in centavos (₱10 to ₱500), the same on every run. */
const salePrice = (item: number) => 1_000 + ((item * 7919) % 49_000);

function insertOverviewData(raw: SQLite.Database, today: string) {
  const data = OVERVIEW_DATA;
  const random = randomSequence(6);
  const pick = (count: number) => Math.floor(random() * count);
  const stamp = '2024-01-01T00:00:00.000Z';
  const run = (statement: string, ...values: unknown[]) => Number(raw.prepare(statement).run(...values).lastInsertRowid);
  const contactTypeId = (name: string) =>
    (raw.prepare('select id from contact_types where business_id = ? and name = ?').get(BUSINESS_ID, name) as { id: number }).id;

  const record = `created_at, updated_at, version, business_id`;
  const piece = run(
    `insert into unit_of_measurements (name, abbreviation, ${record}) values ('Piece', 'pc', ?, ?, 1, ?)`,
    stamp,
    stamp,
    BUSINESS_ID,
  );
  const box = run(
    `insert into unit_of_measurements (name, abbreviation, ${record}) values ('Box', 'box', ?, ?, 1, ?)`,
    stamp,
    stamp,
    BUSINESS_ID,
  );
  run(
    `insert into conversions (item_id, from_unit_id, to_unit_id, factor, ${record}) values (null, ?, ?, 12000000, ?, ?, 1, ?)`,
    box,
    piece,
    stamp,
    stamp,
    BUSINESS_ID,
  );
  const location = (table: string, code: string, name: string) =>
    run(`insert into ${table} (code, name, ${record}) values (?, ?, ?, ?, 1, ?)`, code, name, stamp, stamp, BUSINESS_ID);
  const locations: { type: 'warehouse' | 'branch'; id: number }[] = [];
  for (let n = 1; n <= data.warehouses; n += 1)
    locations.push({ type: 'warehouse', id: location('warehouses', `WH-${n}`, `Warehouse ${n}`) });
  for (let n = 1; n <= data.branches; n += 1) locations.push({ type: 'branch', id: location('branches', `BR-${n}`, `Branch ${n}`) });
  const branches = locations.filter((place) => place.type === 'branch');

  const contact = raw.prepare(`insert into contacts (contact_type_id, name, ${record}) values (?, ?, ?, ?, 1, ?)`);
  const contacts = (type: string, count: number) =>
    Array.from({ length: count }, (_, n) =>
      Number(contact.run(contactTypeId(type), `${type} ${n + 1}`, stamp, stamp, BUSINESS_ID).lastInsertRowid),
    );

  const customers = contacts('Customer', data.customers);
  const suppliers = contacts('Supplier', data.suppliers);
  const itemIds: number[] = [];
  const stockIds: number[] = [];
  raw.transaction(() => {
    const item = raw.prepare(
      `insert into items (sku, name, unit_of_measurement_id, vat_category, purchase_discounts, sale_discounts, ${record})
       values (?, ?, ?, 'exempt', '[]', '[]', ?, ?, 1, ?)`,
    );
    const price = raw.prepare(
      `insert into purchase_item_prices (item_id, contact_id, unit_of_measurement_id, price, effective_date, ${record})
       values (?, null, ?, ?, ?, ?, ?, 1, ?)`,
    );
    const stock = raw.prepare(
      `insert into stocks (item_id, location_type, location_id, quantity_on_hand, quantity_in_transit, ${record}) values (?, ?, ?, 0, 0, ?, ?, 1, ?)`,
    );
    const nextName = itemNames();
    for (let n = 0; n < data.items; n += 1) {
      const id = Number(item.run(`OV-${String(n).padStart(6, '0')}`, nextName(), piece, stamp, stamp, BUSINESS_ID).lastInsertRowid);
      itemIds.push(id);
      // Cost about 70 % of the sale price; one item in ten is bought by the box of 12.
      const cost = Math.round(salePrice(n) * 0.7);
      const [unit, factor] = n % 10 === 0 ? [box, 12] : [piece, 1];
      price.run(id, unit, cost * factor, addDays(today, -800), stamp, stamp, BUSINESS_ID);
      price.run(id, unit, Math.round(cost * 1.05) * factor, addDays(today, -100), stamp, stamp, BUSINESS_ID);
      for (const place of locations) stockIds.push(Number(stock.run(id, place.type, place.id, stamp, stamp, BUSINESS_ID).lastInsertRowid));
    }
  })();

  const onHand = new Float64Array(stockIds.length);
  const stockIndex = (item: number, place: number) => item * locations.length + place;
  const header = `number, contact_id, branch_id, warehouse_id, date, status, subtotal, discount_total, vat_total, total`;
  const receiveOrder = raw.prepare(
    `insert into receive_orders (${header}, ${record}) values (?, ?, ?, ?, ?, 'received', ?, 0, 0, ?, ?, ?, 1, ?)`,
  );
  const invoice = raw.prepare(
    `insert into invoices (${header}, due_date, amount_paid, amount_adjusted, balance, ${record})
     values (?, ?, ?, null, ?, ?, ?, 0, 0, ?, ?, ?, 0, ?, ?, ?, 1, ?)`,
  );
  const bill = raw.prepare(
    `insert into bills (${header}, due_date, amount_paid, amount_adjusted, balance, ${record})
     values (?, ?, null, ?, ?, ?, ?, 0, 0, ?, ?, ?, 0, ?, ?, ?, 1, ?)`,
  );
  const line = raw.prepare(
    `insert into document_lines (business_id, document_type, document_id, position, item_id, unit_of_measurement_id, quantity,
       base_quantity, unit_price, discount_percent, vat_category, amount, vat, source_line_id, quantity_done)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'exempt', ?, 0, null, 0)`,
  );
  const movement = raw.prepare(
    `insert into stock_movements (business_id, stock_id, item_id, location_type, location_id, quantity, in_transit, document_type,
       document_id, document_number, document_date, moved_at)
     values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
  );
  const move = (
    item: number,
    place: number,
    quantity: number,
    type: string,
    documentId: number,
    number: string,
    date: string,
    at: string,
  ) => {
    const index = stockIndex(item, place);
    onHand[index] += quantity;
    const where = locations[place];
    movement.run(BUSINESS_ID, stockIds[index], itemIds[item], where.type, where.id, quantity, type, documentId, number, date, at);
  };
  /** An item with `quantity` on hand at `place`, as the app never sells below zero. */
  const inStock = (place: number, quantity: number) => {
    let item = pick(data.items);
    while (onHand[stockIndex(item, place)] < quantity) item = pick(data.items);
    return { item, quantity };
  };
  /** Paid in full, in part, not at all, or voided: most of what is older than a month is paid. */
  const settle = (total: number, ageDays: number): { status: string; paid: number } => {
    const roll = random();
    if (roll < 0.03) return { status: 'void', paid: 0 };
    if (roll < (ageDays > 30 ? 0.9 : 0.4)) return { status: 'paid', paid: total };
    if (roll < (ageDays > 30 ? 0.95 : 0.6)) return { status: 'partially_paid', paid: Math.round(total / 2) };
    return { status: 'unpaid', paid: 0 };
  };

  let sequence = 0;
  for (let day = 0; day < data.days; day += 1) {
    const date = addDays(today, day - data.days + 1);
    const ageDays = data.days - 1 - day;
    const at = (n: number) =>
      `${date}T${String(Math.floor(n / 3600) % 24).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`;
    raw.transaction(() => {
      let second = 0;
      for (let n = shareOf(data.receiveOrders, day, data.days); n > 0; n -= 1) {
        const place = pick(locations.length);
        const where = locations[place];
        const number = `RO-${date}-${(sequence += 1)}`;
        const lines = Array.from({ length: data.receiveLines }, () => ({ item: pick(data.items), quantity: (20 + pick(180)) * 1000 }));
        const total = lines.reduce((sum, row) => sum + Math.round((row.quantity * salePrice(row.item) * 0.7) / 1000), 0);
        const stampAt = at((second += 7));
        const id = Number(
          receiveOrder.run(
            number,
            suppliers[pick(suppliers.length)],
            where.type === 'branch' ? where.id : null,
            where.type === 'warehouse' ? where.id : null,
            date,
            total,
            total,
            stampAt,
            stampAt,
            BUSINESS_ID,
          ).lastInsertRowid,
        );
        for (const [position, row] of lines.entries()) {
          const unitPrice = Math.round(salePrice(row.item) * 0.7);
          const amount = Math.round((row.quantity * unitPrice) / 1000);
          line.run(BUSINESS_ID, 'receive-order', id, position, itemIds[row.item], piece, row.quantity, row.quantity, unitPrice, amount);
          move(row.item, place, row.quantity, 'receive-order', id, number, date, stampAt);
        }
      }
      for (let n = shareOf(data.invoices, day, data.days); n > 0; n -= 1) {
        const place = data.warehouses + pick(branches.length);
        const number = `I-${date}-${(sequence += 1)}`;
        const lines = Array.from({ length: data.invoiceLines }, () => inStock(place, (1 + pick(5)) * 1000));
        const total = lines.reduce((sum, row) => sum + Math.round((row.quantity * salePrice(row.item)) / 1000), 0);
        const { status, paid } = settle(total, ageDays);
        const stampAt = at((second += 5));
        const id = Number(
          invoice.run(
            number,
            customers[pick(customers.length)],
            locations[place].id,
            date,
            status,
            total,
            total,
            addDays(date, 30),
            paid,
            status === 'void' ? total : total - paid,
            stampAt,
            stampAt,
            BUSINESS_ID,
          ).lastInsertRowid,
        );
        for (const [position, row] of lines.entries()) {
          const amount = Math.round((row.quantity * salePrice(row.item)) / 1000);
          line.run(BUSINESS_ID, 'invoice', id, position, itemIds[row.item], piece, row.quantity, row.quantity, salePrice(row.item), amount);
          move(row.item, place, -row.quantity, 'invoice', id, number, date, stampAt);
          if (status === 'void') move(row.item, place, row.quantity, 'invoice', id, number, date, stampAt);
        }
      }
      for (let n = shareOf(data.bills, day, data.days); n > 0; n -= 1) {
        const number = `B-${date}-${(sequence += 1)}`;
        const lines = Array.from({ length: data.billLines }, () => ({ item: pick(data.items), quantity: (10 + pick(90)) * 1000 }));
        const total = lines.reduce((sum, row) => sum + Math.round((row.quantity * salePrice(row.item) * 0.7) / 1000), 0);
        const { status, paid } = settle(total, ageDays);
        const stampAt = at((second += 11));
        const id = Number(
          bill.run(
            number,
            suppliers[pick(suppliers.length)],
            locations[pick(data.warehouses)].id,
            date,
            status,
            total,
            total,
            addDays(date, 45),
            paid,
            status === 'void' ? total : total - paid,
            stampAt,
            stampAt,
            BUSINESS_ID,
          ).lastInsertRowid,
        );
        for (const [position, row] of lines.entries()) {
          const unitPrice = Math.round(salePrice(row.item) * 0.7);
          line.run(
            BUSINESS_ID,
            'bill',
            id,
            position,
            itemIds[row.item],
            piece,
            row.quantity,
            row.quantity,
            unitPrice,
            Math.round((row.quantity * unitPrice) / 1000),
          );
        }
      }
    })();
  }

  // Balances from the movements; reorder levels so that about one stock in forty is low: one
  // item in twenty is ordered at 110 % of its average balance, the rest at 10 %.
  raw.transaction(() => {
    const balance = raw.prepare('update stocks set quantity_on_hand = ? where id = ?');
    const reorder = raw.prepare('update items set reorder_level = ? where id = ?');
    for (let index = 0; index < stockIds.length; index += 1) balance.run(onHand[index], stockIds[index]);
    for (let item = 0; item < data.items; item += 1) {
      let sum = 0;
      for (let place = 0; place < locations.length; place += 1) sum += onHand[stockIndex(item, place)];
      const average = sum / locations.length;
      reorder.run(Math.round((average * (item % 20 === 0 ? 1.1 : 0.1)) / 1000) * 1000, itemIds[item]);
    }
  })();
}

export async function createOverviewDatabase(): Promise<OverviewSeed> {
  const started = performance.now();
  mkdirSync(DATA_DIR, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${OVERVIEW_DATABASE_PATH}${suffix}`, { force: true });
  const app = await buildApp(CONFIG);
  const raw = new SQLite(OVERVIEW_DATABASE_PATH);
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    // Throwaway data: durability per transaction buys nothing here.
    raw.pragma('synchronous = OFF');
    raw.pragma('cache_size = -262144');
    insertOverviewData(raw, todayInManila());
    for (const resource of ['items', 'contacts', 'warehouses', 'branches', 'unit-of-measurements', 'conversions', 'purchase-item-prices']) {
      await recount(app.db as never, getResource(resource), BUSINESS_ID);
    }
    for (const resource of ['stocks', 'receive-orders', 'invoices', 'bills'])
      await recount(app.db as never, getResource(resource), BUSINESS_ID);
    raw.pragma('wal_checkpoint(TRUNCATE)');
    const count = (sql: string) => (raw.prepare(sql).get() as { count: number }).count;
    return {
      totalMs: performance.now() - started,
      movements: count('select count(*) as count from stock_movements'),
      invoices: count('select count(*) as count from invoices'),
      invoiceLines: count(`select count(*) as count from document_lines where document_type = 'invoice'`),
      bills: count('select count(*) as count from bills'),
      stocks: count('select count(*) as count from stocks'),
      lowStocks: count(
        'select count(*) as count from stocks join items on items.id = stocks.item_id where stocks.quantity_on_hand <= items.reorder_level',
      ),
    };
  } finally {
    raw.close();
    await app.close();
  }
}

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Times `request` `samples` times in a row after a warm-up; fails on any answer but 200. */
async function timed(name: string, request: string, samples: number, send: () => Promise<number>): Promise<CardFigures> {
  for (let n = 0; n < OVERVIEW_SAMPLES.warmUp; n += 1) await send();
  const times: number[] = [];
  let bytes = 0;
  for (let n = 0; n < samples; n += 1) {
    const started = performance.now();
    bytes = await send();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { name, request, p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99)), maxMs: round(times.at(-1)!), bytes };
}

/** The seeded admin's session cookie and business, for requests through `app.inject`. */
export async function signedIn(app: FastifyInstance) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ADMIN.email, password: ADMIN.password },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  if (response.statusCode !== 200) throw new Error(`Sign-in failed: ${response.statusCode} ${response.body}`);
  return { cookie: String(response.headers['set-cookie']).split(';')[0], 'business-id': String(BUSINESS_ID) };
}

/** The cards as the overview screen asks for them on opening. */
const OVERVIEW_CARDS: { name: string; path: string }[] = [
  { name: 'sales and purchases, 30 days', path: '/api/overview/sales-purchases' },
  { name: 'receivables', path: '/api/overview/receivables' },
  { name: 'payables', path: '/api/overview/payables' },
  { name: 'stock value', path: '/api/overview/stock-value' },
  { name: 'low stock', path: '/api/overview/low-stock' },
  { name: 'top items, 30 days', path: '/api/overview/top-items' },
  { name: 'recent documents', path: '/api/overview/recent-documents' },
];

export async function runOverviewBench(seedReport: OverviewSeed): Promise<OverviewFigures> {
  const app = await buildApp(CONFIG);
  try {
    const headers = await signedIn(app);
    const send = async (path: string) => {
      const response = await app.inject({ method: 'GET', url: path, headers });
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      return response.body.length;
    };
    const cards: CardFigures[] = [];
    for (const card of OVERVIEW_CARDS) {
      cards.push(await timed(card.name, `GET ${card.path}`, OVERVIEW_SAMPLES.perCard, () => send(card.path)));
    }
    const whole = await timed(
      'whole overview (all cards at once)',
      `${OVERVIEW_CARDS.length} GETs`,
      OVERVIEW_SAMPLES.wholeOverview,
      async () => (await Promise.all(OVERVIEW_CARDS.map((card) => send(card.path)))).reduce((sum, bytes) => sum + bytes, 0),
    );
    const today = todayInManila();
    const yearAgo = addDays(today, -365);
    const longest: CardFigures[] = [];
    for (const [name, path] of [
      ['sales and purchases, 366 days by day', `/api/overview/sales-purchases?from=${yearAgo}&to=${today}`],
      ['sales and purchases, 2 years by month', `/api/overview/sales-purchases?from=${addDays(today, -729)}&to=${today}&interval=month`],
      ['top items, 366 days', `/api/overview/top-items?from=${yearAgo}&to=${today}`],
    ]) {
      longest.push(await timed(name, `GET ${path}`, OVERVIEW_SAMPLES.wholeOverview / 2, () => send(path)));
    }
    return { date: new Date(), seed: seedReport, cards, whole, longest, loadAverage: loadavg()[0] };
  } finally {
    await app.close();
  }
}
