import { sql } from 'kysely';
import type { z } from 'zod';
import { adjustmentLinesInput } from '../../domain/document-lines';
import { todayInManila, type VatCategory } from '../../domain/documents';
import { attributeName } from '../../domain/fields';
import {
  importKind,
  OPENING_AGAIN_NOTE,
  type ImportKind,
  type ImportKindName,
  type ImportOutcome,
  type OnExisting,
  type RowProblem,
} from '../../domain/imports';
import { holdsAny, permissionName } from '../../domain/permissions';
import { operatesRecord, viewsRecord } from '../../domain/places';
import { baseFactor, type ConversionRow } from '../../domain/pricing';
import { MAX_LINE_THOUSANDTHS, toThousandths } from '../../domain/quantity';
import type { ResourceDefinition } from '../../domain/resource';
import { createSchema } from '../../domain/resource-schemas';
import { getResource } from '../../domain/resources/registry';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import { HttpError } from '../errors';
import { fromStorage } from '../resources/codec';
import { createRecord, createRecords, RefusedRecords, updateRecord } from '../resources/record-service';
import { contactsOfOtherKind, type ContactKind } from '../resources/contact-kinds';
import { baseUnitLocks } from '../resources/items-store';
import { placeAccessOf } from '../resources/places';
import { adjustCount } from '../resources/resource-counts';
import { giveWay } from '../yielding';

/**
 * Imports from a spreadsheet, all or nothing, decided in the database like every other write.
 *
 * One import runs as one transaction that first takes its kind's lock (the business's count row
 * of the resource it writes), so imports of one kind in one business run one after the other:
 * the second reads what the first wrote and skips or updates it — the same file sent twice at
 * once, from two tabs or two people, applies once on PostgreSQL as on SQLite. Then every row is
 * read, its names looked up (a brand, unit, supplier, branch or warehouse by its name; an item by
 * its SKU) and its values checked by the same rules as the record's form, and rows with a problem
 * are answered in words, naming the row as the spreadsheet numbers it, the column and the value.
 * A row writing at a place (opening stock at a warehouse or branch, a sale price for a branch)
 * needs the user to operate there, and a price for every branch to operate at every place; a row
 * naming a place they do not even view is told only that it is not one of theirs.
 * Otherwise every row is written through the record engine, as a form writes it: new records by
 * the engine's `createRecords` (by hundreds, each checked, counted and in the history as one
 * made by its form), updates of only the fields the file gives by `updateRecord` (guarded by the
 * version the plan read), opening stock as stock adjustments made by `createRecord`, each line
 * with its unit cost. Whatever the engine still refuses is told as the rows' problems.
 *
 * A check is the same run, rolled back (`checkImport`): whatever the import would refuse, the
 * check refuses first, row by row.
 */

type Row = Record<string, unknown>;
type Values = Record<string, unknown>;

interface Plan {
  creates: { row: number; values: Values }[];
  /** Records changed: only the fields that change, and the version read. */
  updates: { row: number; id: number; version: number; values: Values }[];
  unchanged: number;
  skipped: number;
  problems: RowProblem[];
  /** Each field's column, as a refusal of the engine names it on its row ("Unit: …"). */
  labels: Record<string, string>;
  /** Named records to make first, by table: each name as first written, and its note ("did you mean pc?"). */
  makes: Map<string, Map<string, { name: string; note: string }>>;
  /** Opening stock: per place, its lines and the file's row of each. */
  openings?: Map<string, { place: { branch_id?: number; warehouse_id?: number }; lines: Values[]; rows: number[] }>;
}

/** Shown problems stop here: a file with more says how many more. */
const PROBLEMS_SHOWN = 200;

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value).trim());
const key = (value: unknown) => text(value).toLowerCase();
/** A value quoted in a message, cut short when long. */
const quoted = (value: string) => `“${value.length > 60 ? `${value.slice(0, 57)}…` : value}”`;

/** A number as a spreadsheet holds it: 1,250.50 or ₱1,250.50 included; undefined when blank; NaN when not a number. */
function amount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  const cleaned = text(value).replace(/[₱,\s]/g, '');
  if (cleaned === '') return undefined;
  // A number too long to hold (400 digits) is not taken for Infinity.
  return /^-?\d+(\.\d+)?$/.test(cleaned) && Number.isFinite(Number(cleaned)) ? Number(cleaned) : Number.NaN;
}

const YES = new Set(['yes', 'y', 'true', '1', 'oo']);
const NO = new Set(['no', 'n', 'false', '0', 'hindi']);

/** An item's VAT as a sheet writes it: its category's name, or yes/no for VATable or not. */
function vatCategoryOf(written: string): VatCategory | undefined {
  const word = written
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
  if (YES.has(word) || word === 'vatable' || word === 'vat' || word === '12%') return 'vatable';
  if (NO.has(word) || word === 'exempt' || word === 'vat exempt' || word === 'non vat') return 'exempt';
  if (word === 'zero rated' || word === 'zero' || word === '0%') return 'zero_rated';
  return undefined;
}

/** A name as it is compared for "did you mean": letters and digits only, a plural's s dropped. */
const stem = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/(es|s)$/, '');

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

/** Checks values as the record's own form does: the values as kept (a TIN as the BIR prints it), or the problems by column. */
function checked(schema: z.ZodType, values: Values, labels: Record<string, string>): { values?: Values; problems: string[] } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { values: parsed.data as Values, problems: [] };
  return {
    problems: parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? '');
      return labels[field] ? `${labels[field]}: ${issue.message}` : issue.message;
    }),
  };
}

interface Reader {
  row: number;
  problems: string[];
  /** Notes each required column left blank; `which`: only those that say which record the row is (an update's). */
  require(which?: 'identifying'): void;
  /** Whether the file gives this column at all (an update changes only those). */
  has(column: string): boolean;
  text(column: string): string;
  /** The column's heading, as a message names it. */
  label(column: string): string;
  /** The id of a required or optional name, or a problem. */
  named(column: string, ids: Map<string, number>, what: string, required?: boolean): number | null | undefined;
  /** The item the row's SKU names, or a problem (none when the SKU is blank: `require` says so). */
  item<T>(items: Map<string, T>): T | undefined;
}

function reader(kind: ImportKind, raw: Row, row: number): Reader {
  const problems: string[] = [];
  const label = (column: string) => kind.columns.find((each) => each.key === column)?.label ?? column;
  return {
    row,
    problems,
    require(which) {
      for (const column of kind.columns)
        if (column.required && (which === undefined || column.identifies) && text(raw[column.key]) === '')
          problems.push(`${column.label} is empty.`);
    },
    has: (column) => Object.hasOwn(raw, column),
    text: (column) => text(raw[column]),
    label,
    named(column, ids, what, required = false) {
      const name = text(raw[column]);
      if (name === '') return required ? undefined : null;
      const id = ids.get(name.toLowerCase());
      if (id === undefined) problems.push(`${label(column)}: no ${what} is named ${quoted(name)}.`);
      return id;
    },
    item(items) {
      const sku = text(raw.sku);
      const item = items.get(sku);
      if (sku && !item) problems.push(`Item SKU: no item has the SKU ${quoted(sku)}.`);
      return item;
    },
  };
}

/** Each row of the file with its reader, giving way to other requests between rows. */
async function* eachRow(kind: ImportKind, rows: Row[]): AsyncGenerator<{ raw: Row; read: Reader }> {
  for (const [index, raw] of rows.entries()) {
    await giveWay();
    yield { raw, read: reader(kind, raw, index + 2) };
  }
}

/** Adds a row's problems to the plan's. */
function noted(plan: Plan, read: Reader): boolean {
  if (read.problems.length === 0) return false;
  plan.problems.push({ row: read.row, messages: read.problems });
  return true;
}

/**
 * A row's place (`place`: the record's place columns, as the row names them in `column`), refused
 * with a problem on `read` unless the user operates there as the record's rule asks; `work` says
 * what is done there ("posts its opening stock"). A place they do not view is only said not to be
 * theirs; a row naming none (a price for every branch) needs every place. Returns whether it was
 * refused: nothing more is figured about a refused place (what is on hand there, what was opened
 * there before).
 */
function refusedPlace(scope: Scope, definition: ResourceDefinition, read: Reader, column: string, place: Values, work: string): boolean {
  const rule = definition.places;
  const access = placeAccessOf(scope);
  if (!rule || operatesRecord(access, rule, place)) return false;
  const label = read.label(column);
  const written = read.text(column);
  if (written === '')
    read.problems.push(
      `${label}: left blank, it is a ${attributeName(definition.singular)} for every branch, which only someone who operates at every place may import.`,
    );
  else if (viewsRecord(access, rule, place))
    read.problems.push(`${label}: you do not operate at ${quoted(written)}; only someone who operates there ${work}.`);
  else read.problems.push(`${label}: ${quoted(written)} is not one of your places.`);
  return true;
}

const newPlan = (labels: Record<string, string>): Plan => ({
  creates: [],
  updates: [],
  unchanged: 0,
  skipped: 0,
  problems: [],
  labels,
  makes: new Map(),
});

const schemas = new Map<ResourceDefinition, z.ZodType>();
/** A resource's create body, built once. */
function schemaOf(definition: ResourceDefinition): z.ZodType {
  if (!schemas.has(definition)) schemas.set(definition, createSchema(definition));
  return schemas.get(definition)!;
}

/** The lists an items import may add to, by column: the resource, its table, and what a row calls it. */
const NAMED_LISTS = [
  { column: 'unit', field: 'unit_of_measurement_id', resource: 'unit-of-measurements', what: 'unit' },
  { column: 'brand', field: 'brand_id', resource: 'brands', what: 'brand' },
  { column: 'item_type', field: 'item_type_id', resource: 'item-types', what: 'item type' },
  { column: 'item_classification', field: 'item_classification_id', resource: 'item-classifications', what: 'item classification' },
] as const;

const isMade = (value: unknown): value is { make: string; name: string } => typeof value === 'object' && value !== null && 'make' in value;

/**
 * Where a row names a unit, brand, type or classification that is not there yet: the import makes
 * it, if the user may create that kind of record and its name is one a form would take. A name
 * close to one already there ("pcs" beside "pc") is said, so a typo is not made into a new unit.
 */
function toMake(
  plan: Plan,
  scope: Scope,
  read: Reader,
  list: (typeof NAMED_LISTS)[number],
  name: string,
  existing: Map<string, number>,
): { make: string; name: string } | undefined {
  const definition = getResource(list.resource);
  if (!holdsAny(scope.permissions, [permissionName('create', definition.permission)])) {
    read.problems.push(
      `${labelOf(list.column)}: no ${list.what} is named ${quoted(name)}, and you may not create ${definition.plural.toLowerCase()}.`,
    );
    return undefined;
  }
  const values = list.resource === 'unit-of-measurements' ? { name, abbreviation: name } : { name };
  const made = schemaOf(definition).safeParse(values);
  if (!made.success) {
    const why = made.error.issues.map((issue) => issue.message.replace(/^The /, 'the ')).join(' ');
    read.problems.push(`${labelOf(list.column)}: no ${list.what} is named ${quoted(name)}, and a new one cannot be named so: ${why}`);
    return undefined;
  }
  const table = definition.table;
  if (!plan.makes.has(table)) plan.makes.set(table, new Map());
  const names = plan.makes.get(table)!;
  if (!names.has(name.toLowerCase())) {
    const similar = [...existing.keys()].find((known) => stem(known) !== '' && stem(known) === stem(name));
    names.set(name.toLowerCase(), { name, note: similar ? ` — did you mean ${quoted(similar)}?` : '' });
  }
  return { make: table, name: names.get(name.toLowerCase())!.name };
}

const ITEM_LABELS: Record<string, string> = {
  sku: 'SKU',
  name: 'Name',
  barcode: 'Barcode',
  unit_of_measurement_id: 'Unit',
  brand_id: 'Brand',
  item_type_id: 'Item type',
  item_classification_id: 'Item classification',
  reorder_level: 'Reorder level',
  vat_category: 'VAT',
  sc_pwd_discount: 'Senior citizen / PWD discount',
};
const labelOf = (column: string) => importKind('items')!.columns.find((each) => each.key === column)?.label ?? column;

/** An item as kept, for comparing an update and writing its history. */
interface KeptItem {
  id: number;
  version: number;
  trashed: boolean;
  barcode: string | null;
  record: Values;
}

/**
 * Reads every row of an items file into a plan. A new item takes every column (a blank one is
 * blank, or the form's default); an item already there, to update, changes only in the columns
 * the file gives and whose cell is not blank — a column the file lacks never resets a field.
 */
async function planItems(db: Db, scope: Scope, kind: ImportKind, rows: Row[], onExisting: OnExisting): Promise<Plan> {
  const plan = newPlan(ITEM_LABELS);
  const definition = getResource('items');
  const lists = new Map<string, Map<string, number>>();
  for (const list of NAMED_LISTS)
    lists.set(
      list.column,
      await idsByName(db, scope, getResource(list.resource).table, list.column === 'unit' ? 'abbreviation' : undefined),
    );
  const existing = new Map<string, KeptItem>();
  const barcodes = new Map<string, string>();
  for (const item of await untyped(db).selectFrom('items').selectAll().where('business_id', '=', scope.businessId).execute()) {
    await giveWay();
    const record: Values = {};
    for (const name of Object.keys(ITEM_LABELS)) record[name] = fromStorage(definition.fields[name], item[name]);
    existing.set(String(item.sku), {
      id: Number(item.id),
      version: Number(item.version),
      trashed: item.deleted_at !== null,
      barcode: item.barcode as string | null,
      record,
    });
    if (item.barcode) barcodes.set(String(item.barcode), String(item.sku));
  }
  const schema = schemaOf(definition);
  const seen = new Map<string, number>();
  const seenBarcodes = new Map<string, number>();
  for await (const { raw, read } of eachRow(kind, rows)) {
    const sku = read.text('sku');
    const known = existing.get(sku);
    if (sku && seen.has(sku)) read.problems.push(`SKU ${sku} is on row ${seen.get(sku)} too.`);
    if (sku) seen.set(sku, read.row);
    if (known?.trashed) read.problems.push(`SKU ${sku} is an item in the trash: restore it there, or give this row another SKU.`);
    const updating = known !== undefined && !known.trashed && onExisting === 'update';
    read.require(updating ? 'identifying' : undefined);
    if (known && !known.trashed && onExisting === 'skip' && read.problems.length === 0) {
      plan.skipped += 1;
      continue;
    }
    // An update takes what the file gives; a new item every column.
    const given = (column: string) => !updating || (read.has(column) && read.text(column) !== '');
    const values: Values = {};
    if (!updating) values.sku = sku;
    if (given('name')) values.name = read.text('name');
    if (given('barcode')) values.barcode = read.text('barcode') || null;
    for (const list of NAMED_LISTS) {
      if (!given(list.column)) continue;
      const name = read.text(list.column);
      const ids = lists.get(list.column)!;
      if (name === '') values[list.field] = null;
      else if (ids.has(name.toLowerCase())) values[list.field] = ids.get(name.toLowerCase());
      else values[list.field] = toMake(plan, scope, read, list, name, ids);
    }
    if (given('vat_category')) {
      const written = read.text('vat_category');
      const category = written === '' ? 'vatable' : vatCategoryOf(written);
      if (!category) read.problems.push(`VAT: ${quoted(written)} is none of VATable, VAT-exempt, zero-rated (or yes, no).`);
      values.vat_category = category;
    }
    if (given('sc_pwd_discount')) {
      const written = read.text('sc_pwd_discount').toLowerCase();
      if (written !== '' && !YES.has(written) && !NO.has(written))
        read.problems.push(`Senior citizen / PWD discount: ${quoted(read.text('sc_pwd_discount'))} is neither yes nor no.`);
      values.sc_pwd_discount = YES.has(written);
    }
    if (given('reorder_level')) {
      const reorder = amount(raw.reorder_level);
      if (Number.isNaN(reorder)) read.problems.push(`Reorder level: ${quoted(read.text('reorder_level'))} is not a number.`);
      values.reorder_level = reorder ?? null;
    }
    const barcode = values.barcode as string | null | undefined;
    if (barcode) {
      const holder = barcodes.get(barcode);
      if (holder !== undefined && holder !== sku) {
        const trashed = existing.get(holder)?.trashed;
        read.problems.push(`Barcode ${barcode} is already item ${holder}’s${trashed ? ' (in the trash)' : ''}.`);
      } else if (seenBarcodes.has(barcode) && seenBarcodes.get(barcode) !== read.row)
        read.problems.push(`Barcode ${barcode} is on row ${seenBarcodes.get(barcode)} too.`);
      seenBarcodes.set(barcode, read.row);
    }
    if (read.problems.length === 0) {
      // Checked as the form checks it, a record to be made standing in by a placeholder id.
      const stand = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isMade(value) ? 1 : value]));
      const whole = updating ? { ...known.record, ...stand } : stand;
      const result = checked(schema, whole, ITEM_LABELS);
      read.problems.push(...result.problems);
      if (result.values) for (const name of Object.keys(values)) if (!isMade(values[name])) values[name] = result.values[name] ?? null;
    }
    if (noted(plan, read)) continue;
    if (!updating) plan.creates.push({ row: read.row, values });
    else addUpdate(plan, read.row, known, values);
  }
  if (plan.updates.length > 0) await refuseFixedUnits(db, scope, plan);
  return plan;
}

/** An update of the fields that change (compared as kept), or a row that changes nothing. */
function addUpdate(plan: Plan, row: number, known: { id: number; version: number; record: Values }, values: Values): void {
  const changing = Object.fromEntries(
    Object.entries(values).filter(
      ([name, value]) => isMade(value) || JSON.stringify(value ?? null) !== JSON.stringify(known.record[name] ?? null),
    ),
  );
  if (Object.keys(changing).length === 0) plan.unchanged += 1;
  else plan.updates.push({ row, id: known.id, version: known.version, values: changing });
}

/** An item's base unit is fixed once stock or documents use it: a row changing it is refused, as the item's form refuses it. */
async function refuseFixedUnits(db: Db, scope: Scope, plan: Plan): Promise<void> {
  const changing = plan.updates.filter((update) => update.values.unit_of_measurement_id !== undefined);
  const locks = await baseUnitLocks(
    db,
    scope,
    changing.map((update) => update.id),
  );
  for (const update of changing) {
    const lock = locks.get(update.id);
    if (lock) plan.problems.push({ row: update.row, messages: [`Unit: ${lock}`] });
  }
  plan.updates = plan.updates.filter((update) => update.values.unit_of_measurement_id === undefined || !locks.has(update.id));
}

/** Reads every row of a contacts file into a plan. */
async function planContacts(db: Db, scope: Scope, kind: ImportKind, rows: Row[], onExisting: OnExisting): Promise<Plan> {
  const definition = getResource('contacts');
  const labels = Object.fromEntries(kind.columns.map((column) => [column.key, column.label]));
  Object.assign(labels, { contact_type_id: 'Type' });
  const plan = newPlan(labels);
  const types = await idsByName(db, scope, 'contact_types');
  const existing = new Map<string, { id: number; version: number; record: Values }>();
  const fields = [
    'contact_type_id',
    'name',
    'company_name',
    'tin',
    'email',
    'phone',
    'mobile',
    'address',
    'payment_terms_days',
    'credit_limit',
  ];
  for (const contact of await untyped(db)
    .selectFrom('contacts')
    .selectAll()
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    await giveWay();
    const record = Object.fromEntries(fields.map((name) => [name, fromStorage(definition.fields[name], contact[name])]));
    existing.set(`${contact.contact_type_id}|${key(contact.name)}`, { id: Number(contact.id), version: Number(contact.version), record });
  }
  const schema = schemaOf(definition);
  const seen = new Map<string, number>();
  for await (const { raw, read } of eachRow(kind, rows)) {
    const typeId = read.named('type', types, 'contact type', true);
    const same = `${typeId}|${key(read.text('name'))}`;
    if (typeId && seen.has(same)) read.problems.push(`${read.text('name')} is on row ${seen.get(same)} too.`);
    seen.set(same, read.row);
    const known = existing.get(same);
    const updating = known !== undefined && onExisting === 'update';
    read.require(updating ? 'identifying' : undefined);
    if (known && onExisting === 'skip' && read.problems.length === 0) {
      plan.skipped += 1;
      continue;
    }
    const values: Values = updating ? {} : { contact_type_id: typeId ?? null, name: read.text('name') };
    for (const column of ['company_name', 'tin', 'email', 'phone', 'mobile', 'address']) {
      if (read.has(column) && (!updating || read.text(column) !== '')) values[column] = read.text(column) || null;
    }
    for (const [column, what] of [
      ['payment_terms_days', 'a number'],
      ['credit_limit', 'an amount'],
    ] as const) {
      if (!read.has(column) || (updating && read.text(column) === '')) continue;
      const value = amount(raw[column]);
      if (Number.isNaN(value)) read.problems.push(`${labels[column]}: ${quoted(read.text(column))} is not ${what}.`);
      values[column] = value ?? null;
    }
    if (read.problems.length === 0) {
      const result = checked(schema, updating ? { ...known.record, ...values } : values, labels);
      read.problems.push(...result.problems);
      if (result.values) for (const name of Object.keys(values)) values[name] = result.values[name] ?? null;
    }
    if (noted(plan, read)) continue;
    if (!updating) plan.creates.push({ row: read.row, values });
    else addUpdate(plan, read.row, known, values);
  }
  return plan;
}

interface ItemForStock {
  id: number;
  unitId: number;
  name: string;
}

/** Live item ids by SKU, with each item's base unit. */
async function itemsBySku(db: Db, scope: Scope): Promise<Map<string, ItemForStock>> {
  const items = new Map<string, ItemForStock>();
  for (const item of await db
    .selectFrom('items')
    .select(['id', 'sku', 'name', 'unit_of_measurement_id'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    await giveWay();
    items.set(item.sku, { id: item.id, unitId: item.unit_of_measurement_id, name: item.name });
  }
  return items;
}

/** Unit names by id, as a message names them. */
async function unitNames(db: Db, scope: Scope): Promise<Map<number, string>> {
  const rows = await db.selectFrom('unit_of_measurements').select(['id', 'name']).where('business_id', '=', scope.businessId).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads every row of a purchase or sale price file into a plan. */
async function planPrices(
  db: Db,
  scope: Scope,
  kind: ImportKind,
  rows: Row[],
  onExisting: OnExisting,
  party: { column: string; field: string; table: string; what: string; kind?: ContactKind },
): Promise<Plan> {
  const definition = getResource(kind.resource);
  const items = await itemsBySku(db, scope);
  const units = await idsByName(db, scope, 'unit_of_measurements', 'abbreviation');
  const parties = await idsByName(db, scope, party.table, party.table === 'branches' ? 'code' : undefined);
  const existing = new Map<string, { id: number; version: number; record: Values }>();
  for (const price of await untyped(db)
    .selectFrom(definition.table)
    .select(['id', 'version', 'item_id', party.field, 'unit_of_measurement_id', 'effective_date', 'price'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute()) {
    await giveWay();
    existing.set(`${price.item_id}|${price[party.field] ?? ''}|${price.unit_of_measurement_id}|${String(price.effective_date)}`, {
      id: Number(price.id),
      version: Number(price.version),
      record: { price: fromStorage(definition.fields.price, price.price) },
    });
  }
  const schema = schemaOf(definition);
  const labels: Record<string, string> = {
    price: 'Price',
    effective_date: 'Effective date',
    item_id: 'Item SKU',
    unit_of_measurement_id: 'Unit',
    [party.field]: party.what[0].toUpperCase() + party.what.slice(1),
  };
  const plan = newPlan(labels);
  // No customer as a supplier's price, as the price's form refuses it: the contacts the rows name, asked at once.
  const named = new Set(rows.flatMap((raw) => parties.get(key(raw[party.column])) ?? []));
  const otherKind = party.kind ? await contactsOfOtherKind(db, scope, party.kind, [...named]) : new Map<number, string>();
  const seen = new Map<string, number>();
  for await (const { raw, read } of eachRow(kind, rows)) {
    read.require();
    const item = read.item(items);
    const unitId = read.named('unit', units, 'unit (by name or abbreviation)', true);
    const partyId = read.named(party.column, parties, party.what);
    const refused = partyId ? otherKind.get(partyId) : undefined;
    if (refused) read.problems.push(`Supplier: ${refused}`);
    // A sale price for a branch is written there; one for every branch, at every place.
    if (partyId !== undefined) refusedPlace(scope, definition, read, party.column, { [party.field]: partyId }, 'imports its prices');
    const price = amount(raw.price);
    if (Number.isNaN(price)) read.problems.push(`Price: ${quoted(read.text('price'))} is not an amount.`);
    const date = read.text('effective_date');
    if (date && !DATE.test(date)) read.problems.push(`Effective date: ${quoted(date)} is not a date written YYYY-MM-DD.`);
    const values: Values = {
      item_id: item?.id ?? null,
      [party.field]: partyId ?? null,
      unit_of_measurement_id: unitId ?? null,
      price: price ?? null,
      effective_date: date,
    };
    if (read.problems.length === 0) {
      const result = checked(schema, values, labels);
      read.problems.push(...result.problems);
      if (result.values) values.price = result.values.price;
    }
    const same = `${item?.id}|${partyId ?? ''}|${unitId}|${date}`;
    if (read.problems.length === 0 && seen.has(same)) read.problems.push(`The same price is on row ${seen.get(same)} too.`);
    seen.set(same, read.row);
    if (noted(plan, read)) continue;
    const known = existing.get(same);
    if (known === undefined) plan.creates.push({ row: read.row, values });
    else if (onExisting === 'update') addUpdate(plan, read.row, known, { price: values.price });
    else plan.skipped += 1;
  }
  return plan;
}

/** The business's conversions, for whether a row's unit can be told in its item's base unit. */
async function conversionRows(db: Db, scope: Scope): Promise<ConversionRow[]> {
  const rows = await db
    .selectFrom('conversions')
    .select(['item_id', 'from_unit_id', 'to_unit_id', 'factor'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((row) => ({ itemId: row.item_id, fromUnitId: row.from_unit_id, toUnitId: row.to_unit_id, factor: row.factor }));
}

/**
 * Reads an opening stock file into a plan: per place, the adjustment lines (reason: opening
 * balance) that bring each item to the row's quantity there. An item whose opening balance at the
 * place was posted before is skipped, or — to update — given the difference. Each line is checked
 * as a stock adjustment's line is (its quantity, its unit's conversion, what is on hand for a
 * decrease), so the adjustment the import posts takes it.
 */
async function planOpening(db: Db, scope: Scope, kind: ImportKind, rows: Row[], onExisting: OnExisting): Promise<Plan> {
  const plan = newPlan({});
  plan.openings = new Map();
  const items = await itemsBySku(db, scope);
  const units = await idsByName(db, scope, 'unit_of_measurements', 'abbreviation');
  const names = await unitNames(db, scope);
  const conversions = await conversionRows(db, scope);
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
  // What is on hand, for a correction that takes stock away.
  const onHand = new Map<string, number>();
  for (const row of await db
    .selectFrom('stocks')
    .select(['item_id', 'location_type', 'location_id', 'quantity_on_hand'])
    .where('business_id', '=', scope.businessId)
    .execute()) {
    await giveWay();
    onHand.set(`${row.item_id}|${row.location_type}:${row.location_id}`, Number(row.quantity_on_hand));
  }
  const seen = new Map<string, number>();
  for await (const { raw, read } of eachRow(kind, rows)) {
    read.require();
    const item = read.item(items);
    const name = read.text('place').toLowerCase();
    const warehouseId = warehouses.get(name);
    const branchId = branches.get(name);
    if (name && warehouseId && branchId)
      read.problems.push(`Warehouse or branch: ${quoted(read.text('place'))} names a warehouse and a branch; use the code of one.`);
    else if (name && !warehouseId && !branchId) read.problems.push(`Warehouse or branch: none is named ${quoted(read.text('place'))}.`);
    const refusedHere =
      (branchId !== undefined) !== (warehouseId !== undefined) &&
      refusedPlace(
        scope,
        stockAdjustments,
        read,
        'place',
        branchId ? { branch_id: branchId } : { warehouse_id: warehouseId },
        'posts its opening stock',
      );
    const unitId = read.text('unit') === '' ? (item?.unitId ?? null) : read.named('unit', units, 'unit (by name or abbreviation)');
    const factor = item && unitId ? baseFactor(conversions, { id: item.id, baseUnitId: item.unitId }, unitId) : 1;
    if (item && unitId && factor === undefined)
      read.problems.push(
        `Unit: ${item.name} is counted in ${names.get(item.unitId)}, and no conversion takes ${quoted(read.text('unit'))} to it; add the conversion, or give the quantity in ${names.get(item.unitId)}.`,
      );
    const quantity = amount(raw.quantity);
    const aboveZero = quantity !== undefined && quantity > 0;
    if (quantity !== undefined && !aboveZero) read.problems.push(`Quantity: ${quoted(read.text('quantity'))} is not a quantity above 0.`);
    if (aboveZero && factor !== undefined && Math.abs(toThousandths(quantity * factor)) > MAX_LINE_THOUSANDTHS)
      read.problems.push(`Quantity: ${quoted(read.text('quantity'))} is more than one line may hold.`);
    const cost = amount(raw.unit_cost);
    if (Number.isNaN(cost)) read.problems.push(`Unit cost: ${quoted(read.text('unit_cost'))} is not an amount.`);
    // As a stock adjustment's line takes them: its quantity within its limits and not rounding to nothing, its cost as a price.
    const line = adjustmentLinesInput.safeParse([
      {
        item_id: item?.id ?? 1,
        unit_of_measurement_id: unitId ?? 1,
        quantity: aboveZero ? quantity : 1,
        reason: 'opening_balance',
        unit_price: Number.isNaN(cost) ? null : (cost ?? null),
      },
    ]);
    for (const issue of line.success ? [] : line.error.issues) {
      if (issue.path.includes('quantity')) read.problems.push(`Quantity: ${quoted(read.text('quantity'))}: ${issue.message}`);
      if (issue.path.includes('unit_price')) read.problems.push(`Unit cost: ${quoted(read.text('unit_cost'))}: ${issue.message}`);
    }
    const place = branchId && !warehouseId ? `branch:${branchId}` : `warehouse:${warehouseId}`;
    const same = `${item?.id}|${place}`;
    if (read.problems.length === 0 && seen.has(same)) read.problems.push(`${item!.name} at this place is on row ${seen.get(same)} too.`);
    seen.set(same, read.row);
    const before = refusedHere ? undefined : opened.get(same);
    // Opened before: corrected by the difference, which is figured in the item's own unit.
    if (before !== undefined && onExisting === 'update' && item && unitId !== item.unitId)
      read.problems.push(`Unit: ${item.name} has an opening balance here already; give its quantity in its own unit to correct it.`);
    if (read.problems.length === 0 && item && quantity !== undefined && before !== undefined && onExisting === 'update') {
      const taken = before - toThousandths(quantity);
      const held = onHand.get(same) ?? 0;
      if (taken > held)
        read.problems.push(
          `Quantity: bringing ${item.name}’s opening balance down to ${quantity} takes ${taken / 1000} away, and ${held / 1000} is on hand there now.`,
        );
    }
    if (noted(plan, read) || !item || quantity === undefined || unitId === undefined || unitId === null) continue;
    const change = before === undefined ? quantity : (toThousandths(quantity) - before) / 1000;
    if (before !== undefined && onExisting === 'skip') {
      plan.skipped += 1;
      continue;
    }
    if (change === 0) {
      plan.unchanged += 1;
      continue;
    }
    const group = plan.openings.get(place) ?? {
      place: branchId && !warehouseId ? { branch_id: branchId } : { warehouse_id: warehouseId! },
      lines: [],
      rows: [],
    };
    plan.openings.set(place, group);
    group.rows.push(read.row);
    group.lines.push({
      item_id: item.id,
      unit_of_measurement_id: unitId,
      quantity: change,
      reason: 'opening_balance',
      note: before === undefined ? null : OPENING_AGAIN_NOTE,
      unit_price: cost ?? null,
    });
  }
  return plan;
}

/** Makes the units, brands, item types and classifications the rows name, through their own create, and puts their ids in. */
async function makeNamed(trx: Trx, scope: Scope, plan: Plan): Promise<void> {
  const ids = new Map<string, number>();
  for (const [table, names] of plan.makes) {
    const definition = MADE_BY_IMPORT.get(table)!;
    for (const { name } of names.values()) {
      await giveWay();
      // A unit made from a file's name is its own abbreviation ("pc").
      const record = await createRecord(trx, scope, definition, table === 'unit_of_measurements' ? { name, abbreviation: name } : { name });
      ids.set(`${table}|${name}`, Number(record.id));
    }
  }
  const resolve = (values: Values) => {
    for (const [field, value] of Object.entries(values)) if (isMade(value)) values[field] = ids.get(`${value.make}|${value.name}`);
  };
  for (const { values } of plan.creates) resolve(values);
  for (const { values } of plan.updates) resolve(values);
}

/** The lists an items import may add to, by table. */
const MADE_BY_IMPORT = new Map(NAMED_LISTS.map((list) => [getResource(list.resource).table, getResource(list.resource)]));

/** A refusal of the engine, told as a row's problems: each field's message under its column. */
function refusalMessages(error: HttpError, labels: Record<string, string>): string[] {
  const messages = Object.entries(error.errors ?? {}).flatMap(([field, said]) =>
    said.map((message) => (labels[field] ? `${labels[field]}: ${message}` : message)),
  );
  return messages.length > 0 ? messages : [error.message];
}

/** Creates the new records through the engine's own create, by hundreds; what it refuses becomes the rows' problems. */
async function createAll(trx: Trx, scope: Scope, definition: ResourceDefinition, plan: Plan): Promise<void> {
  try {
    await createRecords(
      trx,
      scope,
      definition,
      plan.creates.map(({ values }) => values),
    );
  } catch (error) {
    if (!(error instanceof RefusedRecords)) throw error;
    for (const { index, error: refusal } of error.refusals)
      plan.problems.push({ row: plan.creates[index].row, messages: refusalMessages(refusal, plan.labels) });
  }
}

/**
 * Writes each update through the engine's own update, as a form's edit: only the fields that
 * change, guarded by the version the plan read (a record changed meanwhile by someone's form is
 * refused, naming its row, rather than overwritten). What it refuses becomes the rows' problems.
 */
async function updateAll(trx: Trx, scope: Scope, definition: ResourceDefinition, plan: Plan): Promise<void> {
  for (const { row, id, version, values } of plan.updates) {
    await giveWay();
    try {
      await updateRecord(trx, scope, definition, id, values, version);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      const messages =
        error.statusCode === 412
          ? ['This record was changed by someone else while the file was imported; check the file again.']
          : refusalMessages(error, plan.labels);
      plan.problems.push({ row, messages });
    }
  }
}

/**
 * A refusal of the adjustment's own store, told as the rows' problems: a line's field message on
 * that line's row, anything else on the first row of the place.
 */
function asRowProblems(error: HttpError, rows: number[]): RowProblem[] {
  const problems = new Map<number, string[]>();
  const add = (row: number, message: string) => problems.set(row, [...(problems.get(row) ?? []), message]);
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    const line = /^lines\.(\d+)\./.exec(field);
    for (const message of messages) add(line ? (rows[Number(line[1])] ?? rows[0]) : rows[0], message);
  }
  if (problems.size === 0) add(rows[0], error.message);
  return [...problems].map(([row, messages]) => ({ row, messages }));
}

/** Posts the opening stock: one adjustment per place, its lines reason "opening balance", each with its unit cost. */
async function postOpenings(trx: Trx, scope: Scope, plan: Plan): Promise<{ id: number; number: string }[]> {
  const posted: { id: number; number: string }[] = [];
  for (const { place, lines, rows } of plan.openings!.values()) {
    await giveWay();
    try {
      const adjustment = await createRecord(trx, scope, stockAdjustments, {
        ...place,
        date: todayInManila(),
        notes: 'Opening stock, imported from a file.',
        lines,
      });
      posted.push({ id: Number(adjustment.id), number: String(adjustment.number) });
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      plan.problems.push(...asRowProblems(error, rows));
    }
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
        kind: 'Supplier',
      });
    if (name === 'sale-prices')
      return planPrices(db, scope, kind, rows, onExisting, { column: 'branch', field: 'branch_id', table: 'branches', what: 'branch' });
    return planOpening(db, scope, kind, rows, onExisting);
  };
}

/** Updates: how many records each field changes in, by the field's label. */
function fieldChanges(definition: ResourceDefinition, plan: Plan): ImportOutcome['changes'] {
  const counts = new Map<string, number>();
  for (const { values } of plan.updates) for (const name of Object.keys(values)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, records]) => ({ field: definition.fields[name]?.label ?? name, records }));
}

/** What an import did or would do; `problem_rows` counts every row with a problem, `problems` lists the first ones. */
function outcomeOf(name: ImportKindName, rows: Row[], plan: Plan, adjustments: ImportOutcome['adjustments'] = []): ImportOutcome {
  const problems = [...plan.problems].sort((a, b) => a.row - b.row);
  return {
    total: rows.length,
    created: plan.openings ? [...plan.openings.values()].reduce((total, group) => total + group.lines.length, 0) : plan.creates.length,
    updated: plan.updates.length,
    unchanged: plan.unchanged,
    skipped: plan.skipped,
    problem_rows: problems.length,
    problems: problems.slice(0, PROBLEMS_SHOWN),
    made: [...plan.makes].flatMap(([table, names]) =>
      [...names.values()].map(({ name, note }) => `${MADE_BY_IMPORT.get(table)!.singular} ${name}${note}`),
    ),
    changes: fieldChanges(getResource(importKind(name)!.resource), plan),
    adjustments,
  };
}

/**
 * Takes the import's lock: the business's count row of the resource it writes, held to the end of
 * the transaction. A second import of the kind (and any create of its records) waits here, then
 * plans on what the first wrote.
 */
async function holdImports(trx: Trx, scope: Scope, definition: ResourceDefinition): Promise<void> {
  await adjustCount(trx, scope.businessId, definition.name, 0, 0);
}

/**
 * The import, in the caller's transaction: answers the problems when any row has one (the caller
 * then rolls back whatever was written), else writes every row.
 */
export async function runImport(trx: Trx, scope: Scope, name: ImportKindName, rows: Row[], onExisting: OnExisting): Promise<ImportOutcome> {
  const definition = getResource(importKind(name)!.resource);
  await holdImports(trx, scope, definition);
  const plan = await planFor(name)(trx, scope, rows, onExisting);
  if (plan.problems.length > 0) return outcomeOf(name, rows, plan);
  if (plan.openings) {
    const posted = await postOpenings(trx, scope, plan);
    return outcomeOf(name, rows, plan, plan.problems.length > 0 ? [] : posted);
  }
  await makeNamed(trx, scope, plan);
  await createAll(trx, scope, definition, plan);
  await updateAll(trx, scope, definition, plan);
  return outcomeOf(name, rows, plan);
}

/** Carries a check's outcome out of the transaction it rolls back. */
class CheckedOnly extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('checked only');
  }
}

/**
 * What the import would do, and every row's problems: the import itself, run to its end and
 * rolled back, so a check can never call ready what the import refuses.
 */
export async function checkImport(db: Db, scope: Scope, name: ImportKindName, rows: Row[], onExisting: OnExisting): Promise<ImportOutcome> {
  try {
    await db.transaction().execute(async (trx) => {
      throw new CheckedOnly(await runImport(trx, scope, name, rows, onExisting));
    });
  } catch (error) {
    if (error instanceof CheckedOnly) return { ...error.outcome, adjustments: [] };
    throw error;
  }
  throw new Error('A check always rolls back.');
}
