/**
 * Money is held as integer centavos wherever it is stored or summed, and spoken as a decimal
 * number of pesos (rounded to 2 places) at the API and on screen.
 */

export function pesosToCentavos(pesos: number): number {
  return Math.round(pesos * 100);
}

export function centavosToPesos(centavos: number): number {
  return centavos / 100;
}

const pesoFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'PHP',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** `formatPesos(1234.5)` → `₱1,234.5` (PHP in en-US format, 0 to 2 decimals). */
export function formatPesos(pesos: number): string {
  return pesoFormat.format(pesos);
}

const fixedPesoFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'PHP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * `formatPesosFixed(1008.5)` → `₱1,008.50`: always two decimals, as money is written on paper (a
 * printed invoice, a receipt), where a column of amounts must line up and ₱28 reads as ₱28.00.
 */
export function formatPesosFixed(pesos: number): string {
  // What rounds to nothing prints as ₱0.00, never -₱0.00.
  return fixedPesoFormat.format(Math.abs(pesos) < 0.005 ? 0 : pesos);
}
