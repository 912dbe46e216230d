/**
 * Quantities are held as integer thousandths where they are stored or summed, and spoken as a
 * decimal number rounded to 3 places at the API.
 */

/**
 * The most goods one stock balance may hold, in thousandths of the base unit: the largest
 * integer a JavaScript number holds exactly (about nine trillion base units). A document line
 * may move at most a thousandth of it, so sums of lines stay exact too.
 */
export const MAX_STOCK_THOUSANDTHS = Number.MAX_SAFE_INTEGER;
export const MAX_LINE_THOUSANDTHS = 1_000_000_000_000_000;

export function toThousandths(quantity: number): number {
  return Math.round(quantity * 1000);
}

export function fromThousandths(thousandths: number): number {
  return thousandths / 1000;
}

/**
 * Why a quantity other than 0 would still be kept as 0: less than half a thousandth either way
 * (0.0004) rounds to none, and a line or an entry of none would move or count nothing — or count
 * an item as none there. Null when it keeps at least a thousandth, and for 0 itself, which each
 * form refuses in its own words.
 */
export function roundsToNothing(quantity: number): string | null {
  if (quantity === 0 || toThousandths(quantity) !== 0) return null;
  return `The quantity ${quantity} rounds to 0: quantities are kept to the thousandth (0.001).`;
}

/** Conversion factors keep six decimal places (1 g = 0.001 kg, 1 oz = 0.028350 kg). */
export function toMillionths(factor: number): number {
  return Math.round(factor * 1_000_000);
}

export function fromMillionths(millionths: number): number {
  return millionths / 1_000_000;
}
