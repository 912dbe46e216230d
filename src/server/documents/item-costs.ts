import { sql, type RawBuilder } from 'kysely';

/**
 * Each live item's cost: its latest purchase price in effect on `today` (any supplier; the later
 * id wins a tie), per base unit: divided by the conversion from the price's unit to the item's
 * base unit (the item's own, else the general one). Null for an item without a price, or priced
 * in a unit nothing converts. One index seek per item (purchase_item_prices_latest_index).
 * `among`: a subquery of item ids to cost, when not every item is wanted (a stock count's).
 * A stock count values its differences by it and the overview its stock, so the two agree.
 */
export const itemCosts = (businessId: number, today: string, among?: RawBuilder<unknown>) => sql`
  select items.id as item_id, (
    select case when prices.unit_of_measurement_id = items.unit_of_measurement_id then prices.price * 1.0
      else prices.price * 1000000.0 / (
        select conversions.factor from conversions
        where conversions.business_id = ${businessId} and conversions.deleted_at is null
          and conversions.from_unit_id = prices.unit_of_measurement_id
          and conversions.to_unit_id = items.unit_of_measurement_id
          and (conversions.item_id = items.id or conversions.item_id is null)
        order by case when conversions.item_id is null then 1 else 0 end
        limit 1)
      end
    from purchase_item_prices prices
    where prices.business_id = ${businessId} and prices.item_id = items.id and prices.deleted_at is null
      and prices.effective_date <= ${today}
    order by prices.effective_date desc, prices.id desc
    limit 1) as cost
  from items
  where items.business_id = ${businessId} and items.deleted_at is null${among ? sql` and items.id in (${among})` : sql``}`;
