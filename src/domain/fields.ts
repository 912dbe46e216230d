import { z } from 'zod';

/**
 * Field builders for resource definitions. A field says how it is labelled and edited (its
 * `kind`), and carries the zod schema of its API value with Laravel-style messages, e.g.
 *
 *   name: text('Name', { required: true, unique: true })
 *   brand_id: reference('Brand', 'brands')
 *   price: money('Price', { required: true })
 */

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'integer'
  | 'money'
  | 'quantity'
  | 'factor'
  | 'date'
  | 'boolean'
  | 'select'
  | 'reference'
  | 'discounts'
  | 'password'
  | 'pin';

export interface SelectOption {
  value: string;
  label: string;
}

export interface Field {
  kind: FieldKind;
  label: string;
  /** Must be given on create and may not be cleared on update. */
  required: boolean;
  /** No two records of the same business (or, on global tables, at all) share a value. */
  unique: boolean;
  /** The resource a `reference` field points at. */
  references?: string;
  /** An id whose resource another field's value names (a user's branch or warehouse). */
  referencesBy?: { field: string; resources: Readonly<Record<string, string>> };
  options?: readonly SelectOption[];
  /** Accepted on write, never returned by a read (passwords, pins). */
  writeOnly: boolean;
  /** Backed by a trigram index, so a contains-search stays fast on large tables. */
  fullText: boolean;
  /** Set by the server (a document's number, status, totals): returned by reads, never accepted. */
  computed: boolean;
  /** Set by the server, on create, to the signed-in user (who wrote a memo). */
  author?: boolean;
  /** A contact picker's contact type, by name ("Customer", "Supplier"): it lists only those, and the server refuses the other kind. */
  contactType?: 'Customer' | 'Supplier';
  /** Validates a present, non-empty value. */
  value: z.ZodType;
}

interface FieldOptions {
  required?: boolean;
  unique?: boolean;
  fullText?: boolean;
  computed?: boolean;
}

export const DISCOUNT_LIST_MAX = 20;
const MAX_MONEY = 1_000_000_000_000;
const MAX_QUANTITY = 1_000_000_000;

/** Laravel names an attribute in lower case: "The unit of measurement field is required." */
export function attributeName(label: string): string {
  return label.toLowerCase();
}

export function requiredMessage(label: string): string {
  return `The ${attributeName(label)} field is required.`;
}

/** A type error that reads "is required" when the value is missing altogether. */
function typeError(label: string, message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? requiredMessage(label) : message);
}

function build(kind: FieldKind, label: string, value: z.ZodType, options: FieldOptions & Partial<Field> = {}): Field {
  return {
    kind,
    label,
    value,
    required: options.required ?? false,
    unique: options.unique ?? false,
    fullText: options.fullText ?? false,
    writeOnly: options.writeOnly ?? false,
    computed: options.computed ?? false,
    references: options.references,
    referencesBy: options.referencesBy,
    author: options.author,
    contactType: options.contactType,
    options: options.options,
  };
}

/** NUL and other control characters (tab and line breaks are fine) have no place in a record. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function stringValue(label: string, max: number) {
  const attr = attributeName(label);
  return z
    .string({ error: typeError(label, `The ${attr} field must be a string.`) })
    .trim()
    .max(max, `The ${attr} field must not be greater than ${max} characters.`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), `The ${attr} field contains characters that are not allowed.`);
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

export function text(label: string, options: FieldOptions & { max?: number } = {}): Field {
  return build('text', label, stringValue(label, options.max ?? 255), options);
}

export function textarea(label: string, options: FieldOptions = {}): Field {
  return build('textarea', label, stringValue(label, 5000), options);
}

export function email(label: string, options: FieldOptions = {}): Field {
  const attr = attributeName(label);
  // Stored lower-cased: sign-in compares lower-cased, and Ana@x.ph is ana@x.ph.
  const value = stringValue(label, 255)
    .toLowerCase()
    .pipe(z.email(`The ${attr} field must be a valid email address.`));
  return build('email', label, value, options);
}

/** The largest id a record can have (the columns are 32-bit integers). */
export const MAX_ID = 2_147_483_647;

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

/** A whole number; one that names a record (`referencesBy`) is an id, taken strictly as `recordId`. */
export function integer(label: string, options: FieldOptions & Pick<Field, 'referencesBy'> & { min?: number; max?: number } = {}): Field {
  const value = options.referencesBy
    ? recordId(label)
    : numeric(label, { min: options.min ?? 0, max: options.max ?? 1_000_000, integer: true });
  return build('integer', label, value, options);
}

/** Pesos, stored as centavos. */
export function money(label: string, options: FieldOptions = {}): Field {
  return build('money', label, numeric(label, { min: 0, max: MAX_MONEY }), options);
}

/** A quantity in thousandths precision, never negative. */
export function quantity(label: string, options: FieldOptions = {}): Field {
  return build('quantity', label, numeric(label, { min: 0, max: MAX_QUANTITY }), options);
}

/** A unit conversion factor (> 0, six decimal places). */
export function factor(label: string, options: FieldOptions = {}): Field {
  return build('factor', label, positiveNumber(label, MAX_QUANTITY), options);
}

export function date(label: string, options: FieldOptions = {}): Field {
  const attr = attributeName(label);
  const isoDate = z
    .string({ error: typeError(label, `The ${attr} field must be a valid date.`) })
    .trim()
    .pipe(z.iso.date(`The ${attr} field must be a valid date (YYYY-MM-DD).`));
  return build('date', label, isoDate, options);
}

export function boolean(label: string, options: FieldOptions = {}): Field {
  const attr = attributeName(label);
  const flag = z.preprocess(
    (input) => {
      if (input === 1 || input === '1' || input === 'true') return true;
      if (input === 0 || input === '0' || input === 'false') return false;
      return input;
    },
    z.boolean({ error: typeError(label, `The ${attr} field must be true or false.`) }),
  );
  return build('boolean', label, flag, options);
}

export function select(label: string, options: readonly SelectOption[], fieldOptions: FieldOptions = {}): Field {
  const values = options.map((option) => option.value) as [string, ...string[]];
  const value = z.enum(values, { error: typeError(label, `The selected ${attributeName(label)} is invalid.`) });
  return build('select', label, value, { ...fieldOptions, options });
}

/** A foreign key to another resource of the same business; existence is checked by the server. */
export function reference(label: string, resource: string, options: FieldOptions & Pick<Field, 'contactType'> = {}): Field {
  return build('reference', label, recordId(label), { ...options, references: resource });
}

/** The user who created the record: set by the server, read like any reference to a user. */
export function author(label: string): Field {
  return build('reference', label, recordId(label), { computed: true, references: 'users', author: true });
}

export interface DiscountEntry {
  quantity: number;
  discount_percent: number;
}

/** A quantity-break list, shown as `10:5%, 50:8%`. */
export function discounts(label: string): Field {
  const entry = z.object({
    quantity: positiveNumber('Quantity', MAX_QUANTITY),
    discount_percent: numeric('Discount percent', { min: 0, max: 100 }),
  });
  const attr = attributeName(label);
  const list = z
    .array(entry, { error: typeError(label, `The ${attr} field must be a list.`) })
    .max(DISCOUNT_LIST_MAX, `The ${attr} field must not have more than ${DISCOUNT_LIST_MAX} entries.`)
    .refine((entries) => new Set(entries.map((e) => e.quantity)).size === entries.length, {
      message: `The ${attr} field has the same quantity twice.`,
    });
  return build('discounts', label, list);
}

export function formatDiscounts(entries: readonly DiscountEntry[]): string {
  return entries.map((entry) => `${entry.quantity}:${entry.discount_percent}%`).join(', ');
}

export function password(label: string, options: FieldOptions = {}): Field {
  const attr = attributeName(label);
  const value = z
    .string({ error: typeError(label, `The ${attr} field must be a string.`) })
    .min(8, `The ${attr} field must be at least 8 characters.`)
    .max(200, `The ${attr} field must not be greater than 200 characters.`);
  return build('password', label, value, { ...options, writeOnly: true });
}

export function pin(label: string, options: FieldOptions = {}): Field {
  const attr = attributeName(label);
  const value = z
    .union([z.string(), z.number()], { error: typeError(label, `The ${attr} field must be 4 to 6 digits.`) })
    .transform(String)
    .pipe(z.string().regex(/^\d{4,6}$/, `The ${attr} field must be 4 to 6 digits.`));
  return build('pin', label, value, { ...options, writeOnly: true });
}
