import { z } from 'zod';
import { attributeName, CONTROL_CHARACTERS, DISCOUNT_LIST_MAX, MAX_ID, requiredMessage, type Field } from './fields';

/**
 * The zod schema of each field's API value, with Laravel-style messages, built from the field's
 * plain description (`fields.ts`) where values are checked: the server's routes and codec, and
 * the forms. A screen that only shows fields never loads this module, nor zod.
 */

const MAX_MONEY = 1_000_000_000_000;
const MAX_QUANTITY = 1_000_000_000;

/*
 * What the API document (/api/docs) says of a value, written beside its checks with `.meta()`:
 * zod's JSON Schema of a pipe or a preprocess shows only what goes in, so the checks of its later
 * stages (a number's bounds, a date's form) would never reach the document. Each meta says, from
 * the same limits, what those stages take — never more than they do, so a value the document
 * calls valid is one the server takes (a numeric string the server also reads is left unsaid).
 */

/** The control characters `CONTROL_CHARACTERS` refuses, as a character class's inside. */
const CONTROL = CONTROL_CHARACTERS.source.slice(1, -1);

/** A text with something other than spaces in it, and no control character: a blank one reads as none (resource-schemas.ts). */
const PRESENT_TEXT = `^[^${CONTROL}]*[^${CONTROL}\\s][^${CONTROL}]*$`;

/** How the API keeps a number: the description a quantity's or an amount's field carries. */
export const ROUNDED_TO_3 = 'Kept to 3 decimal places (thousandths): more are rounded to the nearest';
export const ROUNDED_TO_2 = 'Kept to 2 decimal places (centavos): more are rounded, half away from zero';

/** A type error that reads "is required" when the value is missing altogether. */
function typeError(label: string, message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? requiredMessage(label) : message);
}

function stringValue(label: string, max: number) {
  const attr = attributeName(label);
  return z
    .string({ error: typeError(label, `The ${attr} field must be a string.`) })
    .trim()
    .max(max, `The ${attr} field must not be greater than ${max} characters.`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), `The ${attr} field contains characters that are not allowed.`)
    .meta({ type: 'string', maxLength: max, pattern: PRESENT_TEXT });
}

/** A TIN's 9, 12 or 14 digits, with a space or a dash (or none) between any two, as `tinValue` reads them. */
const TIN_PATTERN = `^\\s*\\d(?:[\\s-]*\\d){8}(?:(?:[\\s-]*\\d){3}|(?:[\\s-]*\\d){5})?\\s*$`;

/**
 * A TIN as people write it (spaces, dashes or none) kept as the BIR prints it: 123-456-789, or
 * 123-456-789-000 / 123-456-789-00000 with its branch code.
 */
function tinValue(label: string) {
  const attr = attributeName(label);
  return z
    .string({ error: typeError(label, `The ${attr} field must be a string.`) })
    .trim()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .regex(
          /^(\d{9}|\d{12}|\d{14})$/,
          `The ${attr} must be 9 digits (123-456-789), with a branch code of 3 or 5 digits after it if given (123-456-789-000).`,
        )
        .transform((digits) => [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 9), digits.slice(9)].filter(Boolean).join('-')),
    )
    .meta({
      type: 'string',
      pattern: TIN_PATTERN,
      description: 'Kept as the BIR prints it: 123-456-789, or with its branch code 123-456-789-000 or 123-456-789-00000',
    });
}

/** A BIR branch code: 3 or 5 digits, the head office's all zeros; kept as text, leading zeros and all. */
function branchCodeValue(label: string) {
  const attr = attributeName(label);
  return (
    z
      .union([z.string(), z.number()], { error: typeError(label, `The ${attr} must be 3 or 5 digits (000 or 00000 for the head office).`) })
      .transform((value) => String(value).trim())
      .pipe(z.string().regex(/^(\d{3}|\d{5})$/, `The ${attr} must be 3 or 5 digits (000 or 00000 for the head office).`))
      // Said as text only: the number it also takes loses leading zeros.
      .meta({
        type: 'string',
        anyOf: undefined,
        pattern: '^(\\d{3}|\\d{5})$',
        description: '3 or 5 digits, 000 or 00000 for the head office',
      })
  );
}

/**
 * Numbers may arrive as JSON numbers or as numeric strings from form posts. `positive` adds a
 * last check, above 0; the document says so as the least value kept (`positive`, a thousandth or
 * a millionth): OpenAPI 3.0 writes an exclusive bound in a form JSON Schema since draft 6 reads otherwise.
 */
function numeric(label: string, { min, max, integer, positive }: { min: number; max: number; integer?: boolean; positive?: number }) {
  const attr = attributeName(label);
  const base = z.number({ error: typeError(label, `The ${attr} field must be a number.`) }).refine(Number.isFinite, {
    message: `The ${attr} field must be a number.`,
  });
  const bounded = (integer ? base.pipe(z.number().int(`The ${attr} field must be an integer.`)) : base)
    .pipe(z.number().min(min, `The ${attr} field must be at least ${min}.`))
    .pipe(z.number().max(max, `The ${attr} field must not be greater than ${max}.`));
  const checked = positive === undefined ? bounded : bounded.pipe(z.number().positive(`The ${attr} field must be greater than 0.`));
  return z
    .preprocess((input) => (typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input) ? Number(input) : input), checked)
    .meta({ type: integer ? 'integer' : 'number', minimum: positive ?? min, maximum: max });
}

function positiveNumber(label: string, max: number, least: number) {
  return numeric(label, { min: 0, max, positive: least });
}

/**
 * A record's id in a JSON body: a JSON number that is a whole number from 1, strictly — never a
 * string, so `"5"`, `"5.0"` or `" 5 "` are refused rather than read as record 5.
 */
export function recordId(label: string) {
  const attr = attributeName(label);
  return z
    .number({ error: typeError(label, `The ${attr} field must be a whole number.`) })
    .int(`The ${attr} field must be a whole number.`)
    .min(1, `The ${attr} field must be at least 1.`)
    .max(MAX_ID, `The ${attr} field must not be greater than ${MAX_ID}.`);
}

function emailValue(label: string) {
  // Stored lower-cased: sign-in compares lower-cased, and Ana@x.ph is ana@x.ph.
  return stringValue(label, 255)
    .toLowerCase()
    .pipe(z.email(`The ${attributeName(label)} field must be a valid email address.`))
    .meta({ type: 'string', format: 'email', pattern: z.regexes.email.source, maxLength: 255 });
}

function dateValue(label: string) {
  const attr = attributeName(label);
  return z
    .string({ error: typeError(label, `The ${attr} field must be a valid date.`) })
    .trim()
    .pipe(z.iso.date(`The ${attr} field must be a valid date (YYYY-MM-DD).`))
    .meta({ type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
}

function booleanValue(label: string) {
  return z.preprocess(
    (input) => {
      if (input === 1 || input === '1' || input === 'true') return true;
      if (input === 0 || input === '0' || input === 'false') return false;
      return input;
    },
    z.boolean({ error: typeError(label, `The ${attributeName(label)} field must be true or false.`) }),
  );
}

function selectValue({ label, options = [] }: Field) {
  const values = options.map((option) => option.value) as [string, ...string[]];
  return z.enum(values, { error: typeError(label, `The selected ${attributeName(label)} is invalid.`) });
}

function discountsValue(label: string) {
  const entry = z.object({
    quantity: positiveNumber('Quantity', MAX_QUANTITY, 0.001),
    discount_percent: numeric('Discount percent', { min: 0, max: 100 }),
  });
  const attr = attributeName(label);
  return z
    .array(entry, { error: typeError(label, `The ${attr} field must be a list.`) })
    .max(DISCOUNT_LIST_MAX, `The ${attr} field must not have more than ${DISCOUNT_LIST_MAX} entries.`)
    .refine((entries) => new Set(entries.map((e) => e.quantity)).size === entries.length, {
      message: `The ${attr} field has the same quantity twice.`,
    });
}

function passwordValue(label: string) {
  const attr = attributeName(label);
  return z
    .string({ error: typeError(label, `The ${attr} field must be a string.`) })
    .min(8, `The ${attr} field must be at least 8 characters.`)
    .max(200, `The ${attr} field must not be greater than 200 characters.`);
}

function pinValue(label: string) {
  const attr = attributeName(label);
  return z
    .union([z.string(), z.number()], { error: typeError(label, `The ${attr} field must be 4 to 6 digits.`) })
    .transform(String)
    .pipe(z.string().regex(/^\d{4,6}$/, `The ${attr} field must be 4 to 6 digits.`))
    .meta({ type: 'string', anyOf: undefined, pattern: '^\\d{4,6}$' });
}

function build(field: Field): z.ZodType {
  const { label } = field;
  switch (field.kind) {
    case 'text':
      if (field.format === 'tin') return tinValue(label);
      if (field.format === 'branch-code') return branchCodeValue(label);
      return stringValue(label, field.max ?? 255);
    case 'textarea':
      return stringValue(label, 5000);
    case 'email':
      return emailValue(label);
    case 'integer':
      return field.referencesBy ? recordId(label) : numeric(label, { min: field.min ?? 0, max: field.max ?? 1_000_000, integer: true });
    case 'money':
      return numeric(label, { min: 0, max: MAX_MONEY }).meta({ description: `${label}, in pesos. ${ROUNDED_TO_2}` });
    case 'quantity':
      return numeric(label, { min: 0, max: MAX_QUANTITY }).meta({ description: `${label}. ${ROUNDED_TO_3}` });
    case 'factor':
      return positiveNumber(label, MAX_QUANTITY, 0.000001).meta({
        description: `${label}. Kept to 6 decimal places (millionths): more are rounded`,
      });
    case 'date':
      return dateValue(label);
    case 'boolean':
      return booleanValue(label);
    case 'select':
      return selectValue(field);
    case 'reference':
      return recordId(label);
    case 'discounts':
      return discountsValue(label);
    case 'password':
      return passwordValue(label);
    case 'pin':
      return pinValue(label);
  }
}

const built = new WeakMap<Field, z.ZodType>();

/** The schema of a present, non-empty value of `field`, built once per field. */
export function valueOf(field: Field): z.ZodType {
  let schema = built.get(field);
  if (!schema) built.set(field, (schema = build(field)));
  return schema;
}
