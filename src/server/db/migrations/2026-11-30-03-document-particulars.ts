import { sql, type Kysely } from 'kysely';
import { FLAG, tables } from './tables';

// The document tables and their types as they stood when this migration was written: a migration
// does not change with the registry after it.
const AT_ONE_PLACE: readonly (readonly [table: string, type: string, hasContact: boolean])[] = [
  ['purchase_orders', 'purchase-order', true],
  ['receive_orders', 'receive-order', true],
  ['bills', 'bill', true],
  ['bill_payments', 'bill-payment', true],
  ['quotations', 'quotation', true],
  ['invoices', 'invoice', true],
  ['invoice_payments', 'invoice-payment', true],
  ['credit_memoranda', 'credit-memorandum', true],
  ['debit_memoranda', 'debit-memorandum', true],
  ['stock_adjustments', 'stock-adjustment', false],
  ['stock_counts', 'stock-count', false],
];
const BETWEEN_PLACES: readonly (readonly [table: string, type: string])[] = [
  ['stock_requests', 'stock-request'],
  ['stock_transfers', 'stock-transfer'],
  ['stock_receives', 'stock-receive'],
  ['stock_returns', 'stock-return'],
];

const COLUMNS = sql.raw(
  'business_id, document_type, document_id, seller_name, seller_trade_name, seller_address, seller_tin, seller_vat_registered, ' +
    'place_type, place_name, place_address, place_branch_code, party_name, party_address, party_tin',
);
// The seller as its copy prints it: the registered name, or the business's name when it has none.
const SELLER = sql.raw("coalesce(nullif(trim(b.registered_name), ''), b.name), b.trade_name, b.address, b.tin, b.vat_registered");
const PLACE = sql.raw('coalesce(br.name, wh.name), coalesce(br.address, wh.address), coalesce(br.branch_code, wh.branch_code)');

/**
 * What a document was issued with, kept with it (`documents/particulars.ts`): the seller's
 * registered name, trade name, address, TIN and VAT registration; its place (branch or warehouse;
 * goods between two places are issued where they leave) with its name, address and BIR branch
 * code; its customer's or supplier's name, address and TIN. One row per document, keyed by its
 * type and id, as its lines are; with how many times it was printed, and when first and last.
 *
 * Documents issued before it are given what is known now — today's business, place and contact —
 * the best there is to know of them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { timestamp } = tables(db);
  await db.schema
    .createTable('document_particulars')
    .addColumn('business_id', 'integer', (col) => col.notNull().references('businesses.id'))
    .addColumn('document_type', 'text', (col) => col.notNull())
    .addColumn('document_id', 'integer', (col) => col.notNull())
    .addColumn('seller_name', 'text', (col) => col.notNull())
    .addColumn('seller_trade_name', 'text')
    .addColumn('seller_address', 'text')
    .addColumn('seller_tin', 'text')
    .addColumn('seller_vat_registered', FLAG, (col) => col.notNull().defaultTo(0))
    .addColumn('place_type', 'text')
    .addColumn('place_name', 'text')
    .addColumn('place_address', 'text')
    .addColumn('place_branch_code', 'text')
    .addColumn('party_name', 'text')
    .addColumn('party_address', 'text')
    .addColumn('party_tin', 'text')
    .addColumn('prints', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('first_printed_at', timestamp)
    .addColumn('last_printed_at', timestamp)
    .addPrimaryKeyConstraint('document_particulars_pk', ['business_id', 'document_type', 'document_id'])
    .execute();

  for (const [table, type, hasContact] of AT_ONE_PLACE) {
    const party = hasContact ? sql.raw('c.name, c.address, c.tin') : sql.raw('null, null, null');
    const contact = hasContact ? sql.raw('left join contacts c on c.id = d.contact_id') : sql.raw('');
    await sql`
      insert into document_particulars (${COLUMNS})
      select d.business_id, ${sql.lit(type)}, d.id, ${SELLER},
        case when d.branch_id is not null then 'branch' when d.warehouse_id is not null then 'warehouse' end, ${PLACE}, ${party}
      from ${sql.table(table)} d
      join businesses b on b.id = d.business_id
      left join branches br on br.id = d.branch_id
      left join warehouses wh on wh.id = d.warehouse_id
      ${contact}`.execute(db);
  }
  for (const [table, type] of BETWEEN_PLACES) {
    await sql`
      insert into document_particulars (${COLUMNS})
      select d.business_id, ${sql.lit(type)}, d.id, ${SELLER}, d.from_location_type, ${PLACE}, null, null, null
      from ${sql.table(table)} d
      join businesses b on b.id = d.business_id
      left join branches br on d.from_location_type = 'branch' and br.id = d.from_location_id
      left join warehouses wh on d.from_location_type = 'warehouse' and wh.id = d.from_location_id`.execute(db);
  }
}
