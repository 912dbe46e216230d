/** How the reports' figures read: a unit cost to its four places, a quantity to its three, a margin's percent. */

const unitCostFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'PHP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** `12.5` → `₱12.50`, `12.3456` → `₱12.3456`: a moving-average cost keeps its four places; goods never costed read "Not costed". */
export function formatUnitCost(pesos: number | null): string {
  return pesos === null ? 'Not costed' : unitCostFormat.format(Math.abs(pesos) < 0.00005 ? 0 : pesos);
}

/** `1250.5, 'pc'` → `1,250.5 pc`. */
export function formatQuantity(quantity: number, unit: string): string {
  return `${quantityFormat.format(quantity)} ${unit}`.trim();
}

/** `32.5` → `32.5%`; a group with no sales has no percent: `—`. */
export function formatPercent(percent: number | null): string {
  return percent === null ? '—' : `${percent.toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
}

/** `2, 'row'` → `2 rows`; `1, 'row'` → `1 row`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** What the stock value says of goods never costed: they count at nothing. */
export function uncostedRowsNote(rows: number): string {
  return `${plural(rows, 'row')} of goods never costed ${rows === 1 ? 'is' : 'are'} counted at nothing.`;
}

/** What the margin says of lines sold without a cost: their goods count at nothing. */
export function uncostedLinesNote(lines: number): string {
  return `${plural(lines, 'line')} sold goods never costed: counted at no cost.`;
}
