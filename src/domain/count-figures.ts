/**
 * What a stock count's line comes to, the same on both ends: the server when it reads a count's
 * lines and posts them, the count sheet when it adds what this device counted and has not sent
 * yet. Quantities are integer thousandths of the item's base unit, money integer centavos.
 */

/** What a counted line differs by: counted less on hand, so more found than the books hold is positive. */
export function countDifference(counted: number, onHand: number): number {
  return counted - onHand;
}

/** What a difference is worth at the item's cost (centavos per base unit, maybe a fraction of one); null without a cost. */
export function differenceValue(difference: number, cost: number | null): number | null {
  return cost === null ? null : Math.round((difference * cost) / 1000);
}
