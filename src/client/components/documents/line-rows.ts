import type { DocumentSpec, VatCategory } from '../../../domain/documents';
import type { SoldLine } from '../../../domain/returns';

/**
 * A document's lines as its form holds them (rows typed as text) and as the API reads and takes
 * them: what the form needs before the line editor itself has loaded.
 */

/** One row of the editor, as typed: numbers stay text until sent. */
export interface LineRow {
  item_id: number | null;
  /** The item's name, once picked (or from the source document). */
  item_name?: string | null;
  unit_of_measurement_id: number | null;
  quantity: string;
  unit_price: string;
  discount_percent: string;
  /** The source document's line it fulfils (a purchase order line being received). */
  source_line_id?: number | null;
  /** How much of the source line is still open, shown as the most it can take. */
  open?: number;
  /** A stock adjustment's or a return's line's reason and note. */
  reason?: string;
  note?: string;
  /** A return line's disposition (`RETURN_DISPOSITIONS`); rows without one are not a return's. */
  disposition?: string;
  /** Of a return line: the line it comes back from, as it was sold, which its share is figured from. */
  sold?: SoldLine;
}

/** A new line: one of nothing yet; a stock adjustment's with its reason still to choose. */
export const emptyLine = (spec?: DocumentSpec): LineRow => ({
  item_id: null,
  unit_of_measurement_id: null,
  quantity: '1',
  unit_price: '',
  discount_percent: '',
  ...(spec?.lines === 'adjustments' && { reason: '', note: '' }),
});

/** A document line as the API answers it (GET /api/{document}/{id} → `lines`). */
export interface DocumentLine {
  id: number;
  item_id: number;
  item: { id: number; display: string; sku: string } | null;
  unit_of_measurement_id: number;
  unit: string | null;
  quantity: number;
  unit_price: number;
  discount_percent: number;
  /** How the line was taxed; exempt on a senior citizen's or PWD's line. */
  vat_category: VatCategory;
  /** It took the buyer's senior citizen or PWD discount. */
  sc_pwd: boolean;
  /** Net of VAT. */
  amount: number;
  vat: number;
  /** What later documents fulfilled of it: received of an order line, transferred of a request line … */
  quantity_done: number;
  /** A stock adjustment's or a return's line's reason and note. */
  reason?: string | null;
  note?: string | null;
  /** A return's line's disposition. */
  disposition?: string | null;
  /** What its goods cost, and a sale's line its margin (amount less cost): only to a user who sees costs; null while not costed. */
  cost?: number | null;
  margin?: number | null;
}

/** A document's stored lines as rows of the editor (editing it, or starting from it). */
export function rowsOf(lines: readonly DocumentLine[]): LineRow[] {
  // Stored lines, or lines as a queued create sent them (no names, blank price and discount left to the server).
  const typed = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return lines.map((line) => ({
    item_id: line.item_id,
    item_name: line.item?.display ?? null,
    unit_of_measurement_id: line.unit_of_measurement_id,
    quantity: String(line.quantity),
    unit_price: typed(line.unit_price),
    discount_percent: typed(line.discount_percent),
    ...(line.reason !== undefined && { reason: line.reason ?? '', note: line.note ?? '' }),
    ...(line.disposition !== undefined && { disposition: line.disposition ?? '' }),
  }));
}

const number = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text));

/**
 * The lines as the API takes them; blank price and discount are left to the server (price list,
 * quantity break). Blank lines at the end (Enter after the last line adds one) are not sent,
 * unless no line has an item: then the server says what is missing.
 */
export function linesBody(rows: readonly LineRow[]) {
  // A return's lines name what comes back of the sale's lines: one left blank stays with the customer.
  if (rows.some((row) => row.disposition !== undefined)) return returnLinesBody(rows);
  let end = rows.length;
  while (end > 1 && rows[end - 1].item_id === null && !rows[end - 1].source_line_id) end -= 1;
  return rows.slice(0, end).map((row) => ({
    item_id: row.item_id,
    unit_of_measurement_id: row.unit_of_measurement_id,
    quantity: number(row.quantity) ?? row.quantity,
    unit_price: number(row.unit_price),
    discount_percent: number(row.discount_percent),
    source_line_id: row.source_line_id ?? null,
    // A stock adjustment's line says why; the server asks for the reason when it is left blank.
    ...(row.reason !== undefined && { reason: row.reason || null, note: row.note?.trim() || null }),
  }));
}

/** A return's line as the API takes it: the sold line something of it comes back of, how much, why, and what becomes of it. */
export interface ReturnLineBody {
  source_line_id: number | null;
  quantity: number | string;
  reason: string | null;
  note: string | null;
  disposition: string | null;
}

/** A return's lines as the API takes them: only the sold lines something comes back of. */
function returnLinesBody(rows: readonly LineRow[]): ReturnLineBody[] {
  return rows
    .filter((row) => row.quantity.trim() !== '')
    .map((row) => ({
      source_line_id: row.source_line_id ?? null,
      quantity: number(row.quantity) ?? row.quantity,
      reason: row.reason || null,
      note: row.note?.trim() || null,
      disposition: row.disposition || null,
    }));
}
