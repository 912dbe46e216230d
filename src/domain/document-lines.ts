import { z } from 'zod';
import { recordId } from './field-values';

const LINES_MAX = 200;

const lineNumber = (label: string, { min, max }: { min: number; max: number }) => {
  const attr = label.toLowerCase();
  const value = z.number({
    error: (issue) => (issue.input === undefined ? `The ${attr} field is required.` : `The ${attr} field must be a number.`),
  });
  return z.preprocess(
    (input) => (typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input) ? Number(input) : input),
    value.min(min, `The ${attr} field must be at least ${min}.`).max(max, `The ${attr} field must not be greater than ${max}.`),
  );
};

/**
 * A document's lines as a create takes them: item, unit, quantity, and optionally the unit price
 * (else the price list's), the discount percent (else the item's quantity break) and the line of
 * the source document it fulfils (a receive order's purchase order line).
 */
export const linesInput = z
  .array(
    z.object({
      // A blank line (no item yet) is refused by the pricing, in words: "Pick an item, or remove this line."
      item_id: recordId('Item').nullish(),
      unit_of_measurement_id: recordId('Unit').nullish(),
      quantity: lineNumber('Quantity', { min: 0.001, max: 1_000_000_000 }),
      unit_price: lineNumber('Unit price', { min: 0, max: 1_000_000_000 }).nullish(),
      discount_percent: lineNumber('Discount percent', { min: 0, max: 100 }).nullish(),
      source_line_id: recordId('Source line').nullish(),
    }),
    { error: (issue) => (issue.input === undefined ? 'The lines field is required.' : 'The lines field must be a list.') },
  )
  .min(1, 'A document needs at least one line.')
  .max(LINES_MAX, `A document can have at most ${LINES_MAX} lines.`);

export type LineInput = z.infer<typeof linesInput>[number];
