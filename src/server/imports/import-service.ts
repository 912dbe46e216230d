import { sql } from 'kysely';
import type { z } from 'zod';
import { todayInManila, type VatCategory } from '../../domain/documents';
import { importKind, type ImportKind, type ImportKindName } from '../../domain/imports';
import { pesosToCentavos } from '../../domain/money';
import { toThousandths } from '../../domain/quantity';
import type { ResourceDefinition } from '../../domain/resource';
import { createSchema } from '../../domain/resource-schemas';
import { getResource } from '../../domain/resources/registry';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import { nowIso } from '../db/dialect';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import { toStorage } from '../resources/codec';
import { createRecord } from '../resources/record-service';
import { adjustCount } from '../resources/resource-counts';

/**
 * Imports from a spreadsheet, all or nothing: every row is read, its names looked up (a brand,
 * unit, supplier, branch or warehouse by its name; an item by its SKU) and its values checked as
 * the record's own create would check them, before anything is written. Rows with a problem are
 * answered with what is wrong, in words, and nothing is written; otherwise every row is written in
 * the one transaction the route opened. A row naming a record that is already there (the same SKU,
 * the same contact, the same price, the same item's opening stock at a place) updates it or is
 * skipped, as the user chose — never written twice. New rows go in by hundreds per statement.
 */

export type OnExisting = 'update' | 'skip';

export type RowProblem = {
  /** The row of the file, counting the header as row 1. */
  row: number;
  messages: string[];
};

export type ImportOutcome = {
  total: number;
  created: number;
  updated: number;
  skipped: number;
  problem_rows: number;
  problems: RowProblem[];
  /** Units, brands, item types and classifications made for names the rows use. */
  made: string[];
  /** The stock adjustments opening stock was posted in. */
  adjustments: { id: number; number: string }[];
};

type Row = Record<string, unknown>;
type Values = Record<string, unknown>;

interface Plan {
  creates: Values[];
  updates: { id: number; values: Values }[];
  skipped: number;
  problems: RowProblem[];
  /** Named records to make first (`brands` → names); rows refer to them as `{ make: table, name }`. */
  makes: Map<string, Set<string>>;
  /** Opening stock: per place, its lines. */
  openings?: Map<string, { place: { branch_id?: number; warehouse_id?: number }; lines: Values[] }>;
}

/** Shown problems stop here: a file with more says how many more. */
const PROBLEMS_SHOWN = 200;
const INSERT_BATCH = 500;

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value).trim());
const key = (value: unknown) => text(value).toLowerCase();

/** A number as a spreadsheet holds it: 1,250.50 or ₱1,250.50 included; undefined when blank; NaN when not a number. */
function amount(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  const cleaned = text(value).replace(/[₱,\s]/g, '');
  if (cleaned === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

const YES = new Set(['yes', 'y', 'true', '1', 'oo']);
const NO = new Set(['no', 'n', 'false', '0', 'hindi', '']);

/** An item's VAT as a sheet writes it: its category's name, or yes/no for VATable or not (blank: VATable, as on the form). */
function vatCategoryOf(written: string): VatCategory | undefined {
  const word = written
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
  if (word === '' || YES.has(word) || word === 'vatable' || word === 'vat' || word === '12%') return 'vatable';
  if (NO.has(word) || word === 'exempt' || word === 'vat exempt' || word === 'non vat') return 'exempt';
  if (word === 'zero rated' || word === 'zero' || word === '0%') return 'zero_rated';
  return undefined;
}

/** Names (lower case) of a business table's live records, to their ids; `also` adds another column (a unit's abbreviation, a place's code). */
async function idsByName(db: Db, scope: Scope, table: string, also?: string): Promise<Map<string, number>> {
  const rows = await untyped(db)
    .selectFrom(table)
    .select(['id', 'name', ...(also ? [also] : [])])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute();
  const ids = new Map<string, number>();
  for (const row of rows) {
    if (also && row[also]) ids.set(key(row[also]), Number(row.id));
    ids.set(key(row.name), Number(row.id));
  }
  return ids;
}

/** The zod messages of a record's create, by field, for the row's problems. */
function fieldProblems(schema: z.ZodType, values: Values, labels: Record<string, string>): string[] {
  const parsed = schema.safeParse(values);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    return labels[field] ? `${labels[field]}: ${issue.message}` : issue.message;
  });
}

interface Reader {
  row: number;
  problems: string[];
  text(column: string): string;
  /** The id of a required or optional name, or a problem. */
  named(column: string, ids: Map<string, number>, what: string, required?: boolean): number | null | undefined;
}

function reader(kind: ImportKind, raw: Row, row: number): Reader {
  const problems: string[] = [];
  const label = (column: string) => kind.columns.find((each) => each.key === column)?.label ?? column;
  for (const column of kind.columns) if (column.required && text(raw[column.key]) === '') problems.push(`${column.label} is empty.`);
  return {
    row,
    problems,
    text: (column) => text(raw[column]),
    named(column, ids, what, required = false) {
      const name = text(raw[column]);
      if (name === '') return required ? undefined : null;
      const id = ids.get(name.toLowerCase());
      if (id === undefined) problems.push(`${label(column)}: no ${what} is named “${name}”.`);
      return id;
    },
  };
}

/** Adds a row's problems to the plan's (the first few hundred kept). */
function noted(plan: Plan, read: Reader): boolean {
  if (read.problems.length === 0) return false;
  plan.problems.push({ row: read.row, messages: read.problems });
  return true;
}

const newPlan = (): Plan => ({ creates: [], updates: [], skipped: 0, problems: [], makes: new Map() });

/** Reads every row of an items file into a plan. */
async function planItems(db: Db, scope: Scope, kind: ImportKind, rows: Row[], onExisting: OnExisting): Promise<Plan> {
  const plan = newPlan();
  const lists = {
    unit: ['unit_of_measurements', await idsByName(db, scope, 'unit_of_measurements', 'abbreviation'), 'unit'],
    brand: ['brands', await idsByName(db, scope, 'brands'), 'brand'],
    item_type: ['item_types', await idsByName(db, scope, 'item_types'), 'item type'],
    item_classification: ['item_classifications', await idsByName(db, scope, 'item_classifications'), 'item classification'],
  } as const;
  const existing = new Map<string, number>();
  const barcodes = new Map<string, string>();
  for (const item of await db
    .selectFrom('items')
    .select(['id', 'sku', 'barcode'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    existing.set(item.sku, item.id);
    if (item.barcode) barcodes.set(item.barcode, item.sku);
  }
  const schema = createSchema(getResource('items'));
  const labels = Object.fromEntries(kind.columns.map((column) => [column.key, column.label]));
  const seen = new Map<string, number>();
  for (const [index, raw] of rows.entries()) {
    const read = reader(kind, raw, index + 2);
    const sku = read.text('sku');
    const references: Values = {};
    for (const [column, [table, ids, what]] of Object.entries(lists)) {
      const name = read.text(column);
      const field = column === 'unit' ? 'unit_of_measurement_id' : `${column}_id`;
      if (name === '') references[field] = null;
      else if (ids.has(name.toLowerCase())) references[field] = ids.get(name.toLowerCase());
      else if (column === 'unit' && name.length > 20)
        read.problems.push(`Unit: no unit is named “${name}”, and a new unit’s name is at most 20 characters.`);
      else {
        // Made by the import: a new business has no units nor brands yet. Checked with a stand-in id.
        if (!plan.makes.has(table)) plan.makes.set(table, new Set());
        plan.makes.get(table)!.add(name);
        references[field] = { make: table, name, what };
      }
    }
    const vatCategory = vatCategoryOf(read.text('vat_category'));
    if (!vatCategory) read.problems.push(`VAT: “${read.text('vat_category')}” is none of VATable, VAT-exempt, zero-rated (or yes, no).`);
    const scPwd = read.text('sc_pwd_discount').toLowerCase();
    if (!YES.has(scPwd) && !NO.has(scPwd))
      read.problems.push(`Senior citizen / PWD discount: “${read.text('sc_pwd_discount')}” is neither yes nor no.`);
    const reorder = amount(raw.reorder_level);
    if (Number.isNaN(reorder)) read.problems.push(`Reorder level: “${read.text('reorder_level')}” is not a number.`);
    const barcode = read.text('barcode') || null;
    if (sku && seen.has(sku)) read.problems.push(`SKU ${sku} is on row ${seen.get(sku)} too.`);
    if (barcode && barcodes.has(barcode) && barcodes.get(barcode) !== sku)
      read.problems.push(`Barcode ${barcode} is already item ${barcodes.get(barcode)}’s.`);
    if (sku) seen.set(sku, read.row);
    if (barcode && sku) barcodes.set(barcode, sku);
    const values: Values = {
      sku,
      name: read.text('name'),
      barcode,
      ...references,
      reorder_level: reorder ?? null,
      vat_category: vatCategory ?? 'vatable',
      sc_pwd_discount: YES.has(scPwd),
    };
    const checked = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isMade(value) ? 1 : value]));
    if (read.problems.length === 0) read.problems.push(...fieldProblems(schema, checked, labels));
    if (noted(plan, read)) continue;
    const known = existing.get(sku);
    if (known === undefined) plan.creates.push(values);
    else if (onExisting === 'update') plan.updates.push({ id: known, values });
    else plan.skipped += 1;
  }
  return plan;
}

const isMade = (value: unknown): value is { make: string; name: string } => typeof value === 'object' && value !== null && 'make' in value;

/** Reads every row of a contacts file into a plan. */
async function planContacts(db: Db, scope: Scope, kind: ImportKind, rows: Row[], onExisting: OnExisting): Promise<Plan> {
  const plan = newPlan();
  const types = await idsByName(db, scope, 'contact_types');
  const existing = new Map<string, number>();
  for (const contact of await db
    .selectFrom('contacts')
    .select(['id', 'name', 'contact_type_id'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    existing.set(`${contact.contact_type_id}|${key(contact.name)}`, contact.id);
  }
  const schema = createSchema(getResource('contacts'));
  const labels = Object.fromEntries(kind.columns.map((column) => [column.key, column.label]));
  const seen = new Map<string, number>();
  for (const [index, raw] of rows.entries()) {
    const read = reader(kind, raw, index + 2);
    const typeId = read.named('type', types, 'contact type', true);
    const terms = amount(raw.payment_terms_days);
    const limit = amount(raw.credit_limit);
    if (Number.isNaN(terms)) read.problems.push(`Payment terms (days): “${read.text('payment_terms_days')}” is not a number.`);
    if (Number.isNaN(limit)) read.problems.push(`Credit limit: “${read.text('credit_limit')}” is not an amount.`);
    const values: Values = {
      contact_type_id: typeId ?? null,
      name: read.text('name'),
      company_name: read.text('company_name') || null,
      tin: read.text('tin') || null,
      email: read.text('email') || null,
      phone: read.text('phone') || null,
      mobile: read.text('mobile') || null,
      address: read.text('address') || null,
      payment_terms_days: terms ?? null,
      credit_limit: limit ?? null,
    };
    if (typeId !== undefined && !Number.isNaN(terms) && !Number.isNaN(limit)) read.problems.push(...fieldProblems(schema, values, labels));
    const same = `${typeId}|${key(values.name)}`;
    if (typeId && seen.has(same)) read.problems.push(`${String(values.name)} is on row ${seen.get(same)} too.`);
    seen.set(same, read.row);
    if (noted(plan, read)) continue;
    const known = existing.get(same);
    if (known === undefined) plan.creates.push(values);
    else if (onExisting === 'update') plan.updates.push({ id: known, values });
    else plan.skipped += 1;
  }
  return plan;
}

/** Item ids by SKU, with each item's base unit. */
async function itemsBySku(db: Db, scope: Scope): Promise<Map<string, { id: number; unitId: number; name: string }>> {
  const items = new Map<string, { id: number; unitId: number; name: string }>();
  for (const item of await db
    .selectFrom('items')
    .select(['id', 'sku', 'name', 'unit_of_measurement_id'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    items.set(item.sku, { id: item.id, unitId: item.unit_of_measurement_id, name: item.name });
  }
  return items;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads every row of a purchase or sale price file into a plan. */
async function planPrices(
  db: Db,
  scope: Scope,
  kind: ImportKind,
  rows: Row[],
  onExisting: OnExisting,
  party: { column: string; field: string; table: string; what: string },
): Promise<Plan> {
  const plan = newPlan();
  const definition = getResource(kind.resource);
  const items = await itemsBySku(db, scope);
  const units = await idsByName(db, scope, 'unit_of_measurements', 'abbreviation');
  const parties = await idsByName(db, scope, party.table, party.table === 'branches' ? 'code' : undefined);
  const existing = new Map<string, number>();
  for (const price of await untyped(db)
    .selectFrom(definition.table)
    .select(['id', 'item_id', party.field, 'unit_of_measurement_id', 'effective_date'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    existing.set(
      `${price.item_id}|${price[party.field] ?? ''}|${price.unit_of_measurement_id}|${String(price.effective_date)}`,
      Number(price.id),
    );
  }
  const schema = createSchema(definition);
  const labels: Record<string, string> = { price: 'Price', effective_date: 'Effective date' };
  const seen = new Map<string, number>();
  for (const [index, raw] of rows.entries()) {
    const read = reader(kind, raw, index + 2);
    const sku = read.text('sku');
    const item = items.get(sku);
    if (sku && !item) read.problems.push(`Item SKU: no item has the SKU ${sku}.`);
    const unitId = read.named('unit', units, 'unit (by name or abbreviation)', true);
    const partyId = read.named(party.column, parties, party.what);
    const price = amount(raw.price);
    if (Number.isNaN(price)) read.problems.push(`Price: “${read.text('price')}” is not an amount.`);
    const date = read.text('effective_date');
    if (date && !DATE.test(date)) read.problems.push(`Effective date: “${date}” is not a date written YYYY-MM-DD.`);
    const values: Values = {
      item_id: item?.id ?? null,
      [party.field]: partyId ?? null,
      unit_of_measurement_id: unitId ?? null,
      price: price ?? null,
      effective_date: date,
    };
    if (read.problems.length === 0) read.problems.push(...fieldProblems(schema, values, labels));
    const same = `${item?.id}|${partyId ?? ''}|${unitId}|${date}`;
    if (read.problems.length === 0 && seen.has(same)) read.problems.push(`The same price is on row ${seen.get(same)} too.`);
    seen.set(same, read.row);
    if (noted(plan, read)) continue;
    const known = existing.get(same);
    if (known === undefined) plan.creates.push(values);
    else if (onExisting === 'update') plan.updates.push({ id: known, values: { price: values.price } });
    else plan.skipped += 1;
  }
  return plan;
}

/**
 * Reads an opening stock file into a plan: per place, the adjustment lines (reason: opening
 * balance) that bring each item to the row's quantity there. An item whose opening balance at the
 * place was posted before is skipped, or — to update — given the difference.
 */
async function planOpening(db: Db, scope: Scope, kind: ImportKind, rows: Row[], onExisting: OnExisting): Promise<Plan> {
  const plan = newPlan();
  plan.openings = new Map();
  const items = await itemsBySku(db, scope);
  const units = await idsByName(db, scope, 'unit_of_measurements', 'abbreviation');
  const warehouses = await idsByName(db, scope, 'warehouses', 'code');
  const branches = await idsByName(db, scope, 'branches', 'code');
  // What opening balances already put at each place, in base units, by item.
  const opened = new Map<string, number>();
  const earlier = await db
    .selectFrom('document_lines')
    .innerJoin('stock_adjustments', 'stock_adjustments.id', 'document_lines.document_id')
    .select([
      'document_lines.item_id',
      'stock_adjustments.branch_id',
      'stock_adjustments.warehouse_id',
      sql<number>`sum(document_lines.base_quantity)`.as('quantity'),
    ])
    .where('document_lines.document_type', '=', 'stock-adjustment')
    .where('document_lines.reason', '=', 'opening_balance')
    .where('stock_adjustments.business_id', '=', scope.businessId)
    .where('stock_adjustments.status', '=', 'posted')
    .where('stock_adjustments.deleted_at', 'is', null)
    .groupBy(['document_lines.item_id', 'stock_adjustments.branch_id', 'stock_adjustments.warehouse_id'])
    .execute();
  for (const row of earlier) {
    const place = row.branch_id ? `branch:${row.branch_id}` : `warehouse:${row.warehouse_id}`;
    opened.set(`${row.item_id}|${place}`, Number(row.quantity));
  }
  const seen = new Map<string, number>();
  for (const [index, raw] of rows.entries()) {
    const read = reader(kind, raw, index + 2);
    const sku = read.text('sku');
    const item = items.get(sku);
    if (sku && !item) read.problems.push(`Item SKU: no item has the SKU ${sku}.`);
    const name = read.text('place').toLowerCase();
    const warehouseId = warehouses.get(name);
    const branchId = branches.get(name);
    if (name && warehouseId && branchId)
      read.problems.push(`Warehouse or branch: “${read.text('place')}” names a warehouse and a branch; use the code of one.`);
    else if (name && !warehouseId && !branchId) read.problems.push(`Warehouse or branch: none is named “${read.text('place')}”.`);
    const unitId = read.text('unit') === '' ? (item?.unitId ?? null) : read.named('unit', units, 'unit (by name or abbreviation)');
    const quantity = amount(raw.quantity);
    if (Number.isNaN(quantity) || (quantity !== undefined && quantity <= 0))
      read.problems.push(`Quantity: “${read.text('quantity')}” is not a quantity above 0.`);
    const cost = amount(raw.unit_cost);
    if (Number.isNaN(cost) || (cost !== undefined && cost < 0))
      read.problems.push(`Unit cost: “${read.text('unit_cost')}” is not an amount.`);
    const place = branchId && !warehouseId ? `branch:${branchId}` : `warehouse:${warehouseId}`;
    const same = `${item?.id}|${place}`;
    if (read.problems.length === 0 && seen.has(same)) read.problems.push(`${item!.name} at this place is on row ${seen.get(same)} too.`);
    seen.set(same, read.row);
    const before = opened.get(same);
    // Opened before: corrected by the difference, which is figured in the item's own unit.
    if (before !== undefined && onExisting === 'update' && item && unitId !== item.unitId)
      read.problems.push(`Unit: ${item.name} has an opening balance here already; give its quantity in its own unit to correct it.`);
    if (noted(plan, read) || !item || quantity === undefined || unitId === undefined || unitId === null) continue;
    const change = before === undefined ? quantity : (toThousandths(quantity) - before) / 1000;
    if ((before !== undefined && onExisting === 'skip') || change === 0) {
      plan.skipped += 1;
      continue;
    }
    const group = plan.openings.get(place) ?? {
      place: branchId && !warehouseId ? { branch_id: branchId } : { warehouse_id: warehouseId! },
      lines: [],
    };
    plan.openings.set(place, group);
    group.lines.push({
      item_id: item.id,
      unit_of_measurement_id: unitId,
      quantity: change,
      reason: 'opening_balance',
      note: before === undefined ? null : 'Opening stock imported again: the difference.',
      unit_cost: cost ?? null,
    });
  }
  return plan;
}

/** Makes the brands, item types and classifications the rows name, and puts their ids in. */
async function makeNamed(trx: Trx, scope: Scope, plan: Plan): Promise<void> {
  const ids = new Map<string, number>();
  for (const [table, names] of plan.makes) {
    const definition = registryByTable(table);
    for (const name of names) {
      // A unit made from a file's name is its own abbreviation ("pc").
      const record = await createRecord(trx, scope, definition, table === 'unit_of_measurements' ? { name, abbreviation: name } : { name });
      ids.set(`${table}|${name}`, Number(record.id));
    }
  }
  const resolve = (values: Values) => {
    for (const [field, value] of Object.entries(values)) if (isMade(value)) values[field] = ids.get(`${value.make}|${value.name}`);
  };
  for (const values of plan.creates) resolve(values);
  for (const { values } of plan.updates) resolve(values);
}

/** The lists an items import may add to, by table. */
const MADE_BY_IMPORT = new Map(
  ['unit-of-measurements', 'brands', 'item-types', 'item-classifications'].map((name) => [getResource(name).table, getResource(name)]),
);
const registryByTable = (table: string): ResourceDefinition => MADE_BY_IMPORT.get(table)!;

/** Inserts the new records by hundreds, their history and counts with them. */
async function insertAll(trx: Trx, scope: Scope, definition: ResourceDefinition, creates: Values[]): Promise<void> {
  const now = nowIso();
  for (let start = 0; start < creates.length; start += INSERT_BATCH) {
    const batch = creates.slice(start, start + INSERT_BATCH).map((values) => ({
      ...Object.fromEntries(Object.entries(values).map(([name, value]) => [name, toStorage(definition.fields[name], value)])),
      business_id: scope.businessId,
      created_at: now,
      updated_at: now,
      version: 1,
    }));
    const ids = await untyped(trx).insertInto(definition.table).values(batch).returning('id').execute();
    await trx
      .insertInto('activity_log')
      .values(
        ids.map((row) => ({
          business_id: scope.businessId,
          user_id: scope.userId,
          resource: definition.name,
          record_id: Number(row.id),
          action: 'created',
          changes: null,
          summary: 'Imported from a file',
          happened_at: now,
          made_at: null,
          made_offline: 0,
        })),
      )
      .execute();
  }
  await adjustCount(trx, scope.businessId, definition.name, creates.length, 0);
}

async function updateAll(trx: Trx, scope: Scope, definition: ResourceDefinition, updates: Plan['updates']): Promise<void> {
  const now = nowIso();
  for (const { id, values } of updates) {
    const columns = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, toStorage(definition.fields[name], value)]));
    await untyped(trx)
      .updateTable(definition.table)
      .set({ ...columns, updated_at: now, version: sql`version + 1` })
      .where('id', '=', id)
      .where('business_id', '=', scope.businessId)
      .execute();
    await trx
      .insertInto('activity_log')
      .values({
        business_id: scope.businessId,
        user_id: scope.userId,
        resource: definition.name,
        record_id: id,
        action: 'updated',
        changes: null,
        summary: 'Updated from an imported file',
        happened_at: now,
        made_at: null,
        made_offline: 0,
      })
      .execute();
  }
}

/** Posts the opening stock: one adjustment per place, its lines reason "opening balance", each at its unit cost. */
async function postOpenings(trx: Trx, scope: Scope, plan: Plan): Promise<{ id: number; number: string }[]> {
  const posted: { id: number; number: string }[] = [];
  for (const { place, lines } of plan.openings!.values()) {
    const adjustment = await createRecord(trx, scope, stockAdjustments, {
      ...place,
      date: todayInManila(),
      notes: 'Opening stock, imported from a file.',
      lines: lines.map(({ unit_cost: _cost, ...line }) => line),
    });
    // Each line keeps what the goods cost, as the file says.
    for (const [position, line] of lines.entries()) {
      if (line.unit_cost === null) continue;
      await trx
        .updateTable('document_lines')
        .set({ unit_price: pesosToCentavos(Number(line.unit_cost)) })
        .where('document_type', '=', 'stock-adjustment')
        .where('document_id', '=', Number(adjustment.id))
        .where('position', '=', position)
        .execute();
    }
    posted.push({ id: Number(adjustment.id), number: String(adjustment.number) });
  }
  return posted;
}

function planFor(name: ImportKindName) {
  return async (db: Db, scope: Scope, rows: Row[], onExisting: OnExisting): Promise<Plan> => {
    const kind = importKind(name)!;
    if (name === 'items') return planItems(db, scope, kind, rows, onExisting);
    if (name === 'contacts') return planContacts(db, scope, kind, rows, onExisting);
    if (name === 'purchase-prices')
      return planPrices(db, scope, kind, rows, onExisting, {
        column: 'supplier',
        field: 'contact_id',
        table: 'contacts',
        what: 'supplier',
      });
    if (name === 'sale-prices')
      return planPrices(db, scope, kind, rows, onExisting, { column: 'branch', field: 'branch_id', table: 'branches', what: 'branch' });
    return planOpening(db, scope, kind, rows, onExisting);
  };
}

/** What an import did or would do; `problem_rows` counts every row with a problem, `problems` lists the first ones. */
const outcomeOf = (rows: Row[], plan: Plan, adjustments: ImportOutcome['adjustments'] = []): ImportOutcome => ({
  total: rows.length,
  created: plan.openings ? [...plan.openings.values()].reduce((total, group) => total + group.lines.length, 0) : plan.creates.length,
  updated: plan.updates.length,
  skipped: plan.skipped,
  problem_rows: plan.problems.length,
  problems: plan.problems.slice(0, PROBLEMS_SHOWN),
  made: [...plan.makes].flatMap(([table, names]) => [...names].map((name) => `${registryByTable(table).singular} ${name}`)),
  adjustments,
});

/** What the import would do, and every row's problems: nothing written. */
export async function checkImport(db: Db, scope: Scope, name: ImportKindName, rows: Row[], onExisting: OnExisting) {
  return outcomeOf(rows, await planFor(name)(db, scope, rows, onExisting));
}

/**
 * The import, in the caller's transaction: answers the problems (and writes nothing) when any row
 * has one, else writes every row.
 */
export async function runImport(trx: Trx, scope: Scope, name: ImportKindName, rows: Row[], onExisting: OnExisting) {
  const plan = await planFor(name)(trx, scope, rows, onExisting);
  if (plan.problems.length > 0) return outcomeOf(rows, plan);
  if (plan.openings) return outcomeOf(rows, plan, await postOpenings(trx, scope, plan));
  const definition = getResource(importKind(name)!.resource);
  await makeNamed(trx, scope, plan);
  await insertAll(trx, scope, definition, plan.creates);
  await updateAll(trx, scope, definition, plan.updates);
  return outcomeOf(rows, plan);
}
