/**
 * Moving-average cost, as arithmetic: what goods are worth when they come in or leave, per item
 * and business. The method, its rounding and a worked example are in docs/costing.md; the server
 * keeps one entry per document and item (`server/documents/costing.ts`) and walks them in date
 * order through `costed`.
 *
 * Quantities are thousandths of the item's base unit and values centavos, both integers. Every
 * share is figured exactly and rounded half away from zero to the centavo, so the same history
 * gives the same figures on every database and every device.
 */

import type { ResourceDefinition } from './resource';

/** What an item holds, business-wide, after an entry. */
export interface CostState {
  /** On hand and in transit at every place: thousandths of the base unit (below zero while goods sold were not yet in). */
  quantity: number;
  /** What they are worth: centavos. */
  value: number;
  /**
   * The average to cost by when nothing is held: the value and quantity the last time the
   * quantity was above zero (0 and 0 before it ever was).
   */
  averageValue: number;
  averageQuantity: number;
}

/** An item nothing ever moved. */
export const NO_COST: CostState = { quantity: 0, value: 0, averageValue: 0, averageQuantity: 0 };

/** `value × part ÷ whole`, exactly, rounded half away from zero (0 when `whole` is 0). */
export function share(value: number, part: number, whole: number): number {
  if (whole === 0) return 0;
  const sign = Math.sign(value) * Math.sign(part) * Math.sign(whole);
  const numerator = BigInt(Math.abs(value)) * BigInt(Math.abs(part));
  const denominator = BigInt(Math.abs(whole));
  const rounded = (numerator * 2n + denominator) / (denominator * 2n);
  return sign * Number(rounded);
}

/** `quantity` at the item's average: what it holds now when it holds any, else its last average. */
export function atAverage(state: CostState, quantity: number): number {
  return state.quantity > 0 ? share(state.value, quantity, state.quantity) : share(state.averageValue, quantity, state.averageQuantity);
}

/**
 * One entry costed: `quantity` (signed: in above zero, out below) and, where the document gives
 * its goods' worth, `given` (centavos, signed as the quantity: a receipt's net amount, a return's
 * cost as its goods left); null moves them at the average. Returns the entry's value and the
 * state after it.
 *
 * - In at a given worth adds it: the average moves. In at the average (goods found, a count's
 *   gain) leaves it where it is.
 * - Out at the average takes its share of the value; taking the last of an item takes all its
 *   value, so nothing is left worth something. Out at a given worth (a purchase return) takes
 *   that, never more than there is.
 * - Goods leaving before they came in (an offline sale dated before the receipt it sold from)
 *   leave at the last average and leave the quantity below zero; what comes in next fills that
 *   gap first, and what is then held is worth what came in, unit for unit — the difference is the
 *   incoming entry's, so the average never drifts off what goods cost.
 */
export function costed(state: CostState, quantity: number, given: number | null): { value: number; after: CostState } {
  const quantityAfter = state.quantity + quantity;
  let value: number;
  if (quantityAfter === 0) {
    // Nothing is left: nothing is left worth anything.
    value = -state.value;
  } else if (quantity > 0) {
    const worth = given ?? atAverage(state, quantity);
    // Into a shortfall: what is held after is worth what came in, unit for unit.
    value = state.quantity < 0 && quantityAfter > 0 ? share(worth, quantityAfter, quantity) - state.value : worth;
  } else if (given !== null) {
    value = state.value >= 0 && quantityAfter > 0 ? Math.max(given, -state.value) : given;
  } else if (state.quantity > 0 && quantityAfter < 0) {
    // More leaves than is held: all of it, and the rest at this average.
    value = -state.value - share(state.value, -quantityAfter, state.quantity);
  } else {
    value = -atAverage(state, -quantity);
  }
  const valueAfter = state.value + value;
  const positive = quantityAfter > 0;
  return {
    value,
    after: {
      quantity: quantityAfter,
      value: valueAfter,
      averageValue: positive ? valueAfter : state.averageValue,
      averageQuantity: positive ? quantityAfter : state.averageQuantity,
    },
  };
}

/** A value shared over lines by their quantities (largest remainder to the last line), so the parts sum to it exactly. */
export function shared(value: number, quantities: readonly number[]): number[] {
  const whole = quantities.reduce((sum, quantity) => sum + Math.abs(quantity), 0);
  let left = value;
  return quantities.map((quantity, index) => {
    if (index === quantities.length - 1) return left;
    const part = share(value, Math.abs(quantity), whole);
    left -= part;
    return part;
  });
}

/** The average cost of one base unit, in pesos to four places, for showing: null while nothing was ever held. */
export function unitCost(state: Pick<CostState, 'averageValue' | 'averageQuantity'>): number | null {
  if (state.averageQuantity === 0) return null;
  return Math.round((state.averageValue * 100_000) / state.averageQuantity) / 10_000;
}

/** A sale's margin: what it sold for (net of VAT) less what its goods cost, in centavos, and that as a percent of the sale (null on a sale of nothing). */
export function margin(net: number, cost: number): { margin: number; percent: number | null } {
  return { margin: net - cost, percent: net === 0 ? null : Math.round(((net - cost) * 10_000) / net) / 100 };
}

/** A kind whose priced lines take goods out of stock at its place: a sale, whose lines have a margin. */
export const sellsGoods = (definition: ResourceDefinition): boolean =>
  definition.document?.lines === 'priced' &&
  (definition.document.effects?.stock ?? []).some((effect) => effect.at === 'own' && effect.onHand < 0 && !effect.rest);
