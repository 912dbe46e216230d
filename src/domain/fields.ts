/**
 * Field builders for resource definitions. A field says how it is labelled and edited (its
 * `kind`) and what values it takes, as plain data: the zod schema of its API value, with
 * Laravel-style messages, is built from it where values are checked (`field-values.ts`), so
 * a screen that only names fields does not load zod. E.g.
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
  /** The most characters a text takes, or the largest whole number. */
  max?: number;
  /** The smallest whole number. */
  min?: number;
  /** Asked for, and shown, only while another field holds one value, or one of several (a count's brand, when it counts one brand). */
  shownWhen?: { field: string; is: string | readonly string[] };
  /**
   * A text in a set form: `tin`, a Philippine TIN (9 digits, 3-3-3, with its branch code after it
   * if given), kept as 123-456-789 or 123-456-789-000; `branch-code`, the BIR's 3 or 5 digits,
   * kept as text with their leading zeros.
   */
  format?: 'tin' | 'branch-code';
  /** The option kept when none is given: a select with a usual choice (an item's VAT: VATable). */
  whenBlank?: string;
  /**
   * Given only by a user holding this permission (or the master): a form asks only them for it,
   * a record's view shows it only when it holds a value, and a printed copy never (an invoice's
   * reason for going past its customer's credit limit). The store that reads it refuses it from
   * anyone else.
   */
  heldBy?: string;
}

interface FieldOptions {
  required?: boolean;
  unique?: boolean;
  fullText?: boolean;
  computed?: boolean;
  shownWhen?: Field['shownWhen'];
  format?: Field['format'];
  whenBlank?: string;
  heldBy?: string;
}

/** Whether a field is asked for and shown with these values: always, unless it is shown only with another's value. */
export function isShown(field: Field, values: Readonly<Record<string, unknown>>): boolean {
  if (!field.shownWhen) return true;
  const { field: other, is } = field.shownWhen;
  const value = values[other];
  return typeof is === 'string' ? value === is : typeof value === 'string' && is.includes(value);
}

export const DISCOUNT_LIST_MAX = 20;

/** Laravel names an attribute in lower case: "The unit of measurement field is required." */
export function attributeName(label: string): string {
  return label.toLowerCase();
}

export function requiredMessage(label: string): string {
  return `The ${attributeName(label)} field is required.`;
}

function build(kind: FieldKind, label: string, options: FieldOptions & Partial<Field> = {}): Field {
  return {
    kind,
    label,
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
    max: options.max,
    min: options.min,
    shownWhen: options.shownWhen,
    format: options.format,
    whenBlank: options.whenBlank,
    heldBy: options.heldBy,
  };
}

/** NUL and other control characters (tab and line breaks are fine) have no place in a record. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Up to `max` characters (255 unless said). */
export function text(label: string, options: FieldOptions & { max?: number } = {}): Field {
  return build('text', label, { ...options, max: options.max ?? 255 });
}

/** Up to 5,000 characters, over several lines. */
export function textarea(label: string, options: FieldOptions = {}): Field {
  return build('textarea', label, options);
}

/** An email address, stored lower-cased. */
export function email(label: string, options: FieldOptions = {}): Field {
  return build('email', label, options);
}

/** The largest id a record can have (the columns are 32-bit integers). */
export const MAX_ID = 2_147_483_647;

/** A whole number; one that names a record (`referencesBy`) is an id, taken strictly as a record id. */
export function integer(label: string, options: FieldOptions & Pick<Field, 'referencesBy'> & { min?: number; max?: number } = {}): Field {
  return build('integer', label, { ...options, min: options.min ?? 0, max: options.max ?? 1_000_000 });
}

/** Pesos, stored as centavos. */
export function money(label: string, options: FieldOptions = {}): Field {
  return build('money', label, options);
}

/** A quantity in thousandths precision, never negative. */
export function quantity(label: string, options: FieldOptions = {}): Field {
  return build('quantity', label, options);
}

/** A unit conversion factor (> 0, six decimal places). */
export function factor(label: string, options: FieldOptions = {}): Field {
  return build('factor', label, options);
}

/** A day, `YYYY-MM-DD`. */
export function date(label: string, options: FieldOptions = {}): Field {
  return build('date', label, options);
}

/** True or false; `1`, `"1"`, `"true"`, `0`, `"0"` and `"false"` are read as such. */
export function boolean(label: string, options: FieldOptions = {}): Field {
  return build('boolean', label, options);
}

/** One of `options`, by value. */
export function select(label: string, options: readonly SelectOption[], fieldOptions: FieldOptions = {}): Field {
  return build('select', label, { ...fieldOptions, options });
}

/** A foreign key to another resource of the same business; existence is checked by the server. */
export function reference(label: string, resource: string, options: FieldOptions & Pick<Field, 'contactType'> = {}): Field {
  return build('reference', label, { ...options, references: resource });
}

/** The user who created the record: set by the server, read like any reference to a user. */
export function author(label: string): Field {
  return build('reference', label, { computed: true, references: 'users', author: true });
}

export interface DiscountEntry {
  quantity: number;
  discount_percent: number;
}

/** A quantity-break list, shown as `10:5%, 50:8%`. */
export function discounts(label: string): Field {
  return build('discounts', label);
}

export function formatDiscounts(entries: readonly DiscountEntry[]): string {
  return entries.map((entry) => `${entry.quantity}:${entry.discount_percent}%`).join(', ');
}

/** 8 to 200 characters, accepted on write and never read back. */
export function password(label: string, options: FieldOptions = {}): Field {
  return build('password', label, { ...options, writeOnly: true });
}

/** 4 to 6 digits, accepted on write and never read back. */
export function pin(label: string, options: FieldOptions = {}): Field {
  return build('pin', label, { ...options, writeOnly: true });
}
