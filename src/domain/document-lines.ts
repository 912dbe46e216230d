import { z } from 'zod';
import type { DocumentSpec, ReturnTerms } from './documents';
import { recordId, ROUNDED_TO_2, ROUNDED_TO_3 } from './field-values';
import { roundsToNothing } from './quantity';
import { ADJUSTMENT_REASONS, OTHER_REASON, reasonDirection, reasonSignRefusal } from './resources/stock-adjustments';

const LINES_MAX = 200;
const QUANTITY_MAX = 1_000_000_000;

/** How a line's discount percent is kept (`discountHundredths`, domain/pricing.ts). */
const PERCENT_ROUNDED = 'Kept to 2 decimal places (hundredths of a percent): more are rounded to the nearest';

/**
 * A line's number, as a JSON number or a numeric string, within its bounds; the document says
 * the bounds (`.meta()`, as field-values.ts does: a preprocess shows only what goes in) and how
 * the number is kept.
 */
const lineNumber = (label: string, { min, max, kept }: { min: number; max: number; kept: string }) => {
  const attr = label.toLowerCase();
  const value = z.number({
    error: (issue) => (issue.input === undefined ? `The ${attr} field is required.` : `The ${attr} field must be a number.`),
  });
  return z
    .preprocess(
      (input) => (typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input) ? Number(input) : input),
      value.min(min, `The ${attr} field must be at least ${min}.`).max(max, `The ${attr} field must not be greater than ${max}.`),
    )
    .meta({ type: 'number', minimum: min, maximum: max, description: `${label}. ${kept}` });
};

/**
 * A line's item and unit, which the server requires (the pricing, server/documents/lines.ts,
 * refuses a line without them, in words: "Pick an item, or remove this line.") though its checks
 * take null. The document calls them required and not null, or — where the line of the document
 * it is made from may give them (`fillsFromSource`) — says so in words.
 */
const ITEM_AND_UNIT = ['item_id', 'unit_of_measurement_id'];
const FROM_SOURCE =
  'item_id and unit_of_measurement_id are required, unless the document is made from another and the line of it this one ' +
  'fulfils gives them (by source_line_id, or by its item)';

const itemAndUnit = (fromSource: boolean) =>
  fromSource
    ? { item_id: recordId('Item').nullish(), unit_of_measurement_id: recordId('Unit').nullish() }
    : {
        item_id: recordId('Item').nullish().meta({ nullable: undefined }),
        unit_of_measurement_id: recordId('Unit').nullish().meta({ nullable: undefined }),
      };

/** What the document says of a line object: its item and unit required, with the fields `required` already are. */
const itemAndUnitStated = (fromSource: boolean, required: readonly string[]) =>
  fromSource ? { description: FROM_SOURCE } : { required: [...ITEM_AND_UNIT, ...required] };

/**
 * The kinds of source whose lines give a line made from them its item and unit (the server takes
 * them from there: purchasing.ts `againstOrder`, logistics.ts `fulfilling`) — a receipt's or a
 * bill's purchase order, a transfer's request (or return), a receive's or a return's transfer.
 */
const SOURCES_GIVING_ITEMS = new Set(['purchase-orders', 'stock-requests', 'stock-transfers']);

const fillsFromSource = (spec: DocumentSpec) => spec.source !== undefined && SOURCES_GIVING_ITEMS.has(spec.source.resource);

const lineFields = {
  quantity: lineNumber('Quantity', { min: 0.001, max: QUANTITY_MAX, kept: ROUNDED_TO_3 }),
  unit_price: lineNumber('Unit price', { min: 0, max: QUANTITY_MAX, kept: `In pesos. ${ROUNDED_TO_2}` }).nullish(),
  discount_percent: lineNumber('Discount percent', { min: 0, max: 100, kept: PERCENT_ROUNDED }).nullish(),
  source_line_id: recordId('Source line').nullish(),
};

/** A priced or a quantities line: its item and unit stated as the kind takes them (`fillsFromSource`). */
const plainLine = (fromSource: boolean) =>
  z.object({ ...itemAndUnit(fromSource), ...lineFields }).meta(itemAndUnitStated(fromSource, ['quantity']));

/** A note, required (something other than spaces) on a line whose reason is "other": said as a branch of the line's `oneOf`. */
const NOTE_GIVEN = { type: 'string', pattern: '\\S' };

/**
 * The branches of a line's `oneOf` by its reason, as its checks decide (`superRefine`): a note
 * with "other"; and with `signs`, an adjustment's quantity below zero for goods that leave the
 * stock, above it for those that come in — the least it may be, a thousandth either way.
 */
function byReason(values: readonly string[], signs: boolean): Record<string, unknown>[] {
  const direction = (value: string) => (signs ? reasonDirection(value) : 'either');
  const groups = new Map<string, string[]>();
  for (const value of values) {
    const key = value === OTHER_REASON ? OTHER_REASON : direction(value);
    groups.set(key, [...(groups.get(key) ?? []), value]);
  }
  return [...groups].map(([key, enumerated]) => {
    const reason = { type: 'string', enum: enumerated };
    const quantity = key === 'out' ? { type: 'number', maximum: -0.001 } : key === 'in' ? { type: 'number', minimum: 0.001 } : undefined;
    if (key === OTHER_REASON) return { type: 'object', required: ['reason', 'note'], properties: { reason, note: NOTE_GIVEN } };
    return { type: 'object', required: ['reason'], properties: { reason, ...(quantity && { quantity }) } };
  });
}

const reasons = ADJUSTMENT_REASONS.map((option) => option.value) as [string, ...string[]];

/** A line of a stock adjustment: item, unit, a quantity added (positive) or taken away (negative), and why — which may decide the sign. */
const adjustmentLine = z
  .object({
    ...itemAndUnit(false),
    quantity: lineNumber('Quantity', { min: -QUANTITY_MAX, max: QUANTITY_MAX, kept: ROUNDED_TO_3 }).superRefine((value, context) => {
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
  })
  .meta({
    ...itemAndUnitStated(false, ['quantity', 'reason']),
    oneOf: byReason(reasons, true),
    description:
      'The reason decides the sign where it can: damaged, expired, lost and written-off goods leave the stock (below zero), ' +
      'found and released goods come in (above zero); a quantity of 0, or one that rounds to 0, is refused. The reason "other" needs a note.',
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
    })
    .meta({
      oneOf: byReason(
        terms.reasons.map((option) => option.value),
        false,
      ),
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
export const linesInput = linesOf(plainLine(false));

/** The lines of a kind made from a document whose lines may give them their item and unit. */
const sourcedLinesInput = linesOf(plainLine(true));

/** A stock adjustment's lines: signed quantities, each with its reason (and a note, required for "other"). */
export const adjustmentLinesInput = linesOf(adjustmentLine);

/** A return's lines: each a line of its source document, with its reason and disposition in the kind's words. */
const returnLinesInput = (terms: ReturnTerms) => linesOf(returnLine(terms));

/** The lines a document kind takes. */
export const linesInputOf = (spec: DocumentSpec) =>
  spec.lines === 'adjustments'
    ? adjustmentLinesInput
    : spec.lines === 'returns'
      ? returnLinesInput(spec.returns!)
      : fillsFromSource(spec)
        ? sourcedLinesInput
        : linesInput;

/**
 * A line as the server's pricing reads it: an adjustment's carries its reason and note, a return's
 * its reason, note and disposition, a priced one its price.
 */
export type LineInput = z.infer<typeof linesInput>[number] & { reason?: string; note?: string | null; disposition?: string };
