/**
 * Money is held as integer centavos wherever it is stored or summed, and spoken as a decimal
 * number of pesos (rounded to 2 places) at the API and on screen.
 */

/**
 * Pesos to centavos, rounded half away from zero on the number as it is written: 1.005 → 101 and
 * 0.005 → 1, as 2.675 → 268. Multiplying by 100 first would round the binary fraction instead
 * (1.005 × 100 is 100.49999…), so an amount typed with a third decimal would round one way or the
 * other by chance. The digits are the shortest that read back as the same number, which are the
 * digits typed or sent.
 */
export function pesosToCentavos(pesos: number): number {
  if (!Number.isFinite(pesos)) return Math.round(pesos * 100);
  const [, whole, fraction = '', exponent] = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(pesos).toExponential())!;
  const digits = whole + fraction;
  // The number is `digits` × 10^shift centavos.
  const shift = Number(exponent) - fraction.length + 2;
  const sign = pesos < 0 ? -1 : 1;
  if (shift >= 0) return sign * Number(digits) * 10 ** shift || 0;
  const kept = digits.length + shift;
  const centavos = kept > 0 ? Number(digits.slice(0, kept)) : 0;
  const next = kept >= 0 ? Number(digits.charAt(kept)) : 0;
  return sign * (centavos + (next >= 5 ? 1 : 0)) || 0;
}

export function centavosToPesos(centavos: number): number {
  return centavos / 100;
}

const pesoFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'PHP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * `formatPesos(1008.5)` → `₱1,008.50`: PHP in en-US format, always two decimals, on screen as on
 * paper (a printed invoice, a receipt), where a column of amounts must line up and ₱28 reads as
 * ₱28.00.
 */
export function formatPesos(pesos: number): string {
  // What rounds to nothing reads as ₱0.00, never -₱0.00.
  return pesoFormat.format(Math.abs(pesos) < 0.005 ? 0 : pesos);
}
