import { sql, type Kysely } from 'kysely';

/**
 * Two rules of cost came after goods were moved by them (docs/costing.md): a transfer's lines keep
 * what the goods they carry were worth, and goods received against an order line that a bill
 * bills are worth what the bill paid. The items a transfer moved, or a receipt received against a
 * billed order line, are costed again from the ledger: their kept cost is forgotten here, and the
 * server costs every item it finds uncosted as it starts, before it answers anyone
 * (`costUncosted`), each from its first movement under the rules of today.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    delete from item_costs where exists (
      select 1 from stock_movements moved
      where moved.business_id = item_costs.business_id and moved.item_id = item_costs.item_id
        and moved.document_type = 'stock-transfer')`.execute(db);
  await sql`
    delete from item_costs where exists (
      select 1 from document_lines received
      join document_lines billed on billed.document_type = 'bill' and billed.source_line_id = received.source_line_id
      where received.business_id = item_costs.business_id and received.item_id = item_costs.item_id
        and received.document_type = 'receive-order')`.execute(db);
}
