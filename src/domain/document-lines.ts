import { z } from 'zod';
import type { DocumentSpec, ReturnTerms } from './documents';
import { recordId } from './field-values';
import { roundsToNothing } from './quantity';
import { ADJUSTMENT_REASONS, OTHER_REASON, reasonSignRefusal } from './resources/stock-adjustments';

const LINES_MAX = 200;
const QUANTITY_MAX = 1_000_000_000;

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

const lineFields = {
  // A blank line (no item yet) is refused by the pricing, in words: "Pick an item, or remove this line."
  item_id: recordId('Item').nullish(),
  unit_of_measurement_id: recordId('Unit').nullish(),
  quantity: lineNumber('Quantity', { min: 0.001, max: QUANTITY_MAX }),
  unit_price: lineNumber('Unit price', { min: 0, max: QUANTITY_MAX }).nullish(),
  discount_percent: lineNumber('Discount percent', { min: 0, max: 100 }).nullish(),
  source_line_id: recordId('Source line').nullish(),
};

const reasons = ADJUSTMENT_REASONS.map((option) => option.value) as [string, ...string[]];

/** A line of a stock adjustment: item, unit, a quantity added (positive) or taken away (negative), and why — which may decide the sign. */
const adjustmentLine = z
  .object({
    item_id: lineFields.item_id,
    unit_of_measurement_id: lineFields.unit_of_measurement_id,
    quantity: lineNumber('Quantity', { min: -QUANTITY_MAX, max: QUANTITY_MAX }).superRefine((value, context) => {
      // Kept in thousandths: a quantity that rounds to none is none (an opening balance of 0.0004).
      const problem =
        value === 0 ? 'The quantity must not be 0: a positive quantity adds stock, a negative one takes it away.' : roundsToNothing(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
    reason: z.enum(reasons, {
      error: (issue) =>
        issue.input === undefined || issue.input === null || issue.input === ''
          ? 'The reason field is required.'
          : `The reason must be one of: ${ADJUSTMENT_REASONS.map((option) => option.label.toLowerCase()).join(', ')}.`,
    }),
    note: z.string().trim().max(500, 'The note must not be greater than 500 characters.').nullish(),
    // What the goods cost (an opening balance's unit cost): kept on the line, moving no money.
    unit_price: lineFields.unit_price,
  })
  .superRefine((line, context) => {
    if (line.reason === OTHER_REASON && !line.note)
      context.addIssue({ code: 'custom', path: ['note'], message: 'Say what happened in the note when the reason is other.' });
    // Damaged, expired and lost goods leave the stock, found goods come in: the reason decides the sign.
    const wrongSign = reasonSignRefusal(line.reason, line.quantity);
    if (wrongSign) context.addIssue({ code: 'custom', path: ['quantity'], message: wrongSign });
  });

/** One of `options`' values, refused in words naming them. */
const oneOf = (field: string, options: readonly { value: string; label: string }[]) =>
  z.enum(options.map((option) => option.value) as [string, ...string[]], {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? `The ${field} field is required.`
        : `The ${field} must be one of: ${options.map((option) => option.label.toLowerCase()).join(', ')}.`,
  });

/**
 * A line of a return: the line of the source document it takes back (its item and unit are that
 * line's), how much, why (and a note, required for "other"), and what becomes of the goods — in
 * the kind's own words (`ReturnTerms`).
 */
const returnLine = (terms: ReturnTerms) =>
  z
    .object({
      source_line_id: recordId('Source line'),
      quantity: lineFields.quantity,
      reason: oneOf('reason', terms.reasons),
      note: z.string().trim().max(500, 'The note must not be greater than 500 characters.').nullish(),
      disposition: oneOf('disposition', terms.dispositions),
    })
    .superRefine((line, context) => {
      if (line.reason === OTHER_REASON && !line.note)
        context.addIssue({ code: 'custom', path: ['note'], message: 'Say why in the note when the reason is other.' });
    });

const linesOf = <T extends z.ZodType>(line: T) =>
  z
    .array(line, {
      error: (issue) => (issue.input === undefined ? 'The lines field is required.' : 'The lines field must be a list.'),
    })
    .min(1, 'A document needs at least one line.')
    .max(LINES_MAX, `A document can have at most ${LINES_MAX} lines.`);

/**
 * A document's lines as a create takes them: item, unit, quantity, and optionally the unit price
 * (else the price list's), the discount percent (else the item's quantity break) and the line of
 * the source document it fulfils (a receive order's purchase order line).
 */
export const linesInput = linesOf(z.object(lineFields));

/** A stock adjustment's lines: signed quantities, each with its reason (and a note, required for "other"). */
export const adjustmentLinesInput = linesOf(adjustmentLine);

/** A return's lines: each a line of its source document, with its reason and disposition in the kind's words. */
const returnLinesInput = (terms: ReturnTerms) => linesOf(returnLine(terms));

/** The lines a document kind takes. */
export const linesInputOf = (spec: DocumentSpec) =>
  spec.lines === 'adjustments' ? adjustmentLinesInput : spec.lines === 'returns' ? returnLinesInput(spec.returns!) : linesInput;

/**
 * A line as the server's pricing reads it: an adjustment's carries its reason and note, a return's
 * its reason, note and disposition, a priced one its price.
 */
export type LineInput = z.infer<typeof linesInput>[number] & { reason?: string; note?: string | null; disposition?: string };
