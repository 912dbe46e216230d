import { sql, type Kysely } from 'kysely';
import {
  MASTER_PERMISSION,
  PERMISSION_PREFIXES,
  permissionName,
  SERVICE_PRICES_PERMISSION,
  VIEW_ACTIVITY_PERMISSION,
  VIEW_COSTS_PERMISSION,
} from '../domain/permissions';
import { documentTotals } from '../domain/documents';
import { centavosToPesos } from '../domain/money';
import { toThousandths } from '../domain/quantity';
import { getResource } from '../domain/resources/registry';
import { returnedFigures, soldFigures, soldLineOf, type SoldLineAnswer } from '../domain/returns';
import { jobPermissions } from '../domain/role-needs';
import { WALK_IN_NAME } from '../domain/walk-in';
import { hashSecret, temporaryPassword } from './auth/secrets';
import { composeEngine } from './composition';
import { isPostgres, nowIso } from './db/dialect';
import type { Database } from './db/schema';
import type { ApiRecord } from './resources/codec';
import { createRecord, updateRecord } from './resources/record-service';
import type { Scope, Trx } from './db/scope';
import { settleCosts } from './documents/cost-follow-up';
import { provisionBusiness } from './services/business-provisioning.service';
import type { PlaceLevel } from '../domain/places';

export interface SeedOptions {
  adminEmail: string;
  /** When absent a random one is made and returned, to be shown once. */
  adminPassword?: string;
  demoData: boolean;
}

export interface SeedResult {
  seeded: boolean;
  adminPassword?: string;
}

const views = (prefixes: readonly string[]) => prefixes.map((prefix) => permissionName('view', prefix));
const CATALOGUE = [
  'brands',
  'measuring-masses',
  'unit-of-measurements',
  'conversions',
  'item-classifications',
  'item-types',
  'items',
  'stocks',
];

/**
 * The demo roles beside Administrator: what each makes, and where its user works. Each role may
 * also read everything those documents' forms look up (`jobPermissions`), so no picker of its
 * forms answers "You do not have permission to do this."
 */
export const DEMO_ROLES: {
  name: string;
  email: string;
  description: string;
  worksAt: 'branch' | 'warehouse' | 'none';
  /** Where they may work (domain/places.ts): every place at `all`, the place they work at at `own`, every branch at `branches`. */
  places: { all: PlaceLevel | null; own?: PlaceLevel; branches?: PlaceLevel };
  permissions: string[];
}[] = [
  {
    name: 'Warehouse Staff',
    email: 'warehouse@example.com',
    description: 'Receives, stores and moves goods between locations.',
    worksAt: 'warehouse',
    places: { all: null, own: 'operate', branches: 'view' },
    permissions: [
      ...views(CATALOGUE),
      ...jobPermissions([
        'items',
        'receive-orders',
        'stock-requests',
        'stock-transfers',
        'stock-receives',
        'stock-returns',
        'stock-adjustments',
        'stock-counts',
        'document-memoranda',
      ]),
    ],
  },
  {
    name: 'Branch Cashier',
    email: 'cashier@example.com',
    description: 'Sells at a branch, takes payments and takes goods back.',
    worksAt: 'branch',
    places: { all: null, own: 'operate' },
    permissions: [
      ...views(['items', 'stocks', 'sale-item-prices', 'services', 'service-prices', 'branches']),
      SERVICE_PRICES_PERMISSION,
      ...jobPermissions(['quotations', 'invoices', 'invoice-payments', 'sales-returns', 'contacts', 'document-memoranda']),
    ],
  },
  {
    name: 'Branch Staff',
    email: 'branch@example.com',
    description: 'Asks the warehouse for stock and receives what it sends, at a branch.',
    worksAt: 'branch',
    places: { all: null, own: 'operate' },
    permissions: [...views(['items', 'stocks']), ...jobPermissions(['stock-requests', 'stock-receives', 'document-memoranda'])],
  },
  {
    name: 'Purchasing',
    email: 'purchasing@example.com',
    description: 'Buys from suppliers and pays their bills, and sees what goods cost; sees every place, buys into the central warehouse.',
    worksAt: 'warehouse',
    places: { all: 'view', own: 'operate' },
    permissions: [
      ...views(CATALOGUE),
      VIEW_COSTS_PERMISSION,
      ...jobPermissions([
        'purchase-item-prices',
        'purchase-orders',
        'receive-orders',
        'bills',
        'bill-payments',
        'purchase-returns',
        'contacts',
        'document-memoranda',
      ]),
    ],
  },
  {
    name: 'Viewer',
    email: 'viewer@example.com',
    description: 'Sees everything, changes nothing.',
    worksAt: 'none',
    places: { all: 'view' },
    permissions: [...views(PERMISSION_PREFIXES), VIEW_ACTIVITY_PERMISSION],
  },
];

async function createUser(trx: Trx, name: string, email: string, passwordHash: string): Promise<number> {
  const now = nowIso();
  const row = await trx
    .insertInto('users')
    .values({
      name,
      email,
      username: email.split('@')[0],
      password_hash: passwordHash,
      security_pin_hash: null,
      created_at: now,
      updated_at: now,
      version: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function createBusiness(trx: Trx, name: string, ownerId: number, details: Record<string, unknown> = {}): Promise<number> {
  const now = nowIso();
  const row = await trx
    .insertInto('businesses')
    .values({ name, vat_registered: 1, created_at: now, updated_at: now, version: 1, ...details })
    .returning('id')
    .executeTakeFirstOrThrow();
  await provisionBusiness(trx, Number(row.id), ownerId);
  return Number(row.id);
}

async function createRole(trx: Trx, businessId: number, name: string, description: string, permissions: string[]): Promise<number> {
  const scope: Scope = { businessId, userId: 0, permissions: new Set([MASTER_PERMISSION]) };
  const role = await createRecord(trx, scope, getResource('roles'), { name, description });
  const ids = await trx.selectFrom('permissions').select('id').where('name', 'in', permissions).execute();
  await trx
    .insertInto('role_permissions')
    .values(ids.map((row) => ({ role_id: role.id, permission_id: row.id })))
    .execute();
  return role.id;
}

/** The advisory lock the seeding transaction holds on PostgreSQL (any fixed number of ours). */
const SEED_LOCK = 4_206_001;

/**
 * On an empty database: the admin (a member of every seeded business), and with demo data two
 * businesses with their catalogue and the demo roles, each held by a demo user who signs in
 * with the admin's password. The database is one `buildApp` has started on: migrated, and with
 * the permissions its roles are given (`ensurePermissions`).
 */
export async function seed(db: Kysely<Database>, options: SeedOptions): Promise<SeedResult> {
  composeEngine();
  const anyone = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyone) return { seeded: false };
  const password = options.adminPassword ?? temporaryPassword();
  const passwordHash = await hashSecret(password);

  const seeded = await db.transaction().execute(async (trx) => {
    // Servers starting at once on a new PostgreSQL database: one seeds, the others then find users.
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    if (await trx.selectFrom('users').select('id').limit(1).executeTakeFirst()) return false;
    const adminId = await createUser(trx, 'Administrator', options.adminEmail.toLowerCase(), passwordHash);
    if (!options.demoData) {
      await createBusiness(trx, 'My Business', adminId);
      return true;
    }
    const main = await createBusiness(trx, 'Tindahan ni Aling Nena Trading', adminId, {
      registered_name: 'Aling Nena Trading Corporation',
      trade_name: 'Tindahan ni Aling Nena',
      tin: '123-456-789',
      address: '123 Rizal Avenue, Makati City, Metro Manila',
      phone: '+63 2 8123 4567',
      email: 'hello@alingnena.example.com',
    });
    const second = await createBusiness(trx, 'Mabuhay Hardware Supply', adminId, {
      registered_name: 'Mabuhay Hardware Supply, Inc.',
      trade_name: 'Mabuhay Hardware',
      tin: '987-654-321',
      address: '45 Osmeña Boulevard, Cebu City',
      phone: '+63 32 234 5678',
      // A hardware store's shelf prices include VAT; the wholesaler above quotes VAT on top.
      prices_include_vat: 1,
    });
    await seedCatalogue(trx, main, MAIN_CATALOGUE);
    await seedCatalogue(trx, second, HARDWARE_CATALOGUE);
    for (const role of DEMO_ROLES) {
      const roleId = await createRole(trx, main, role.name, role.description, [...new Set(role.permissions)]);
      const userId = await createUser(trx, role.name, role.email, passwordHash);
      const now = nowIso();
      const workplace =
        role.worksAt === 'none'
          ? undefined
          : await trx
              .selectFrom(role.worksAt === 'branch' ? 'branches' : 'warehouses')
              .select('id')
              .where('business_id', '=', main)
              .orderBy('id')
              .executeTakeFirst();
      await trx
        .insertInto('memberships')
        .values({
          user_id: userId,
          business_id: main,
          userable_type: workplace ? role.worksAt : 'none',
          userable_id: workplace?.id ?? null,
          all_places: role.places.all ?? 'none',
          created_at: now,
          updated_at: now,
          version: 1,
        })
        .execute();
      await trx.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
      const { own, branches: everyBranch } = role.places;
      const grants = [
        ...(workplace && own ? [{ place_type: role.worksAt, place_id: Number(workplace.id), level: own }] : []),
        ...(everyBranch
          ? (await trx.selectFrom('branches').select('id').where('business_id', '=', main).execute()).map((branch) => ({
              place_type: 'branch',
              place_id: Number(branch.id),
              level: everyBranch,
            }))
          : []),
      ];
      if (grants.length > 0) {
        await trx
          .insertInto('user_places')
          .values(grants.map((grant) => ({ ...grant, business_id: main, user_id: userId, created_at: now })))
          .execute();
      }
    }
    return true;
  });
  if (!seeded) return { seeded: false };
  // The demo's goods costed now, not at the first sweep (documents/cost-follow-up.ts).
  await settleCosts(db);
  return { seeded: true, adminPassword: options.adminPassword ? undefined : password };
}

interface Catalogue {
  branches: [code: string, name: string, address: string][];
  warehouses: [code: string, name: string, address: string][];
  brands: string[];
  units: [name: string, abbreviation: string][];
  classifications: string[];
  suppliers: [name: string, company: string, mobile: string][];
  /** A customer, and what a VAT-registered one's invoices must show of it. */
  customers: [name: string, mobile: string, registered?: { tin: string; address: string }][];
  /** sku, name, brand index, classification index, unit index, sale price, purchase price */
  items: [sku: string, name: string, brand: number, classification: number, unit: number, sale: number, cost: number][];
  /**
   * What a branch sells over its counter beside the wholesale goods, with how each is taxed: the
   * branch's stock of them is received from the first supplier, and one sale to a senior citizen
   * is made (`seedCounterSale`).
   */
  counter?: {
    items: [sku: string, name: string, sale: number, cost: number, tax: { vat_category?: string; sc_pwd_discount?: boolean }][];
  };
  services: [code: string, name: string, price: number][];
}

const MAIN_CATALOGUE: Catalogue = {
  branches: [
    ['MKT', 'Makati', 'Ayala Avenue, Makati City'],
    ['QC', 'Quezon City', 'Timog Avenue, Quezon City'],
    ['CEB', 'Cebu', 'Colon Street, Cebu City'],
  ],
  warehouses: [
    ['WH-VAL', 'Valenzuela Central', 'MacArthur Highway, Valenzuela City'],
    ['WH-CEB', 'Mandaue', 'A.S. Fortuna Street, Mandaue City'],
  ],
  brands: ['Nestlé', 'Lucky Me!', 'San Miguel', 'Del Monte', 'Century Tuna', 'Alaska', 'Datu Puti', 'Silver Swan'],
  units: [
    ['Piece', 'pc'],
    ['Box', 'box'],
    ['Pack', 'pack'],
    ['Dozen', 'doz'],
    ['Case', 'case'],
    ['Bottle', 'btl'],
  ],
  classifications: ['Canned Goods', 'Noodles', 'Beverages', 'Condiments', 'Dairy'],
  suppliers: [
    ['Juan dela Cruz', 'Luzon Grocery Distributors Inc.', '0917 123 4567'],
    ['Maria Santos', 'Visayas Foods Trading', '0918 234 5678'],
    ['Pedro Reyes', 'Metro Beverage Supply Corp.', '0919 345 6789'],
  ],
  customers: [
    ['Sari-Sari ni Aling Rosa', '0920 111 2222'],
    ['Carinderia ni Mang Tomas', '0921 333 4444'],
    ['Bayanihan Cooperative', '0922 555 6666', { tin: '456-789-123-000', address: '17 Mabini Street, Pasig City, Metro Manila' }],
  ],
  items: [
    ['CT-155', 'Century Tuna Flakes in Oil 155g', 4, 0, 0, 38.5, 31.25],
    ['CT-180', 'Century Tuna Hot & Spicy 180g', 4, 0, 0, 44, 36],
    ['LM-PCS', 'Lucky Me! Pancit Canton Original', 1, 1, 0, 16, 12.5],
    ['LM-BLG', 'Lucky Me! Beef Noodles 55g', 1, 1, 0, 12, 9.25],
    ['LM-PCS-BOX', 'Lucky Me! Pancit Canton Box of 72', 1, 1, 1, 1080, 880],
    ['SMB-PIL', 'San Miguel Pale Pilsen 330ml', 2, 2, 5, 55, 42],
    ['SMB-LGT', 'San Miguel Light 330ml', 2, 2, 5, 58, 45],
    ['DM-PJ', 'Del Monte Pineapple Juice 1L', 3, 2, 5, 95, 78],
    ['DM-TS', 'Del Monte Tomato Sauce 250g', 3, 3, 2, 28, 22],
    ['DM-SPG', 'Del Monte Spaghetti Sauce Sweet 1kg', 3, 3, 2, 135, 110],
    ['NES-MLO', 'Nestlé Milo 300g', 0, 2, 2, 118, 96],
    ['NES-BRD', 'Nestlé Bear Brand Powdered Milk 320g', 0, 4, 2, 165, 139],
    ['ALS-EVP', 'Alaska Evaporated Milk 370ml', 5, 4, 0, 42, 34.5],
    ['ALS-CND', 'Alaska Condensed Milk 300ml', 5, 4, 0, 48, 39],
    ['DP-VIN', 'Datu Puti Vinegar 1L', 6, 3, 5, 45, 35],
    ['DP-SOY', 'Datu Puti Soy Sauce 1L', 6, 3, 5, 52, 41],
    ['SS-SOY', 'Silver Swan Soy Sauce 385ml', 7, 3, 5, 24, 18.75],
    ['SS-VIN', 'Silver Swan Cane Vinegar 385ml', 7, 3, 5, 22, 17],
  ],
  counter: {
    items: [
      ['UL-BIO', 'Biogesic Paracetamol 500mg', 5.5, 4.1, { sc_pwd_discount: true }],
      ['RICE-DIN', 'Dinorado Rice 1kg', 62, 52, { vat_category: 'exempt' }],
      ['SG-SOAP', 'Safeguard Pure White Soap 135g', 45, 36, {}],
    ],
  },
  services: [
    ['DEL-MM', 'Delivery within Metro Manila', 150],
    ['DEL-PROV', 'Provincial delivery', 450],
  ],
};

const HARDWARE_CATALOGUE: Catalogue = {
  branches: [['CEB-HW', 'Cebu Downtown', 'Osmeña Boulevard, Cebu City']],
  warehouses: [['WH-HW', 'Talisay Yard', 'Tabunok, Talisay City']],
  brands: ['Boysen', 'Davies', 'Stanley', 'Makita'],
  units: [
    ['Piece', 'pc'],
    ['Gallon', 'gal'],
    ['Liter', 'L'],
  ],
  classifications: ['Paint', 'Hand Tools', 'Power Tools'],
  suppliers: [['Roberto Lim', 'Cebu Hardware Wholesale', '0932 765 4321']],
  customers: [['Santos Construction', '0933 222 1111']],
  items: [
    ['BOY-PW-GAL', 'Boysen Permacoat White 1 gal', 0, 0, 1, 780, 640],
    ['DAV-SUN-L', 'Davies Sun & Rain Liter', 1, 0, 2, 395, 320],
    ['STN-HAM-16', 'Stanley Claw Hammer 16oz', 2, 1, 0, 650, 510],
    ['MAK-DRL-HP', 'Makita Hammer Drill HP1630', 3, 2, 0, 4850, 3900],
  ],
  services: [['TINT', 'Paint tinting', 50]],
};

async function seedCatalogue(trx: Trx, businessId: number, catalogue: Catalogue): Promise<void> {
  const scope: Scope = { businessId, userId: 0, permissions: new Set([MASTER_PERMISSION]) };
  const create = async (resource: string, values: Record<string, unknown>) =>
    (await createRecord(trx, scope, getResource(resource), values)).id;
  const today = new Date().toISOString().slice(0, 10);

  const branchIds = [];
  // BIR branch codes: the main warehouse is the head office (00000); then the branches, then the other warehouses.
  const branchCode = (index: number) => String(index).padStart(5, '0');
  for (const [index, [code, name, address]] of catalogue.branches.entries())
    branchIds.push(await create('branches', { code, name, address, branch_code: branchCode(index + 1) }));
  for (const [index, [code, name, address]] of catalogue.warehouses.entries())
    await create('warehouses', { code, name, address, branch_code: branchCode(index === 0 ? 0 : catalogue.branches.length + index) });
  const brandIds = [];
  for (const name of catalogue.brands) brandIds.push(await create('brands', { name }));
  const unitIds = [];
  for (const [name, abbreviation] of catalogue.units) unitIds.push(await create('unit-of-measurements', { name, abbreviation }));
  for (const [name, abbreviation] of [
    ['Kilogram', 'kg'],
    ['Gram', 'g'],
  ]) {
    await create('measuring-masses', { name, abbreviation });
  }
  const classificationIds = [];
  for (const name of catalogue.classifications) classificationIds.push(await create('item-classifications', { name }));

  const types = await trx.selectFrom('contact_types').select(['id', 'name']).where('business_id', '=', businessId).execute();
  const typeId = (name: string) => types.find((type) => type.name === name)?.id;
  const supplierIds = [];
  for (const [name, company_name, mobile] of catalogue.suppliers) {
    supplierIds.push(await create('contacts', { contact_type_id: typeId('Supplier'), name, company_name, mobile, payment_terms_days: 30 }));
  }
  const customerIds = [];
  for (const [name, mobile, registered] of catalogue.customers) {
    const particulars = registered ? { ...registered, vat_registered: true } : {};
    customerIds.push(
      await create('contacts', {
        contact_type_id: typeId('Customer'),
        name,
        mobile,
        payment_terms_days: 15,
        ...particulars,
      }),
    );
  }
  const inventoryType = (
    await trx
      .selectFrom('item_types')
      .select('id')
      .where('business_id', '=', businessId)
      .where('name', '=', 'Inventory')
      .executeTakeFirstOrThrow()
  ).id;

  const stocked: StockedItem[] = [];
  for (const [index, [sku, name, brand, classification, unit, sale, cost]] of catalogue.items.entries()) {
    const itemId = await create('items', {
      sku,
      barcode: `480${String(businessId).padStart(2, '0')}${String(index + 1).padStart(8, '0')}`,
      name,
      brand_id: brandIds[brand],
      item_type_id: inventoryType,
      item_classification_id: classificationIds[classification],
      unit_of_measurement_id: unitIds[unit],
      reorder_level: 24,
      vat_category: 'vatable',
      purchase_discounts: [{ quantity: 100, discount_percent: 3 }],
      sale_discounts: [
        { quantity: 10, discount_percent: 5 },
        { quantity: 50, discount_percent: 8 },
      ],
    });
    stocked.push({ id: itemId, unitId: unitIds[unit], cost, price: sale, supplierId: supplierIds[index % supplierIds.length] });
    await create('sale-item-prices', { item_id: itemId, unit_of_measurement_id: unitIds[unit], price: sale, effective_date: today });
    await create('purchase-item-prices', {
      item_id: itemId,
      contact_id: supplierIds[index % supplierIds.length],
      unit_of_measurement_id: unitIds[unit],
      price: cost,
      effective_date: today,
    });
  }
  if (unitIds.length >= 4) {
    await create('conversions', { from_unit_id: unitIds[3], to_unit_id: unitIds[0], factor: 12 });
  }
  const warehouseId = (
    await trx.selectFrom('warehouses').select('id').where('business_id', '=', businessId).orderBy('id').executeTakeFirstOrThrow()
  ).id;
  const record = (resource: string, values: Record<string, unknown>) => createRecord(trx, scope, getResource(resource), values);
  await seedPurchasing(record, warehouseId, stocked);
  await seedSales(record, warehouseId, stocked, customerIds);
  await seedOlderAndNewerDebts(record, warehouseId, stocked, customerIds);
  await seedCreditLimits(trx, scope, customerIds);
  await seedLogistics(record, warehouseId, branchIds, stocked);
  await seedAdjustments(record, warehouseId, stocked);
  if (catalogue.counter && branchIds[0]) {
    const counterItems = [];
    for (const [sku, name, sale, cost, tax] of catalogue.counter.items) {
      const id = await create('items', {
        sku,
        name,
        item_type_id: inventoryType,
        unit_of_measurement_id: unitIds[0],
        reorder_level: 10,
        ...tax,
      });
      await create('sale-item-prices', { item_id: id, unit_of_measurement_id: unitIds[0], price: sale, effective_date: today });
      counterItems.push({ id, unitId: unitIds[0], cost, price: sale, supplierId: supplierIds[0] });
    }
    // The walk-in customer every business is given when it is made.
    const walkIn = await trx
      .selectFrom('contacts')
      .select('id')
      .where('business_id', '=', businessId)
      .where('name', '=', WALK_IN_NAME)
      .executeTakeFirstOrThrow();
    await seedCounterSale(record, branchIds[0], counterItems, walkIn.id);
  }
  for (const [code, name, price] of catalogue.services) {
    const serviceId = await create('services', { code, name });
    await create('service-prices', { service_id: serviceId, price, effective_date: today });
    if (branchIds[0])
      await create('service-prices', { service_id: serviceId, branch_id: branchIds[0], price: price + 50, effective_date: today });
  }
}

interface StockedItem {
  id: number;
  unitId: number;
  cost: number;
  price: number;
  supplierId: number;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Makes a record of `resource` in the business being seeded, through the record engine, and answers it. */
type CreateRecord = (resource: string, values: Record<string, unknown>) => Promise<ApiRecord>;

/**
 * Three months of purchasing per supplier, consistent with the ledger: orders every month into
 * the main warehouse, received in full (the latest in part), billed, and paid — the oldest in
 * full, the next in part, the latest not yet.
 */
async function seedPurchasing(create: CreateRecord, warehouseId: number, items: StockedItem[]): Promise<void> {
  const suppliers = [...new Set(items.map((item) => item.supplierId))];
  for (const [round, days] of [88, 58, 27, 6].entries()) {
    for (const supplierId of suppliers) {
      const theirs = items.filter((item) => item.supplierId === supplierId);
      const lines = theirs.map((item, index) => ({
        item_id: item.id,
        unit_of_measurement_id: item.unitId,
        quantity: 24 * (1 + ((index + round) % 3)),
        unit_price: item.cost,
      }));
      const header = { contact_id: supplierId, warehouse_id: warehouseId };
      const order = await create('purchase-orders', { ...header, date: daysAgo(days), expected_date: daysAgo(days - 3), lines });
      const latest = round === 3;
      await create('receive-orders', {
        ...header,
        purchase_order_id: order.id,
        date: daysAgo(days - 2),
        lines: (order.lines as { id: number; quantity: number }[]).map((line) => ({
          source_line_id: line.id,
          quantity: latest ? line.quantity / 2 : line.quantity,
        })),
      });
      if (latest) continue;
      const bill = await create('bills', {
        ...header,
        purchase_order_id: order.id,
        date: daysAgo(days - 2),
        due_date: daysAgo(days - 32),
        lines,
      });
      if (round === 2) continue;
      const amount = round === 0 ? Number(bill.total) : Math.round(Number(bill.total) / 2);
      // By bank transfer, with its reference; or by a check, with its bank, number and date.
      const paidOn = daysAgo(days - 20);
      const tender =
        round === 0
          ? { method: 'bank_transfer', amount, reference: `IBFT-${paidOn.replaceAll('-', '')}-${String(bill.id).padStart(4, '0')}` }
          : { method: 'check', amount, bank: 'BPI', check_number: String(104_500 + Number(bill.id)), check_date: paidOn };
      await create('bill-payments', { bill_id: bill.id, date: paidOn, tenders: [tender] });
    }
  }
}

/**
 * Wholesale from the main warehouse, after the goods arrived: each customer an invoice every
 * month (the oldest paid, the next in part, the latest owed), and a quotation still open.
 */
async function seedSales(create: CreateRecord, warehouseId: number, items: StockedItem[], customerIds: number[]): Promise<void> {
  let firstPaid: ApiRecord | undefined;
  for (const [round, days] of [80, 50, 20].entries()) {
    for (const [index, customerId] of customerIds.entries()) {
      const lines = [0, 1, 2].map((offset) => {
        const item = items[(index * 3 + offset + round) % items.length];
        return { item_id: item.id, unit_of_measurement_id: item.unitId, quantity: 6 * (1 + offset), unit_price: item.price };
      });
      const header = { contact_id: customerId, warehouse_id: warehouseId };
      const invoice = await create('invoices', { ...header, date: daysAgo(days), due_date: daysAgo(days - 15), lines });
      firstPaid ??= invoice;
      if (round === 2) continue;
      const amount = round === 0 ? Number(invoice.total) : Math.round(Number(invoice.total) / 3);
      await create('invoice-payments', {
        invoice_id: invoice.id,
        date: daysAgo(days - 10),
        amount,
        payment_method: round === 0 ? 'gcash' : 'cash',
        // GCash is traced by its 13-digit reference number.
        payment_reference: round === 0 ? String(9_012_345_000_000 + Number(invoice.id)) : null,
      });
    }
  }
  if (firstPaid) await seedSalesReturn(create, firstPaid);
  const [first] = items;
  await create('quotations', {
    contact_id: customerIds[0],
    warehouse_id: warehouseId,
    date: daysAgo(2),
    valid_until: daysAgo(-12),
    lines: [{ item_id: first.id, unit_of_measurement_id: first.unitId, quantity: 48, unit_price: first.price }],
  });
}

/**
 * Unpaid invoices beyond the monthly sales, so that what customers owe falls in every bucket of
 * the receivables ageing: one not yet due, one 61–90 days past due and one over 90, each to the
 * next customer in turn. Made before the credit limits, which count them.
 */
async function seedOlderAndNewerDebts(create: CreateRecord, warehouseId: number, items: StockedItem[], customerIds: number[]) {
  // Dated 9, 100 and 140 days ago (none in the last week, which sold only over the counter); due
  // 6 days from now, 75 and 115 days ago.
  for (const [index, [dated, due]] of [
    [9, -6],
    [100, 75],
    [140, 115],
  ].entries()) {
    const item = items[index % items.length];
    await create('invoices', {
      contact_id: customerIds[index % customerIds.length],
      warehouse_id: warehouseId,
      date: daysAgo(dated),
      due_date: daysAgo(due),
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unitId, quantity: 6, unit_price: item.price }],
    });
  }
}

/**
 * Credit limits, once the customers owe what the sales left unpaid: the last of several at its
 * limit (what it owes now: another invoice on account is refused, or needs an override and its
 * reason), the others with room — what they owe, rounded up to ₱10,000, and ₱20,000 more.
 */
async function seedCreditLimits(trx: Trx, scope: Scope, customerIds: number[]): Promise<void> {
  for (const [index, customerId] of customerIds.entries()) {
    const { owed } = await trx
      .selectFrom('invoices')
      .select((eb) => eb.fn.sum<number | string | null>('balance').as('owed'))
      .where('business_id', '=', scope.businessId)
      .where('contact_id', '=', customerId)
      .where('status', '<>', 'void')
      .executeTakeFirstOrThrow();
    const pesos = Number(owed ?? 0) / 100;
    const atLimit = customerIds.length > 1 && index === customerIds.length - 1;
    const limit = atLimit ? pesos : Math.ceil(pesos / 10_000) * 10_000 + 20_000;
    await updateRecord(trx, scope, getResource('contacts'), customerId, { credit_limit: limit });
  }
}

/**
 * Goods back from the first paid sale, three days ago: one of its first line the customer changed
 * their mind about, back in stock, and two of its second found dented, quarantined until someone
 * checks them (on hand, not for sale) — refunded in cash what they come to (figured as the server
 * figures a return, `domain/returns.ts`).
 */
async function seedSalesReturn(create: CreateRecord, invoice: ApiRecord): Promise<void> {
  const sold = invoice.lines as (SoldLineAnswer & { id: number })[];
  const back = [
    { line: sold[0], quantity: 1, reason: 'changed_mind', disposition: 'restock' },
    { line: sold[1], quantity: 2, reason: 'damaged', note: 'Dented cans — to be checked', disposition: 'quarantine' },
  ];
  const figures = back.map(({ line, quantity }) =>
    returnedFigures(
      soldFigures(soldLineOf(line), Boolean(invoice.prices_include_vat)),
      toThousandths(line.quantity),
      0,
      toThousandths(quantity),
    ),
  );
  await create('sales-returns', {
    invoice_id: invoice.id,
    date: daysAgo(3),
    settlement: 'refund',
    lines: back.map(({ line, quantity, reason, note, disposition }) => ({ source_line_id: line.id, quantity, reason, note, disposition })),
    tenders: [{ method: 'cash', amount: centavosToPesos(documentTotals(figures).total) }],
  });
}

/**
 * At the first branch's counter yesterday: its medicine, rice and soap received from the supplier,
 * then a senior citizen's purchase — 20 % off and no VAT on the medicine against her ID, the rice
 * VAT-exempt, the soap VATable — settled at once in two tenders: part in cash and the rest by
 * GCash with its reference number.
 */
async function seedCounterSale(create: CreateRecord, branchId: number, items: StockedItem[], customerId: number): Promise<void> {
  const line = (item: StockedItem, quantity: number, price: number) => ({
    item_id: item.id,
    unit_of_measurement_id: item.unitId,
    quantity,
    unit_price: price,
  });
  await create('receive-orders', {
    contact_id: items[0].supplierId,
    branch_id: branchId,
    date: daysAgo(5),
    lines: items.map((item) => line(item, 100, item.cost)),
  });
  const [medicine, rice, soap] = items;
  const invoice = await create('invoices', {
    contact_id: customerId,
    branch_id: branchId,
    date: daysAgo(1),
    buyer_discount: 'senior',
    buyer_discount_id_number: 'MKT-SC-2019-04417',
    buyer_discount_name: 'Remedios C. Cruz',
    lines: [line(medicine, 20, medicine.price), line(rice, 5, rice.price), line(soap, 2, soap.price)],
  });
  await seedSplitTender(create, invoice);
}

/** Split tender: an invoice settled at once in two tenders, part in cash and the rest by GCash with its reference number. */
async function seedSplitTender(create: CreateRecord, invoice: ApiRecord) {
  const total = Number(invoice.balance);
  const cash = Math.floor(total / 2);
  await create('invoice-payments', {
    invoice_id: invoice.id,
    date: String(invoice.date),
    notes: 'Paid at the counter: part in cash, the rest by GCash.',
    tenders: [
      { method: 'cash', amount: cash },
      { method: 'gcash', amount: Math.round((total - cash) * 100) / 100, reference: String(9_012_346_000_000 + Number(invoice.id)) },
    ],
  });
}

/** A week ago at the main warehouse: a carton found damaged, and a few pieces found on a shelf. */
async function seedAdjustments(create: CreateRecord, warehouseId: number, items: StockedItem[]): Promise<void> {
  const [damaged, found] = items;
  await create('stock-adjustments', {
    warehouse_id: warehouseId,
    date: daysAgo(7),
    notes: 'Weekly walk-through of the shelves.',
    lines: [
      { item_id: damaged.id, unit_of_measurement_id: damaged.unitId, quantity: -2, reason: 'damaged', note: 'Dented in unloading' },
      { item_id: found.id, unit_of_measurement_id: found.unitId, quantity: 3, reason: 'found', note: 'Behind the back shelf' },
    ],
  });
}

/**
 * Each branch restocked from the main warehouse every month: a request, a transfer for it, and
 * its receipt — the latest still half in transit.
 */
async function seedLogistics(create: CreateRecord, warehouseId: number, branchIds: number[], items: StockedItem[]): Promise<void> {
  for (const [round, days] of [70, 40, 10].entries()) {
    for (const [index, branchId] of branchIds.entries()) {
      const ends = { from_location_type: 'warehouse', from_location_id: warehouseId, to_location_type: 'branch', to_location_id: branchId };
      const lines = [0, 1, 2].map((offset) => {
        const item = items[(index + offset + round) % items.length];
        return { item_id: item.id, unit_of_measurement_id: item.unitId, quantity: 12 };
      });
      const request = await create('stock-requests', { ...ends, date: daysAgo(days), needed_by: daysAgo(days - 3), lines });
      const requested = request.lines as { id: number; quantity: number }[];
      const transfer = await create('stock-transfers', {
        ...ends,
        stock_request_id: request.id,
        date: daysAgo(days - 1),
        lines: requested.map((line) => ({ source_line_id: line.id, quantity: line.quantity })),
      });
      const sent = transfer.lines as { id: number; quantity: number }[];
      await create('stock-receives', {
        stock_transfer_id: transfer.id,
        date: daysAgo(days - 2),
        lines: sent.map((line) => ({ source_line_id: line.id, quantity: round === 2 ? line.quantity / 2 : line.quantity })),
      });
    }
  }
}
