/**
 * Quantities are held as integer thousandths where they are stored or summed, and spoken as a
 * decimal number rounded to 3 places at the API.
 */

export function toThousandths(quantity: number): number {
  return Math.round(quantity * 1000);
}

export function fromThousandths(thousandths: number): number {
  return thousandths / 1000;
}

/** Conversion factors keep six decimal places (1 g = 0.001 kg, 1 oz = 0.028350 kg). */
export function toMillionths(factor: number): number {
  return Math.round(factor * 1_000_000);
}

export function fromMillionths(millionths: number): number {
  return millionths / 1_000_000;
}
