import { sql, type RawBuilder } from 'kysely';

/**
 * Each live item's cost per base unit on `today`, in centavos: its moving average after its last
 * cost entry dated that day or before (docs/costing.md) — what it held was worth over how much it
 * held, or its last average while it held nothing. Null for an item never costed. One index seek
 * per item (cost_entries_item_index). `among`: a subquery of item ids to cost, when not every
 * item is wanted (a stock count's). A stock count values its differences by it and the overview
 * its stock, so the two agree.
 */
export const itemCosts = (businessId: number, today: string, among?: RawBuilder<unknown>) => sql`
  select items.id as item_id, ${costOn(businessId, today, sql`items.id`)} as cost
  from items
  where items.business_id = ${businessId} and items.deleted_at is null${among ? sql` and items.id in (${among})` : sql``}`;

/** The cost per base unit on `today` of the item `item` names (a column of the query it is part of): one index seek. */
export const costOn = (businessId: number, today: string, item: RawBuilder<unknown>) => sql`(
  select case when entry.quantity_after > 0 then entry.value_after * 1000.0 / entry.quantity_after
    when entry.average_quantity > 0 then entry.average_value * 1000.0 / entry.average_quantity end
  from cost_entries entry
  where entry.business_id = ${businessId} and entry.item_id = ${item} and entry.date <= ${today}
  order by entry.date desc, entry.sequence desc
  limit 1)`;
