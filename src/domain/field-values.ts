import { z } from 'zod';
import { attributeName, CONTROL_CHARACTERS, DISCOUNT_LIST_MAX, MAX_ID, requiredMessage, type Field } from './fields';

/**
 * The zod schema of each field's API value, with Laravel-style messages, built from the field's
 * plain description (`fields.ts`) where values are checked: the server's routes and codec, and
 * the forms. A screen that only shows fields never loads this module, nor zod.
 */

const MAX_MONEY = 1_000_000_000_000;
const MAX_QUANTITY = 1_000_000_000;

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
    .refine((value) => !CONTROL_CHARACTERS.test(value), `The ${attr} field contains characters that are not allowed.`);
}

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
    );
}

/** A BIR branch code: 3 or 5 digits, the head office's all zeros; kept as text, leading zeros and all. */
function branchCodeValue(label: string) {
  const attr = attributeName(label);
  return z
    .union([z.string(), z.number()], { error: typeError(label, `The ${attr} must be 3 or 5 digits (000 or 00000 for the head office).`) })
    .transform((value) => String(value).trim())
    .pipe(z.string().regex(/^(\d{3}|\d{5})$/, `The ${attr} must be 3 or 5 digits (000 or 00000 for the head office).`));
}

/** Numbers may arrive as JSON numbers or as numeric strings from form posts. */
function numeric(label: string, { min, max, integer }: { min: number; max: number; integer?: boolean }) {
  const attr = attributeName(label);
  const base = z.number({ error: typeError(label, `The ${attr} field must be a number.`) }).refine(Number.isFinite, {
    message: `The ${attr} field must be a number.`,
  });
  const bounded = (integer ? base.pipe(z.number().int(`The ${attr} field must be an integer.`)) : base)
    .pipe(z.number().min(min, `The ${attr} field must be at least ${min}.`))
    .pipe(z.number().max(max, `The ${attr} field must not be greater than ${max}.`));
  return z.preprocess((input) => (typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input) ? Number(input) : input), bounded);
}

function positiveNumber(label: string, max: number) {
  const attr = attributeName(label);
  return numeric(label, { min: 0, max }).pipe(z.number().positive(`The ${attr} field must be greater than 0.`));
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
    .pipe(z.email(`The ${attributeName(label)} field must be a valid email address.`));
}

function dateValue(label: string) {
  const attr = attributeName(label);
  return z
    .string({ error: typeError(label, `The ${attr} field must be a valid date.`) })
    .trim()
    .pipe(z.iso.date(`The ${attr} field must be a valid date (YYYY-MM-DD).`));
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
    quantity: positiveNumber('Quantity', MAX_QUANTITY),
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
    .pipe(z.string().regex(/^\d{4,6}$/, `The ${attr} field must be 4 to 6 digits.`));
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
      return numeric(label, { min: 0, max: MAX_MONEY });
    case 'quantity':
      return numeric(label, { min: 0, max: MAX_QUANTITY });
    case 'factor':
      return positiveNumber(label, MAX_QUANTITY);
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
