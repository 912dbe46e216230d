/**
 * How the suites of sales and purchase returns write a return's lines and work out by hand what
 * each line gives back.
 */

/**
 * The lines of a return whose goods go `disposition` (a sale's `restock`, a bill's `from_stock`):
 * `quantity` of the source line `sourceLineId`, damaged unless `extra` says otherwise.
 */
export function returnLines(disposition: string) {
  return (sourceLineId: number, quantity: number, extra: Record<string, unknown> = {}) => ({
    source_line_id: sourceLineId,
    quantity,
    reason: 'damaged',
    disposition,
    ...extra,
  });
}

/** `whole × part / of`, half up: a share by hand. */
export function shareOf(whole: number, part: number, of: number): number {
  return Math.round((whole * part) / of);
}
