import { mkdirSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { todayInManila } from '../src/domain/documents';
import { getResource } from '../src/domain/resources/registry';
import { buildApp } from '../src/server/app';
import type { AppConfig } from '../src/server/config';
import { recount } from '../src/server/resources/resource-counts';
import { seed } from '../src/server/seed';
import { ADMIN, BUSINESS_ID, DATA_DIR, itemNames, itemValues } from './bench-database';

/**
 * The working-set benchmark's database (issue #28): the demo business grown to a shop of
 * WORKING_SET_DATA.items items, each priced and stocked at each of its three branches, with a few
 * hundred customers and suppliers and some open quotations and purchase orders — what a device
 * downloads and then keeps current. Written with prepared statements in a few transactions, as
 * bench-database.ts writes its items; the change log the triggers filled meanwhile is emptied at
 * the end, so the log starts where a running shop's would after its devices downloaded.
 *
 * Two users download it: the admin (every place, every resource) and the demo's Branch Cashier
 * (seed.ts `DEMO_ROLES`), kept to the first branch: the items, that branch's prices and stock.
 */

export const WORKING_SET_DATABASE_PATH = `${DATA_DIR}working-set.sqlite`;

export const WORKING_SET_DATA = {
  items: 50_000,
  /** The demo's three branches (Makati, Quezon City, Cebu): each item has a sale price and a stock row at each. */
  branches: 3,
  customers: 300,
  suppliers: 40,
  /** Open documents, each of a few lines: what the floor is still working on. */
  quotations: 200,
  quotationLines: 3,
  purchaseOrders: 60,
  purchaseOrderLines: 8,
};

/** The demo's Branch Cashier: operates at the first branch only, sees the catalogue, its prices and stock. */
export const CASHIER = { email: 'cashier@example.com', password: ADMIN.password };

export const WORKING_SET_CONFIG: AppConfig = {
  database: { url: `file:${WORKING_SET_DATABASE_PATH}` },
  loginAttemptsPerMinute: 1000,
  secureCookies: false,
  logger: false,
};

/** The brands itemNames() draws its names from: an item's brand is the one its name starts with. */
const BRANDS = [
  'Century Tuna',
  'Lucky Me!',
  'San Miguel',
  'Del Monte',
  'Nestlé',
  'Alaska',
  'Datu Puti',
  'Silver Swan',
  'Purefoods',
  'CDO',
  'Argentina',
  'Ligo',
  'Mega',
  'Magnolia',
  'Selecta',
  'Jack n Jill',
  'Rebisco',
  'Oishi',
  'Monde',
  'Kopiko',
  'Great Taste',
  'UFC',
  "Mama Sita's",
  'Knorr',
];

/** Item n's sale price per piece in centavos (₱10 to ₱500) at branch `place` (0, 1, 2): the same on every run. */
export const salePrice = (n: number, place: number) => 1_000 + ((n * 7919) % 49_000) + place * 100;

export interface WorkingSetSeed {
  totalMs: number;
  /** What was written beside the demo data. */
  rows: { items: number; prices: number; stocks: number; contacts: number; openDocuments: number };
  /** The branches the items are priced and stocked at, in id order; the cashier works at the first. */
  branchIds: number[];
  /** The ids of the bench's items, lowest first. */
  firstItemId: number;
  lastItemId: number;
}

export async function createWorkingSetDatabase(): Promise<WorkingSetSeed> {
  const started = performance.now();
  mkdirSync(DATA_DIR, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${WORKING_SET_DATABASE_PATH}${suffix}`, { force: true });

  const app = await buildApp(WORKING_SET_CONFIG);
  const raw = new SQLite(WORKING_SET_DATABASE_PATH);
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
    // Throwaway data: durability per transaction buys nothing here.
    raw.pragma('synchronous = OFF');
    raw.pragma('cache_size = -262144');
    const written = insertWorkingSet(raw);
    // The log starts empty: what devices download is in the pages, and only later changes are deltas.
    raw.prepare('delete from change_log').run();
    for (const resource of [
      'brands',
      'contacts',
      'items',
      'sale-item-prices',
      'stocks',
      'stock-adjustments',
      'quotations',
      'purchase-orders',
    ]) {
      await recount(app.db, getResource(resource), BUSINESS_ID);
    }
    // The server should read a compact main file, not replay a WAL as large as the tables.
    raw.pragma('wal_checkpoint(TRUNCATE)');
    return { totalMs: performance.now() - started, ...written };
  } finally {
    raw.close();
    await app.close();
  }
}

function insertWorkingSet(raw: SQLite.Database): Omit<WorkingSetSeed, 'totalMs'> {
  const data = WORKING_SET_DATA;
  const now = new Date().toISOString();
  const today = todayInManila();
  const ids = (query: string, ...values: unknown[]) => (raw.prepare(query).all(...values) as { id: number }[]).map((row) => row.id);
  const idOf = (query: string, ...values: unknown[]) => {
    const row = raw.prepare(query).get(...values) as { id: number } | undefined;
    if (!row) throw new Error(`The demo data lacks what the bench needs: ${query} ${values.join(', ')}`);
    return row.id;
  };
  const stamps = 'created_at, updated_at, version, business_id';

  const branchIds = ids('select id from branches where business_id = ? and deleted_at is null order by id', BUSINESS_ID).slice(
    0,
    data.branches,
  );
  if (branchIds.length !== data.branches)
    throw new Error(`The demo business has ${branchIds.length} branches, the bench needs ${data.branches}.`);
  const piece = idOf("select id from unit_of_measurements where business_id = ? and abbreviation = 'pc'", BUSINESS_ID);
  const classificationIds = ids('select id from item_classifications where business_id = ? order by id', BUSINESS_ID);
  const typeIds = ids('select id from item_types where business_id = ? order by id', BUSINESS_ID);
  const contactType = (name: string) => idOf('select id from contact_types where business_id = ? and name = ?', BUSINESS_ID, name);
  const adminId = idOf('select id from users where email = ?', ADMIN.email);

  const brandIds = new Map<string, number>();
  const findBrand = raw.prepare('select id from brands where business_id = ? and name = ?');
  const addBrand = raw.prepare(`insert into brands (name, description, ${stamps}) values (?, null, ?, ?, 1, ?)`);
  for (const name of BRANDS) {
    const found = findBrand.get(BUSINESS_ID, name) as { id: number } | undefined;
    brandIds.set(name, found?.id ?? Number(addBrand.run(name, now, now, BUSINESS_ID).lastInsertRowid));
  }
  const brandOf = (itemName: string) => BRANDS.find((brand) => itemName.startsWith(`${brand} `));

  const contact = raw.prepare(
    `insert into contacts (contact_type_id, name, company_name, mobile, payment_terms_days, ${stamps}) values (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  );
  const customers: number[] = [];
  const suppliers: number[] = [];
  raw.transaction(() => {
    for (let n = 1; n <= data.customers; n += 1) {
      const mobile = `0917 ${String(100 + (n % 900)).padStart(3, '0')} ${String(n).padStart(4, '0')}`;
      customers.push(Number(contact.run(contactType('Customer'), `Suki ${n}`, null, mobile, 15, now, now, BUSINESS_ID).lastInsertRowid));
    }
    for (let n = 1; n <= data.suppliers; n += 1) {
      const company = `Supplier ${n} Trading Corp.`;
      suppliers.push(Number(contact.run(contactType('Supplier'), `Agent ${n}`, company, null, 30, now, now, BUSINESS_ID).lastInsertRowid));
    }
  })();

  const item = raw.prepare(`
    insert into items (sku, barcode, name, description, brand_id, item_type_id, item_classification_id, unit_of_measurement_id,
      measuring_mass_id, mass_value, reorder_level, vat_category, sc_pwd_discount, purchase_discounts, sale_discounts, ${stamps})
    values (?, ?, ?, null, ?, ?, ?, ?, null, null, ?, ?, ?, '[]', '[]', ?, ?, 1, ?)`);
  const price = raw.prepare(
    `insert into sale_item_prices (item_id, branch_id, unit_of_measurement_id, price, effective_date, ${stamps}) values (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  );
  const stock = raw.prepare(
    `insert into stocks (item_id, location_type, location_id, quantity_on_hand, quantity_in_transit, ${stamps})
     values (?, 'branch', ?, ?, 0, ?, ?, 1, ?)`,
  );
  const adjustment = raw.prepare(
    `insert into stock_adjustments (number, branch_id, warehouse_id, date, notes, status, created_by, stock_count_id, ${stamps})
     values (?, ?, null, ?, 'Opening stock', 'posted', ?, null, ?, ?, 1, ?)`,
  );
  const line = raw.prepare(
    `insert into document_lines (business_id, document_type, document_id, position, item_id, unit_of_measurement_id, quantity,
       base_quantity, unit_price, discount_percent, vat_category, sc_pwd, amount, vat, source_line_id, quantity_done, reason, note)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?, null, 0, ?, null)`,
  );
  const movement = raw.prepare(
    `insert into stock_movements (business_id, stock_id, item_id, location_type, location_id, quantity, in_transit, document_type,
       document_id, document_number, document_date, moved_at)
     values (?, ?, ?, 'branch', ?, ?, 0, 'stock-adjustment', ?, ?, ?, ?)`,
  );

  const items: { id: number; vat: string; n: number }[] = [];
  const nextName = itemNames();
  raw.transaction(() => {
    const openings = branchIds.map((branchId, place) => {
      const number = `SA-OPENING-${place + 1}`;
      return { branchId, number, id: Number(adjustment.run(number, branchId, today, adminId, now, now, BUSINESS_ID).lastInsertRowid) };
    });
    for (let n = 1; n <= data.items; n += 1) {
      const name = nextName();
      const { sku, barcode, reorderLevel, vatCategory } = itemValues(n);
      const brand = brandOf(name);
      const id = Number(
        item.run(
          sku,
          barcode,
          name,
          brand === undefined ? null : brandIds.get(brand),
          typeIds[n % typeIds.length] ?? null,
          classificationIds[n % classificationIds.length] ?? null,
          piece,
          reorderLevel,
          vatCategory,
          n % 4 === 0 ? 1 : 0,
          now,
          now,
          BUSINESS_ID,
        ).lastInsertRowid,
      );
      items.push({ id, vat: vatCategory, n });
      for (const [place, opening] of openings.entries()) {
        price.run(id, opening.branchId, piece, salePrice(n, place), today, now, now, BUSINESS_ID);
        const quantity = (12 + ((n * 31 + place * 17) % 240)) * 1000;
        const stockId = Number(stock.run(id, opening.branchId, quantity, now, now, BUSINESS_ID).lastInsertRowid);
        const cost = Math.round(salePrice(n, 0) * 0.7);
        line.run(
          BUSINESS_ID,
          'stock-adjustment',
          opening.id,
          n - 1,
          id,
          piece,
          quantity,
          quantity,
          cost,
          vatCategory,
          Math.round((quantity * cost) / 1000),
          0,
          'opening_balance',
        );
        movement.run(BUSINESS_ID, stockId, id, opening.branchId, quantity, opening.id, opening.number, today, now);
      }
    }
  })();

  // Open documents: quotations at the branches, purchase orders into them; priced as the lines say.
  const header = `number, reference_number, contact_id, branch_id, warehouse_id, date, notes, status, created_by, prices_include_vat,
    subtotal, discount_total, sc_pwd_discount, less_vat, vatable_sales, exempt_sales, zero_rated_sales, vat_total, total`;
  const quotation = raw.prepare(
    `insert into quotations (${header}, valid_until, ${stamps}) values (?, null, ?, ?, null, ?, null, 'open', ?, 0, ?, 0, 0, 0, ?, ?, 0, ?, ?, null, ?, ?, 1, ?)`,
  );
  const order = raw.prepare(
    `insert into purchase_orders (${header}, expected_date, ${stamps}) values (?, null, ?, ?, null, ?, null, 'open', ?, 0, ?, 0, 0, 0, ?, ?, 0, ?, ?, null, ?, ?, 1, ?)`,
  );
  const documentOf = (
    kind: 'quotation' | 'purchase-order',
    count: number,
    linesEach: number,
    write: (n: number, totals: number[]) => number,
    unitPriceOf: (n: number) => number,
  ) => {
    for (let n = 0; n < count; n += 1) {
      const lines = Array.from({ length: linesEach }, (_, position) => {
        const picked = items[(n * 7_919 + position * 104_729) % items.length];
        const quantity = (1 + ((n + position) % 12)) * 1000;
        const unitPrice = unitPriceOf(picked.n);
        const amount = Math.round((quantity * unitPrice) / 1000);
        return { picked, quantity, unitPrice, amount, vat: picked.vat === 'vatable' ? Math.round(amount * 0.12) : 0 };
      });
      const sum = (pick: (row: (typeof lines)[number]) => number) => lines.reduce((total, row) => total + pick(row), 0);
      const subtotal = sum((row) => row.amount);
      const vatable = sum((row) => (row.picked.vat === 'vatable' ? row.amount : 0));
      const vat = sum((row) => row.vat);
      const id = write(n, [subtotal, vatable, subtotal - vatable, vat, subtotal + vat]);
      for (const [position, row] of lines.entries()) {
        line.run(
          BUSINESS_ID,
          kind,
          id,
          position,
          row.picked.id,
          piece,
          row.quantity,
          row.quantity,
          row.unitPrice,
          row.picked.vat,
          row.amount,
          row.vat,
          null,
        );
      }
    }
  };
  raw.transaction(() => {
    documentOf(
      'quotation',
      data.quotations,
      data.quotationLines,
      (n, [subtotal, vatable, exempt, vat, total]) =>
        Number(
          quotation.run(
            `Q-BENCH-${String(n + 1).padStart(5, '0')}`,
            customers[n % customers.length],
            branchIds[n % branchIds.length],
            today,
            adminId,
            subtotal,
            vatable,
            exempt,
            vat,
            total,
            now,
            now,
            BUSINESS_ID,
          ).lastInsertRowid,
        ),
      (n) => salePrice(n, 0),
    );
    documentOf(
      'purchase-order',
      data.purchaseOrders,
      data.purchaseOrderLines,
      (n, [subtotal, vatable, exempt, vat, total]) =>
        Number(
          order.run(
            `PO-BENCH-${String(n + 1).padStart(5, '0')}`,
            suppliers[n % suppliers.length],
            branchIds[n % branchIds.length],
            today,
            adminId,
            subtotal,
            vatable,
            exempt,
            vat,
            total,
            now,
            now,
            BUSINESS_ID,
          ).lastInsertRowid,
        ),
      (n) => Math.round(salePrice(n, 0) * 0.7),
    );
  })();

  return {
    rows: {
      items: items.length,
      prices: items.length * branchIds.length,
      stocks: items.length * branchIds.length,
      contacts: customers.length + suppliers.length,
      openDocuments: data.quotations + data.purchaseOrders,
    },
    branchIds,
    firstItemId: items[0].id,
    lastItemId: items[items.length - 1].id,
  };
}
