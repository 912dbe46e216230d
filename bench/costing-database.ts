import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type pg from 'pg';
import { costed, NO_COST, share, type CostState } from '../src/domain/costing';
import { addDays } from '../src/server/overview/calendar';
import type { Db } from '../src/server/db/scope';
import { randomSequence } from '../tests/support/random-sequence';
import { ADMIN, BUSINESS_ID, itemNames } from './bench-database';
import { connected } from './postgres';

/**
 * The data of bench/costing.ts (issue #32) that is too much to post through the API in the time
 * the bench has, written by bulk SQL into a fresh business with the demo data, on SQLite or
 * PostgreSQL, as the app would have written it: each document with its lines and movements, and
 * the costing's ledger of cost (docs/costing.md) — an entry per document and item, in (date,
 * sequence) order, each costed from the one before by the app's own arithmetic
 * (src/domain/costing.ts `costed`), each line's cost stamped, each item's state after its last
 * entry in `item_costs` — so the server's start finds nothing left to cost, and the audit
 * (src/server/documents/audit.ts) nothing amiss. Ids are given here, after those already there:
 * movements in the order the app would have written them, which is what orders a day's entries.
 *
 * - `seedStockValue`: STOCK_VALUE_DATA.items items stocked at the demo's first three branches by
 *   three opening-balance adjustments (one per branch), then invoices of several lines each over
 *   the last days.
 * - `seedSales`: one item, already stocked and costed through the API, sold again and again, a
 *   one-line invoice each, over the last days.
 */

export const STOCK_VALUE_DATA = {
  items: 50_000,
  /** The demo's branches (Makati, Quezon City, Cebu): each item is stocked at each. */
  places: 3,
  openingDaysAgo: 60,
  invoices: 10_000,
  invoiceLines: 10,
  salesDays: 30,
};

export type StockValueData = typeof STOCK_VALUE_DATA;

/** The columns each table is written with; the others keep their defaults. */
const COLUMNS = {
  items: `id business_id sku barcode name unit_of_measurement_id vat_category sc_pwd_discount purchase_discounts sale_discounts
    created_at updated_at version`,
  stocks: `id business_id item_id location_type location_id quantity_on_hand quantity_in_transit quantity_quarantined created_at
    updated_at version`,
  stock_adjustments: 'id business_id number branch_id date notes status created_by created_at updated_at version',
  invoices: `id business_id number contact_id branch_id date status created_by subtotal exempt_sales total amount_paid balance
    due_date created_at updated_at version`,
  document_lines: `id business_id document_type document_id position item_id unit_of_measurement_id quantity base_quantity
    unit_price vat_category amount vat reason cost`,
  stock_movements: `id business_id stock_id item_id location_type location_id quantity in_transit quarantined document_type
    document_id document_number document_date moved_at`,
  cost_entries: `id business_id item_id date sequence document_type document_id quantity basis given_value value quantity_after
    value_after average_value average_quantity`,
  item_costs: 'id business_id item_id quantity value average_value average_quantity',
};

type Table = keyof typeof COLUMNS;
/** In the order they are written: each after those it refers to. */
const TABLES = Object.keys(COLUMNS) as Table[];
const columnsOf = (table: Table) => COLUMNS[table].split(/\s+/);

/** A document as its movements and entries name it. */
interface Document {
  type: 'stock-adjustment' | 'invoice';
  id: number;
  number: string;
  date: string;
  /** Its lines so far: the next one's position. */
  lines: number;
}

/** An item's stock row at a branch. */
interface Stock {
  id: number;
  itemId: number;
  branchId: number;
}

/**
 * Rows of the tables above as the app writes them, each table's ids going on from those already
 * there, and each item's cost state as its entries leave it.
 */
class LedgerRows {
  readonly rows = Object.fromEntries(TABLES.map((table) => [table, [] as unknown[][]])) as Record<Table, unknown[][]>;
  readonly states = new Map<number, CostState>();
  readonly #next: Record<Table, number>;

  constructor(
    next: Record<Table, number>,
    readonly unitId: number,
  ) {
    this.#next = { ...next };
  }

  nextId(table: Table): number {
    return this.#next[table]++;
  }

  document(type: Document['type'], number: string, date: string): Document {
    return { type, id: this.nextId(type === 'invoice' ? 'invoices' : 'stock_adjustments'), number, date, lines: 0 };
  }

  /**
   * A line of `document` moving `quantity` (thousandths, signed) of the stock's item, its movement
   * and its cost entry, costed from what the item held: an opening balance at its unit price by
   * its quantity, anything else at the average. Answers the line's amount.
   */
  move(document: Document, stock: Stock, quantity: number, unitPrice: number, reason: string | null): number {
    const movementId = this.nextId('stock_movements');
    const { type, id, number, date } = document;
    this.rows.stock_movements.push([
      movementId,
      BUSINESS_ID,
      stock.id,
      stock.itemId,
      'branch',
      stock.branchId,
      quantity,
      0,
      0,
      type,
      id,
      number,
      date,
      `${date}T02:00:00.000Z`,
    ]);
    const given = reason === 'opening_balance' ? share(unitPrice, quantity, 1000) : null;
    const { value, after } = costed(this.states.get(stock.itemId) ?? NO_COST, quantity, given);
    this.states.set(stock.itemId, after);
    this.rows.cost_entries.push([
      this.nextId('cost_entries'),
      BUSINESS_ID,
      stock.itemId,
      date,
      movementId,
      type,
      id,
      quantity,
      given === null ? 'average' : 'given',
      given,
      value,
      after.quantity,
      after.value,
      after.averageValue,
      after.averageQuantity,
    ]);
    const amount = Math.round((Math.abs(quantity) * unitPrice) / 1000);
    this.rows.document_lines.push([
      this.nextId('document_lines'),
      BUSINESS_ID,
      type,
      id,
      document.lines++,
      stock.itemId,
      this.unitId,
      Math.abs(quantity),
      Math.abs(quantity),
      unitPrice,
      'exempt',
      amount,
      0,
      reason,
      Math.abs(value),
    ]);
    return amount;
  }

  /** An invoice's header, once its lines are written: unpaid, of exempt goods, due in 30 days. */
  invoice(document: Document, customerId: number, branchId: number, adminId: number, total: number): void {
    const at = `${document.date}T02:00:00.000Z`;
    this.rows.invoices.push([
      document.id,
      BUSINESS_ID,
      document.number,
      customerId,
      branchId,
      document.date,
      'unpaid',
      adminId,
      total,
      total,
      total,
      0,
      total,
      addDays(document.date, 30),
      at,
      at,
      1,
    ]);
  }
}

/** What the seeds read of the demo business, through the app's own connection; and where each table's ids go on from. */
interface DemoContext {
  branchIds: number[];
  unitId: number;
  customerId: number;
  adminId: number;
  next: Record<Table, number>;
}

async function demoContext(db: Db): Promise<DemoContext> {
  const branches = await db
    .selectFrom('branches')
    .select('id')
    .where('business_id', '=', BUSINESS_ID)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  const unit = await db
    .selectFrom('unit_of_measurements')
    .select('id')
    .where('business_id', '=', BUSINESS_ID)
    .where('abbreviation', '=', 'pc')
    .executeTakeFirstOrThrow();
  const customer = await db
    .selectFrom('contacts')
    .innerJoin('contact_types', 'contact_types.id', 'contacts.contact_type_id')
    .select('contacts.id')
    .where('contacts.business_id', '=', BUSINESS_ID)
    .where('contact_types.name', '=', 'Customer')
    .orderBy('contacts.id')
    .executeTakeFirstOrThrow();
  const admin = await db.selectFrom('users').select('id').where('email', '=', ADMIN.email).executeTakeFirstOrThrow();
  const next = {} as Record<Table, number>;
  for (const table of TABLES) {
    const { rows } = await sql<{ id: number | string | null }>`select max(id) as id from ${sql.table(table)}`.execute(db);
    next[table] = Number(rows[0]?.id ?? 0) + 1;
  }
  return { branchIds: branches.map((row) => row.id), unitId: unit.id, customerId: customer.id, adminId: admin.id, next };
}

/** Rows into SQLite: one prepared statement per table, one transaction. */
function writeSqlite(path: string, rows: Record<Table, unknown[][]>): void {
  const raw = new SQLite(path);
  try {
    raw.pragma('busy_timeout = 5000');
    // Throwaway data: durability per transaction buys nothing here.
    raw.pragma('synchronous = OFF');
    raw.pragma('cache_size = -262144');
    raw.transaction(() => {
      for (const table of TABLES) {
        if (rows[table].length === 0) continue;
        const columns = columnsOf(table);
        const insert = raw.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
        for (const row of rows[table]) insert.run(...row);
      }
    })();
    // The server should read a compact main file, not replay a WAL as large as the tables.
    raw.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    raw.close();
  }
}

/** Rows per INSERT on PostgreSQL: each column travels as an array, which the server unnests into rows. */
const POSTGRES_BATCH = 20_000;

/** Rows into PostgreSQL in one transaction, by INSERT … SELECT FROM unnest(arrays); each table's identity set past them. */
async function writePostgres(url: string, rows: Record<Table, unknown[][]>): Promise<void> {
  await connected(url, async (client: pg.Client) => {
    await client.query('begin');
    for (const table of TABLES) {
      if (rows[table].length === 0) continue;
      const columns = columnsOf(table);
      const { rows: types } = await client.query<{ column_name: string; udt_name: string }>(
        'select column_name, udt_name from information_schema.columns where table_schema = current_schema() and table_name = $1',
        [table],
      );
      const typeOf = new Map(types.map((row) => [row.column_name, row.udt_name]));
      const arrays = columns.map((column, at) => `$${at + 1}::${typeOf.get(column)}[]`).join(', ');
      const statement = `insert into ${table} (${columns.join(', ')}) select * from unnest(${arrays})`;
      for (let from = 0; from < rows[table].length; from += POSTGRES_BATCH) {
        const batch = rows[table].slice(from, from + POSTGRES_BATCH);
        await client.query(
          statement,
          columns.map((_, at) => batch.map((row) => row[at])),
        );
      }
      await client.query(`select setval(pg_get_serial_sequence($1, 'id'), (select max(id) from ${table}))`, [table]);
    }
    await client.query('commit');
  });
}

function writeRows(url: string, rows: Record<Table, unknown[][]>): Promise<void> | void {
  return url.startsWith('file:') ? writeSqlite(url.slice('file:'.length), rows) : writePostgres(url, rows);
}

const rowCounts = (rows: Record<Table, unknown[][]>) =>
  Object.fromEntries(TABLES.filter((table) => rows[table].length > 0).map((table) => [table, rows[table].length]));

// ---- Stock value: many items at three places -------------------------------------------------

export interface StockValueSeed {
  /** Rows written, by table. */
  rows: Record<string, number>;
  /** How many of the seed's stock rows hold goods (more than nothing) at the end of each day asked for. */
  heldOn: Record<string, number>;
}

/** Item n's cost per piece in centavos at place p (₱7 to ₱307, a little dearer at each branch), and its sale price. */
const unitCost = (n: number, place: number) => 700 + ((n * 7919) % 30_000) + place * 50;
const salePrice = (n: number) => Math.round(unitCost(n, 0) * 1.4);

/** The stock-value rows, and how many stocks hold goods at the end of each of `days`. */
export function stockValueRows(context: DemoContext, today: string, days: readonly string[], data: StockValueData = STOCK_VALUE_DATA) {
  const now = new Date().toISOString();
  const random = randomSequence(32);
  const pick = (count: number) => Math.floor(random() * count);
  const places = context.branchIds.slice(0, data.places);
  if (places.length !== data.places) throw new Error(`The demo business has ${places.length} branches, the bench needs ${data.places}.`);
  const ledger = new LedgerRows(context.next, context.unitId);
  const { rows } = ledger;

  const stocks: Stock[] = [];
  const nextName = itemNames();
  for (let n = 0; n < data.items; n += 1) {
    const id = ledger.nextId('items');
    const code = String(n + 1).padStart(6, '0');
    rows.items.push([
      id,
      BUSINESS_ID,
      `CV-${code}`,
      `481${code.padStart(10, '0')}`,
      nextName(),
      context.unitId,
      'exempt',
      0,
      '[]',
      '[]',
      now,
      now,
      1,
    ]);
    for (const branchId of places) {
      const stock = { id: ledger.nextId('stocks'), itemId: id, branchId };
      stocks.push(stock);
      // The balance is written as what its movements come to, once they are all known (below).
      rows.stocks.push([stock.id, BUSINESS_ID, id, 'branch', branchId, 0, 0, 0, now, now, 1]);
    }
  }
  const onHand = new Float64Array(stocks.length);
  const stockOf = (n: number, place: number) => n * data.places + place;

  // The opening balances: one adjustment per branch, a line of every item, movements in item order.
  const opened = addDays(today, -data.openingDaysAgo);
  for (const [place, branchId] of places.entries()) {
    const adjustment = ledger.document('stock-adjustment', `SA-CV-${place + 1}`, opened);
    rows.stock_adjustments.push([
      adjustment.id,
      BUSINESS_ID,
      adjustment.number,
      branchId,
      opened,
      'Opening stock',
      'posted',
      context.adminId,
      now,
      now,
      1,
    ]);
    for (let n = 0; n < data.items; n += 1) {
      const quantity = (20 + ((n * 31 + place * 17) % 200)) * 1000;
      onHand[stockOf(n, place)] += quantity;
      ledger.move(adjustment, stocks[stockOf(n, place)], quantity, unitCost(n, place), 'opening_balance');
    }
  }

  // The sales, day by day: each invoice of distinct items its branch holds enough of.
  const heldOn: Record<string, number> = {};
  const countHeld = () => onHand.reduce((held, quantity) => held + (quantity > 0 ? 1 : 0), 0);
  const firstSale = addDays(today, -data.salesDays + 1);
  for (const day of days) if (day < firstSale) heldOn[day] = countHeld();
  let invoices = 0;
  for (let day = 0; day < data.salesDays; day += 1) {
    const date = addDays(firstSale, day);
    const count = Math.floor(((day + 1) * data.invoices) / data.salesDays) - Math.floor((day * data.invoices) / data.salesDays);
    for (let k = 0; k < count; k += 1) {
      const invoice = ledger.document('invoice', `I-CV-${String((invoices += 1)).padStart(6, '0')}`, date);
      const place = pick(data.places);
      const chosen = new Set<number>();
      let total = 0;
      while (chosen.size < data.invoiceLines) {
        const n = pick(data.items);
        const quantity = (1 + pick(3)) * 1000;
        if (chosen.has(n) || onHand[stockOf(n, place)] < quantity) continue;
        chosen.add(n);
        onHand[stockOf(n, place)] -= quantity;
        total += ledger.move(invoice, stocks[stockOf(n, place)], -quantity, salePrice(n), null);
      }
      ledger.invoice(invoice, context.customerId, places[place], context.adminId, total);
    }
    if (days.includes(date)) heldOn[date] = countHeld();
  }

  rows.stocks.forEach((row, index) => (row[5] = onHand[index]));
  for (const [itemId, state] of ledger.states)
    rows.item_costs.push([
      ledger.nextId('item_costs'),
      BUSINESS_ID,
      itemId,
      state.quantity,
      state.value,
      state.averageValue,
      state.averageQuantity,
    ]);
  return { rows, heldOn };
}

/**
 * Writes the stock-value data into the fresh demo database at `url` (the app `db` is open on it,
 * idle). Answers what was written and how many of its stocks hold goods on `days`.
 */
export async function seedStockValue(
  db: Db,
  url: string,
  today: string,
  days: readonly string[],
  data: StockValueData = STOCK_VALUE_DATA,
): Promise<StockValueSeed> {
  const { rows, heldOn } = stockValueRows(await demoContext(db), today, days, data);
  await writeRows(url, rows);
  return { rows: rowCounts(rows), heldOn };
}

// ---- Sales: one item sold again and again ----------------------------------------------------

export interface SalesSeed {
  itemId: number;
  branchId: number;
  customerId: number;
  /** One per sale, each of `quantity`, dated over the `days` days up to `today`, at `unitPrice` centavos per base unit. */
  sales: number;
  days: number;
  quantity: number;
  unitPrice: number;
}

/**
 * `sales` one-line invoices of the item at the branch, in date order, each costed at the average
 * from the item's state (its cost row, as the API left it); then its balance and cost row set to
 * what they leave. Answers the rows written, by table.
 */
export async function seedSales(db: Db, url: string, today: string, seed: SalesSeed): Promise<Record<string, number>> {
  const context = await demoContext(db);
  const stock = await db
    .selectFrom('stocks')
    .select('id')
    .where('business_id', '=', BUSINESS_ID)
    .where('item_id', '=', seed.itemId)
    .where('location_type', '=', 'branch')
    .where('location_id', '=', seed.branchId)
    .executeTakeFirstOrThrow();
  const state = await db
    .selectFrom('item_costs')
    .select(['quantity', 'value', 'average_value', 'average_quantity'])
    .where('business_id', '=', BUSINESS_ID)
    .where('item_id', '=', seed.itemId)
    .executeTakeFirstOrThrow();
  const ledger = new LedgerRows(
    context.next,
    (await db.selectFrom('items').select('unit_of_measurement_id').where('id', '=', seed.itemId).executeTakeFirstOrThrow())
      .unit_of_measurement_id,
  );
  ledger.states.set(seed.itemId, {
    quantity: Number(state.quantity),
    value: Number(state.value),
    averageValue: Number(state.average_value),
    averageQuantity: Number(state.average_quantity),
  });
  const at = { id: stock.id, itemId: seed.itemId, branchId: seed.branchId };
  for (let n = 0; n < seed.sales; n += 1) {
    const date = addDays(today, Math.floor((n * seed.days) / seed.sales) - seed.days + 1);
    const invoice = ledger.document('invoice', `I-WALK-${String(n + 1).padStart(6, '0')}`, date);
    const total = ledger.move(invoice, at, -seed.quantity, seed.unitPrice, null);
    ledger.invoice(invoice, seed.customerId, seed.branchId, context.adminId, total);
  }
  await writeRows(url, ledger.rows);
  const after = ledger.states.get(seed.itemId)!;
  await db
    .updateTable('stocks')
    .set({
      quantity_on_hand: sql`quantity_on_hand - ${seed.sales * seed.quantity}`,
      version: sql`version + 1`,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', stock.id)
    .execute();
  await db
    .updateTable('item_costs')
    .set({ quantity: after.quantity, value: after.value, average_value: after.averageValue, average_quantity: after.averageQuantity })
    .where('business_id', '=', BUSINESS_ID)
    .where('item_id', '=', seed.itemId)
    .execute();
  return rowCounts(ledger.rows);
}
