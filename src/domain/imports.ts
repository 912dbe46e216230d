/**
 * What a business can bring in from a spreadsheet (CSV or Excel): each kind's columns, matched to
 * a file's headers by their label, key or another usual name, with an example for its template.
 * The import screen and the server both read these; the server decides.
 */

export type ImportKindName = 'items' | 'contacts' | 'purchase-prices' | 'sale-prices' | 'opening-stock';

export interface ImportColumn {
  /** The name a row is sent under. */
  key: string;
  /** The template's header, and what the preview calls it. */
  label: string;
  required?: boolean;
  /**
   * It says which record the row is (an item's SKU, a contact's name and type): a row updating a
   * record needs only these, and changes what else the file gives.
   */
  identifies?: boolean;
  /** The template's example value. */
  example: string;
  /** Other headers taken for it (lower case). */
  aliases?: readonly string[];
}

export interface ImportKind {
  name: ImportKindName;
  title: string;
  /** The resource it writes, whose create (and update) permission it needs. */
  resource: string;
  /** When a row is the same record as one already there: "the same SKU". */
  sameWhen: string;
  /** What one new row makes, in words: "item", "opening balance". */
  made: string;
  /**
   * A row naming one already there is a correction made as a new record (an opening balance's
   * correcting adjustment), so updating needs only the permission to create. Absent: it updates
   * the record, which needs the permission to update.
   */
  correctsByCreating?: true;
  /** The resource whose list shows what it made, when not its own (opening stock: the stocks). */
  listedIn?: string;
  columns: readonly ImportColumn[];
}

/** The permission actions an import of `kind` needs: to create its records, and to update them when it updates. */
export const importNeeds = (kind: ImportKind, updates: boolean): ('create' | 'update')[] =>
  updates && !kind.correctsByCreating ? ['create', 'update'] : ['create'];

const unit: ImportColumn = {
  key: 'unit',
  label: 'Unit',
  required: true,
  identifies: true,
  example: 'pc',
  aliases: ['uom', 'unit of measurement', 'unit of measure'],
};
const sku: ImportColumn = {
  key: 'sku',
  label: 'Item SKU',
  required: true,
  identifies: true,
  example: 'LM-BLG',
  aliases: ['sku', 'item', 'item code', 'code'],
};
const price: ImportColumn = { key: 'price', label: 'Price', required: true, example: '12.50', aliases: ['unit price', 'amount'] };
const effective: ImportColumn = {
  key: 'effective_date',
  label: 'Effective date',
  required: true,
  identifies: true,
  example: '2026-12-01',
  aliases: ['date', 'effective', 'from'],
};

export const IMPORT_KINDS: readonly ImportKind[] = [
  {
    name: 'items',
    title: 'Items',
    resource: 'items',
    sameWhen: 'the same SKU',
    made: 'item',
    columns: [
      { ...sku, label: 'SKU', aliases: ['item code', 'code', 'item sku'] },
      { key: 'name', label: 'Name', required: true, example: 'Lucky Me! Beef Noodles 55g', aliases: ['item', 'item name', 'description'] },
      { key: 'barcode', label: 'Barcode', example: '4800016644290', aliases: ['ean', 'upc', 'ean-13'] },
      { ...unit, identifies: false },
      { key: 'brand', label: 'Brand', example: 'Lucky Me!' },
      { key: 'item_type', label: 'Item type', example: 'Grocery', aliases: ['type'] },
      { key: 'item_classification', label: 'Item classification', example: 'Noodles', aliases: ['classification', 'category'] },
      { key: 'reorder_level', label: 'Reorder level', example: '24', aliases: ['reorder point', 'minimum'] },
      { key: 'vat_category', label: 'VAT', example: 'VATable', aliases: ['vatable', 'vat category', 'with vat', 'tax'] },
      {
        key: 'sc_pwd_discount',
        label: 'Senior citizen / PWD discount',
        example: 'no',
        aliases: ['sc/pwd', 'senior discount', 'pwd discount'],
      },
    ],
  },
  {
    name: 'contacts',
    title: 'Contacts',
    resource: 'contacts',
    sameWhen: 'the same name and type',
    made: 'contact',
    columns: [
      {
        key: 'name',
        label: 'Name',
        required: true,
        identifies: true,
        example: 'Carinderia ni Mang Tomas',
        aliases: ['contact', 'contact name'],
      },
      {
        key: 'type',
        label: 'Type',
        required: true,
        identifies: true,
        example: 'Customer',
        aliases: ['contact type', 'customer or supplier'],
      },
      { key: 'company_name', label: 'Company name', example: 'Tomas Food House', aliases: ['company', 'business name'] },
      { key: 'tin', label: 'TIN', example: '123-456-789-000' },
      { key: 'email', label: 'Email', example: 'tomas@example.com', aliases: ['e-mail'] },
      { key: 'phone', label: 'Phone', example: '(02) 8123 4567', aliases: ['telephone', 'landline'] },
      { key: 'mobile', label: 'Mobile', example: '0917 123 4567', aliases: ['cellphone', 'cp', 'mobile number'] },
      { key: 'address', label: 'Address', example: '12 Rizal St., Makati' },
      { key: 'payment_terms_days', label: 'Payment terms (days)', example: '30', aliases: ['terms', 'payment terms'] },
      { key: 'credit_limit', label: 'Credit limit', example: '50000' },
    ],
  },
  {
    name: 'purchase-prices',
    title: 'Purchase prices',
    resource: 'purchase-item-prices',
    sameWhen: 'the same item, supplier, unit and effective date',
    made: 'purchase price',
    columns: [
      sku,
      { key: 'supplier', label: 'Supplier', example: 'Monde Nissin Distributor', aliases: ['contact', 'vendor'] },
      unit,
      price,
      effective,
    ],
  },
  {
    name: 'sale-prices',
    title: 'Sale prices',
    resource: 'sale-item-prices',
    sameWhen: 'the same item, branch, unit and effective date',
    made: 'sale price',
    columns: [sku, { key: 'branch', label: 'Branch', example: 'Makati', aliases: ['store', 'outlet'] }, unit, price, effective],
  },
  {
    name: 'opening-stock',
    title: 'Opening stock',
    resource: 'stock-adjustments',
    sameWhen: 'the same item at the same place',
    made: 'opening balance',
    correctsByCreating: true,
    listedIn: 'stocks',
    columns: [
      sku,
      {
        key: 'place',
        label: 'Warehouse or branch',
        required: true,
        identifies: true,
        example: 'Valenzuela Central',
        aliases: ['warehouse', 'branch', 'location', 'place'],
      },
      { key: 'quantity', label: 'Quantity', required: true, example: '48', aliases: ['qty', 'on hand', 'stock'] },
      { ...unit, required: false, identifies: false, label: 'Unit (blank: the item’s own)' },
      { key: 'unit_cost', label: 'Unit cost', example: '9.75', aliases: ['cost', 'unit price'] },
    ],
  },
];

/**
 * The note of an opening balance's line that corrects an opening balance made before (the opening
 * stock imported again writes the difference with it): a correction, not a second opening.
 */
export const OPENING_AGAIN_NOTE = 'Opening stock imported again: the difference.';

/** What to do with a row naming a record already there. */
export type OnExisting = 'update' | 'skip';

/** A row of the file the import refuses, and why, in words. */
export type RowProblem = {
  /** The row of the file, counting the header as row 1. */
  row: number;
  messages: string[];
};

/** What an import did, or its check would do (`POST /api/imports/{kind}`). */
export type ImportOutcome = {
  total: number;
  created: number;
  updated: number;
  /** Rows naming a record already here, to update, that would change nothing. */
  unchanged: number;
  skipped: number;
  /** How many rows have a problem; `problems` lists the first ones. */
  problem_rows: number;
  problems: RowProblem[];
  /** Units, brands, item types and classifications made for names the rows use ("Unit pcs — did you mean pc?"). */
  made: string[];
  /** Updates: how many records each field changes in. */
  changes: { field: string; records: number }[];
  /** The stock adjustments opening stock was posted in. */
  adjustments: { id: number; number: string }[];
};

export const importKind = (name: string): ImportKind | undefined => IMPORT_KINDS.find((kind) => kind.name === name);

/** The most rows one import takes. */
export const IMPORT_MAX_ROWS = 100_000;

/** The largest file the import screen reads. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

const normal = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[_\s]+/g, ' ');

/** Which header of the file each column takes (its index), by label, key or alias; null when none. */
export function matchColumns(kind: ImportKind, headers: readonly string[]): Record<string, number | null> {
  const taken = new Set<number>();
  const matched: Record<string, number | null> = {};
  for (const column of kind.columns) {
    const names = [column.label, column.key, ...(column.aliases ?? [])].map(normal);
    const at = headers.findIndex((header, index) => !taken.has(index) && names.includes(normal(header)));
    matched[column.key] = at === -1 ? null : at;
    if (at !== -1) taken.add(at);
  }
  return matched;
}
