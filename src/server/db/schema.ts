import type { Generated } from 'kysely';

/**
 * Every table the migrations create, as the queries see it. Timestamps are ISO strings on SQLite
 * and Date on PostgreSQL (see `toIsoTimestamp`); dates are `YYYY-MM-DD` text on both. Money
 * (centavos), quantities (thousandths) and counts are numbers on both: PostgreSQL's bigints are
 * parsed as numbers (see `openDatabase`). Flags are 0 or 1. A column with a default is
 * `Generated`: an insert may leave it out.
 */

type Timestamp = string | Date;
/** A `YYYY-MM-DD` day. */
type Day = string;
type Flag = number;

interface RecordColumns {
  id: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  version: Generated<number>;
}

export interface BusinessesTable extends RecordColumns {
  registered_name: string | null;
  trade_name: string | null;
  name: string;
  tin: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  vat_registered: Generated<Flag>;
  /** Its unit prices include the 12 % VAT (shelf prices), or VAT is added on top. */
  prices_include_vat: Generated<Flag>;
}

export interface UsersTable extends RecordColumns {
  name: string;
  email: string;
  username: string | null;
  password_hash: string;
  security_pin_hash: string | null;
}

export interface MembershipsTable extends RecordColumns {
  user_id: number;
  business_id: number;
  userable_type: string | null;
  userable_id: number | null;
  /** Every place of the business, at this level: `none`, `view` or `operate` (domain/places.ts). */
  all_places: Generated<string>;
}

/** A branch or warehouse a user holds in a business, at a level (`view`, `operate`), beside `memberships.all_places`. */
export interface UserPlacesTable {
  business_id: number;
  user_id: number;
  place_type: string;
  place_id: number;
  level: string;
  created_at: Timestamp;
}

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface RolesTable extends RecordColumns {
  business_id: number;
  name: string;
  description: string | null;
}

export interface PermissionsTable extends RecordColumns {
  name: string;
  group: string;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface IdempotencyKeysTable {
  user_id: number;
  /** 0 for calls made without a business. */
  business_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: Timestamp;
}

export interface ResourceCountsTable {
  business_id: number;
  resource: string;
  active: Generated<number>;
  trashed: Generated<number>;
}

/**
 * A record of a working-set table inserted, updated or deleted, written by the table's triggers
 * (migration 2026-11-28-01). `tx`: PostgreSQL only, the writing transaction's id.
 */
export interface ChangeLogTable {
  id: Generated<number>;
  business_id: number;
  table_name: string;
  record_id: number;
  tx: Generated<number>;
}

/** The one row naming the change log's history: another after a restore or a copy. */
export interface ChangeLogEpochTable {
  epoch: string;
  /** The last change pruned (tx, id): a cursor before it can no longer be followed. */
  pruned_tx: Generated<number>;
  pruned_id: Generated<number>;
}

/** One change of a record; rows are only ever inserted. `changes` is JSON text. */
export interface ActivityLogTable {
  id: Generated<number>;
  business_id: number;
  user_id: number;
  resource: string;
  record_id: number;
  action: string;
  changes: string | null;
  summary: string | null;
  happened_at: Timestamp;
  made_at: Timestamp | null;
  made_offline: Generated<Flag>;
}

/** A file attached to a record of `resource`; its bytes are in `file_contents`. */
export interface FilesTable extends RecordColumns {
  business_id: number;
  resource: string;
  record_id: number;
  name: string;
  mime_type: string;
  size: number;
  sha256: string;
  uploaded_by: number | null;
}

export interface FileContentsTable {
  file_id: number;
  content: Buffer;
}

interface BusinessRecordColumns extends RecordColumns {
  business_id: number;
}

/** A record with a name and a description: brands, item classifications and types, contact types. */
export interface DescribedTable extends BusinessRecordColumns {
  name: string;
  description: string | null;
}

/** Measuring masses and units of measurement. */
export interface AbbreviatedTable extends BusinessRecordColumns {
  name: string;
  abbreviation: string;
}

export interface BranchesTable extends BusinessRecordColumns {
  /** The BIR branch code, as text: 000 or 00000 is the head office. */
  branch_code: string | null;
  code: string;
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
}

export interface WarehousesTable extends BusinessRecordColumns {
  /** The BIR branch code, as text: 000 or 00000 is the head office. */
  branch_code: string | null;
  code: string;
  name: string;
  address: string | null;
  phone: string | null;
}

export interface ContactsTable extends BusinessRecordColumns {
  vat_registered: Generated<Flag>;
  contact_type_id: number;
  name: string;
  company_name: string | null;
  tin: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  address: string | null;
  payment_terms_days: number | null;
  credit_limit: number | null;
  /** Credit kept on the account (returns settled `account`) less what payments' account-credit tenders used: never below zero. */
  credit_balance: Generated<number>;
}

export interface ItemsTable extends BusinessRecordColumns {
  sku: string;
  barcode: string | null;
  name: string;
  description: string | null;
  brand_id: number | null;
  item_type_id: number | null;
  item_classification_id: number | null;
  unit_of_measurement_id: number;
  measuring_mass_id: number | null;
  mass_value: number | null;
  reorder_level: number | null;
  /** `VatCategory`: vatable, exempt or zero_rated. */
  vat_category: Generated<string>;
  /** A senior citizen's or PWD's 20 % discount applies to it (medicine, food …). */
  sc_pwd_discount: Generated<Flag>;
  /** JSON text: the quantity breaks. */
  purchase_discounts: Generated<string>;
  sale_discounts: Generated<string>;
}

export interface ConversionsTable extends BusinessRecordColumns {
  item_id: number | null;
  from_unit_id: number;
  to_unit_id: number;
  factor: number;
}

export interface PurchaseItemPricesTable extends BusinessRecordColumns {
  item_id: number;
  contact_id: number | null;
  unit_of_measurement_id: number;
  price: number;
  effective_date: Day;
}

export interface SaleItemPricesTable extends BusinessRecordColumns {
  item_id: number;
  branch_id: number | null;
  unit_of_measurement_id: number;
  price: number;
  effective_date: Day;
}

export interface ServicesTable extends BusinessRecordColumns {
  code: string;
  name: string;
  description: string | null;
}

export interface ServicePricesTable extends BusinessRecordColumns {
  service_id: number;
  branch_id: number | null;
  price: number;
  effective_date: Day;
}

/** One counter per business and numbering series. */
export interface DocumentCountersTable {
  business_id: number;
  series: string;
  value: number;
}

/** A block of a series' numbers held by one user's device (documents/number-blocks.ts). */
export interface NumberBlocksTable {
  id: Generated<number>;
  business_id: number;
  user_id: number;
  /** The document kind (its resource name) whose series it is of. */
  resource: string;
  series: string;
  first: number;
  last: number;
  reserved_at: string;
  /** The last date (Asia/Manila) a document may carry to take one of its numbers. */
  expires_on: string;
  returned_at: string | null;
  /** The first of the numbers handed back unused (through `last`). */
  returned_from: number | null;
}

/** A number of a block given to a document: never twice. */
export interface NumberBlockUsesTable {
  block_id: number;
  sequence: number;
}

/** A balance per item and location; the movements sum to it. */
export interface StocksTable extends BusinessRecordColumns {
  item_id: number;
  location_type: string;
  location_id: number;
  quantity_on_hand: Generated<number>;
  quantity_in_transit: Generated<number>;
  /** Of what is on hand, how much may not be sold or moved until released or written off. */
  quantity_quarantined: Generated<number>;
}

/** Rows are only ever inserted: deltas in the item's base unit. */
export interface StockMovementsTable {
  id: Generated<number>;
  business_id: number;
  stock_id: number;
  item_id: number;
  location_type: string;
  location_id: number;
  quantity: number;
  in_transit: Generated<number>;
  /** Into quarantine (above zero) or out of it (below). */
  quarantined: Generated<number>;
  document_type: string;
  document_id: number;
  document_number: string;
  document_date: Day;
  moved_at: Timestamp;
  /** 0 until the follow-up after its document's commit has costed it (docs/costing.md), then 1. */
  costed: Generated<number>;
}

/**
 * What one document did to an item's business-wide quantity and worth (docs/costing.md), dated as
 * the document; walked in (date, sequence) order, each row keeps what the item held after it.
 */
export interface CostEntriesTable {
  id: Generated<number>;
  business_id: number;
  item_id: number;
  date: Day;
  /** Orders a day's entries: the id of the document's first movement of the item. */
  sequence: number;
  document_type: string;
  document_id: number;
  /** Signed thousandths of the base unit: on hand and in transit, at every place. */
  quantity: number;
  /** `CostBasis`: at the average, at a worth the document gave (`given_value`), or at its source lines' cost. */
  basis: string;
  given_value: number | null;
  value: number;
  quantity_after: number;
  value_after: number;
  average_value: number;
  average_quantity: number;
}

/** Each item's cost after its last entry: the row a costing of the item locks first. */
export interface ItemCostsTable {
  id: Generated<number>;
  business_id: number;
  item_id: number;
  quantity: number;
  value: number;
  average_value: number;
  average_quantity: number;
}

/** A line of any document with items, by document type and id. */
export interface DocumentLinesTable {
  id: Generated<number>;
  business_id: number;
  document_type: string;
  document_id: number;
  position: number;
  item_id: number;
  unit_of_measurement_id: number;
  quantity: number;
  base_quantity: number;
  unit_price: number;
  /** Hundredths of a percent. */
  discount_percent: Generated<number>;
  /** How the line was taxed (`VatCategory`): the item's, or exempt on a senior citizen's or PWD's line. */
  vat_category: Generated<string>;
  /** The line took the buyer's senior citizen or PWD discount. */
  sc_pwd: Generated<Flag>;
  /** Net of VAT. */
  amount: number;
  vat: number;
  source_line_id: number | null;
  quantity_done: Generated<number>;
  /** A stock adjustment's or a return's line's reason and note; null on other kinds' lines. */
  reason: string | null;
  note: string | null;
  /** A return line's disposition (`RETURN_DISPOSITIONS`): restock, quarantine or write_off; null on other kinds' lines. */
  disposition: string | null;
  /** What the goods it moved cost, in centavos (docs/costing.md); null on a line that moved none. */
  cost: number | null;
}

/**
 * What a document was issued with (`documents/particulars.ts`), by document type and id: the
 * seller, its place and its customer or supplier as they were when it was made; and its prints.
 */
export interface DocumentParticularsTable {
  business_id: number;
  document_type: string;
  document_id: number;
  /** The registered name, or the business's name when it had none. */
  seller_name: string;
  seller_trade_name: string | null;
  seller_address: string | null;
  seller_tin: string | null;
  seller_vat_registered: Generated<Flag>;
  /** `branch` or `warehouse`; null for a document at no place. */
  place_type: string | null;
  place_name: string | null;
  place_address: string | null;
  place_branch_code: string | null;
  /** The contact; null for a document without one. */
  party_name: string | null;
  party_address: string | null;
  party_tin: string | null;
  /** How many times it was printed: the first is the original, every later one a reprint. */
  prints: Generated<number>;
  first_printed_at: Timestamp | null;
  last_printed_at: Timestamp | null;
}

/** The columns every document made at one place (a branch or a warehouse) has. */
interface OnePlaceDocument extends BusinessRecordColumns {
  number: string;
  branch_id: number | null;
  warehouse_id: number | null;
  date: Day;
  notes: string | null;
  status: string;
  created_by: number | null;
}

/** The columns every purchasing and sales document has. */
interface DocumentHeader extends OnePlaceDocument {
  reference_number: string | null;
  contact_id: number;
}

/** `DocumentTotals`, and the VAT terms its lines were priced on. */
interface Totals {
  prices_include_vat: Generated<Flag>;
  subtotal: Generated<number>;
  discount_total: Generated<number>;
  sc_pwd_discount: Generated<number>;
  less_vat: Generated<number>;
  vatable_sales: Generated<number>;
  exempt_sales: Generated<number>;
  zero_rated_sales: Generated<number>;
  vat_total: Generated<number>;
  total: Generated<number>;
}

/** What was paid of a bill or an invoice, what memoranda took off it, and what is left. */
interface Balance {
  amount_paid: Generated<number>;
  amount_adjusted: Generated<number>;
  balance: Generated<number>;
}

interface Payment {
  amount: number;
  payment_method: string;
  payment_reference: string | null;
}

export interface PurchaseOrdersTable extends DocumentHeader, Totals {
  expected_date: Day | null;
}

export interface ReceiveOrdersTable extends DocumentHeader, Totals {
  purchase_order_id: number | null;
}

export interface BillsTable extends DocumentHeader, Totals, Balance {
  purchase_order_id: number | null;
  due_date: Day | null;
}

export interface BillPaymentsTable extends DocumentHeader, Payment {
  bill_id: number;
}

export interface QuotationsTable extends DocumentHeader, Totals {
  valid_until: Day | null;
}

export interface InvoicesTable extends DocumentHeader, Totals, Balance {
  quotation_id: number | null;
  due_date: Day | null;
  /** A senior citizen's or PWD's discount: `senior` or `pwd`, with the ID's number and the name on it. */
  buyer_discount: string | null;
  buyer_discount_id_number: string | null;
  buyer_discount_name: string | null;
  /** Why it was let take its customer past their credit limit; null when it did not. */
  credit_override_reason: string | null;
}

export interface InvoicePaymentsTable extends DocumentHeader, Payment {
  invoice_id: number;
}

/** A tender of a payment (`domain/tenders.ts`): a method, its amount, and what traces it; in order, never edited. */
export interface PaymentTendersTable {
  id: Generated<number>;
  business_id: number;
  /** The payment's document type: `invoice-payment`, `bill-payment`. */
  payment_type: string;
  payment_id: number;
  position: number;
  method: string;
  amount: number;
  reference: string | null;
  bank: string | null;
  check_number: string | null;
  check_date: Day | null;
  /** Of cash: what the customer handed over, in centavos (at least the amount); null when not told. */
  received: number | null;
}

export interface SalesReturnsTable extends DocumentHeader, Totals {
  invoice_id: number;
  /** The invoice's date, as its credit memorandum names it. */
  invoice_date: Day;
  /** `credit` (taken off the invoice's balance) or `refund` (paid back in tenders). */
  settlement: string;
  /** What it took off the invoice's balance: its total when credited, else nothing. */
  amount: Generated<number>;
  /** What was paid back in its tenders: its total when refunded, else nothing. */
  refunded: Generated<number>;
}

export interface PurchaseReturnsTable extends DocumentHeader, Totals {
  bill_id: number;
  /** The bill's date, as its debit memorandum names it. */
  bill_date: Day;
  /** `credit` (taken off the bill's balance) or `refund` (paid back by the supplier in tenders). */
  settlement: string;
  /** What it took off the bill's balance: its total when so settled, else nothing. */
  amount: Generated<number>;
  /** What the supplier paid back in its tenders: its total when refunded, else nothing. */
  refunded: Generated<number>;
}

export interface CreditMemorandaTable extends DocumentHeader {
  invoice_id: number;
  amount: number;
  reason: string;
}

export interface DebitMemorandaTable extends DocumentHeader {
  bill_id: number;
  amount: number;
  reason: string;
}

/** The columns of a logistics document: goods between two locations. */
interface TwoLocations extends BusinessRecordColumns {
  number: string;
  from_location_type: string;
  from_location_id: number;
  to_location_type: string;
  to_location_id: number;
  date: Day;
  notes: string | null;
  status: string;
  created_by: number | null;
}

export interface StockRequestsTable extends TwoLocations {
  needed_by: Day | null;
}

export interface StockTransfersTable extends TwoLocations {
  stock_request_id: number | null;
  stock_return_id: number | null;
}

export interface StockReceivesTable extends TwoLocations {
  stock_transfer_id: number;
}

export interface StockReturnsTable extends TwoLocations {
  stock_transfer_id: number;
  reason: string;
}

/** Stock corrected at one place: its lines carry signed quantities and their reasons. */
export interface StockAdjustmentsTable extends OnePlaceDocument {
  stock_count_id: number | null;
}

/** A stock count at one place; its lines and entries are tables of their own. */
export interface StockCountsTable extends OnePlaceDocument {
  scope: string;
  brand_id: number | null;
  item_classification_id: number | null;
  item_type_id: number | null;
  /** Counted without seeing what is expected, until its counting is finished. */
  blind: Generated<Flag>;
  stock_adjustment_id: number | null;
}

/** An item of a count: what the ledger held when it was added to the count, and the sum of its entries (thousandths of the base unit). */
export interface StockCountLinesTable {
  id: Generated<number>;
  business_id: number;
  stock_count_id: number;
  item_id: number;
  expected: number;
  counted: Generated<number>;
  entries: Generated<number>;
  /** On hand when the count was posted: what its difference was taken from. */
  posted_on_hand: number | null;
}

/** One quantity a counter added to a count, in the unit counted and in the item's base unit. */
export interface StockCountEntriesTable {
  id: Generated<number>;
  business_id: number;
  stock_count_id: number;
  item_id: number;
  unit_of_measurement_id: number;
  quantity: number;
  base_quantity: number;
  created_by: number | null;
  created_at: Timestamp;
}

/** One row per backup taken or failed. */
export interface BackupsTable {
  id: Generated<number>;
  kind: string;
  started_at: Timestamp;
  duration_ms: number;
  file: string | null;
  bytes: number | null;
  error: string | null;
}

/** One row (id 1) that the servers sharing a database claim before a scheduled backup. */
export interface BackupScheduleTable {
  id: number;
  last_started_at: Timestamp | null;
  started_by: string | null;
}

export interface Database {
  businesses: BusinessesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  user_places: UserPlacesTable;
  sessions: SessionsTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  idempotency_keys: IdempotencyKeysTable;
  resource_counts: ResourceCountsTable;
  files: FilesTable;
  file_contents: FileContentsTable;
  activity_log: ActivityLogTable;
  change_log: ChangeLogTable;
  change_log_epoch: ChangeLogEpochTable;
  branches: BranchesTable;
  warehouses: WarehousesTable;
  contact_types: DescribedTable;
  contacts: ContactsTable;
  brands: DescribedTable;
  item_classifications: DescribedTable;
  item_types: DescribedTable;
  measuring_masses: AbbreviatedTable;
  unit_of_measurements: AbbreviatedTable;
  items: ItemsTable;
  conversions: ConversionsTable;
  purchase_item_prices: PurchaseItemPricesTable;
  sale_item_prices: SaleItemPricesTable;
  services: ServicesTable;
  service_prices: ServicePricesTable;
  document_counters: DocumentCountersTable;
  number_blocks: NumberBlocksTable;
  number_block_uses: NumberBlockUsesTable;
  stocks: StocksTable;
  stock_movements: StockMovementsTable;
  cost_entries: CostEntriesTable;
  item_costs: ItemCostsTable;
  document_lines: DocumentLinesTable;
  document_particulars: DocumentParticularsTable;
  purchase_orders: PurchaseOrdersTable;
  receive_orders: ReceiveOrdersTable;
  bills: BillsTable;
  bill_payments: BillPaymentsTable;
  quotations: QuotationsTable;
  invoices: InvoicesTable;
  invoice_payments: InvoicePaymentsTable;
  payment_tenders: PaymentTendersTable;
  credit_memoranda: CreditMemorandaTable;
  sales_returns: SalesReturnsTable;
  purchase_returns: PurchaseReturnsTable;
  debit_memoranda: DebitMemorandaTable;
  stock_requests: StockRequestsTable;
  stock_transfers: StockTransfersTable;
  stock_receives: StockReceivesTable;
  stock_returns: StockReturnsTable;
  stock_adjustments: StockAdjustmentsTable;
  stock_counts: StockCountsTable;
  stock_count_lines: StockCountLinesTable;
  stock_count_entries: StockCountEntriesTable;
  backups: BackupsTable;
  backup_schedule: BackupScheduleTable;
}
