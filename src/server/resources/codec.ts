import { valueOf } from '../../domain/field-values';
import type { DiscountEntry, Field } from '../../domain/fields';
import { centavosToPesos, pesosToCentavos } from '../../domain/money';
import { fromMillionths, fromThousandths, toMillionths, toThousandths } from '../../domain/quantity';
import { readableFields, referenceKey, type ResourceDefinition } from '../../domain/resource';
import { toIsoTimestamp } from '../db/dialect';

/** How each kind of field is kept in a column: centavos, thousandths, 0/1 and JSON text. */

export function toStorage(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) {
    if (field.kind === 'boolean') return 0;
    if (field.kind === 'discounts') return '[]';
    return field.whenBlank ?? null;
  }
  switch (field.kind) {
    case 'money':
      return pesosToCentavos(value as number);
    case 'quantity':
      return toThousandths(value as number);
    case 'factor':
      return toMillionths(value as number);
    case 'boolean':
      return value ? 1 : 0;
    case 'discounts':
      return JSON.stringify(
        (value as DiscountEntry[])
          .map((entry) => ({ quantity: entry.quantity, discount_percent: entry.discount_percent }))
          .sort((a, b) => a.quantity - b.quantity),
      );
    default:
      return value;
  }
}

export function fromStorage(field: Field, stored: unknown): unknown {
  if (stored === null || stored === undefined) return field.kind === 'discounts' ? [] : null;
  switch (field.kind) {
    case 'money':
      return centavosToPesos(Number(stored));
    case 'quantity':
      return fromThousandths(Number(stored));
    case 'factor':
      return fromMillionths(Number(stored));
    case 'boolean':
      return Boolean(stored);
    case 'discounts':
      return JSON.parse(String(stored)) as DiscountEntry[];
    case 'integer':
    case 'reference':
      return Number(stored);
    default:
      return stored;
  }
}

const INT32_MAX = 2_147_483_647;

/** A whole number that fits an integer column, or undefined. */
export function storableInteger(raw: string): number | undefined {
  return /^\d{1,10}$/.test(raw) && Number(raw) <= INT32_MAX ? Number(raw) : undefined;
}

/**
 * A search value from the query string, as the column holds it; undefined when no record can
 * hold it (so the search matches nothing rather than asking the database something it rejects).
 */
export function searchValueToStorage(field: Field, raw: string): unknown {
  if (raw.includes('\u0000')) return undefined;
  switch (field.kind) {
    case 'integer':
    case 'reference':
      return storableInteger(raw);
    case 'boolean':
      if (raw === '1' || raw === 'true') return 1;
      if (raw === '0' || raw === 'false') return 0;
      return undefined;
    case 'date':
      return valueOf(field).safeParse(raw).success ? raw : undefined;
    default:
      return raw;
  }
}

/** The suffix under which a reference's display value is selected with the row. */
export const REFERENCE_DISPLAY_SUFFIX = '__display';

export type ApiRecord = Record<string, unknown> & { id: number };

const readableByDefinition = new WeakMap<ResourceDefinition, [string, Field][]>();

/** A stored row as the API speaks it: decimals, booleans, ISO timestamps, references named. */
export function serializeRow(definition: ResourceDefinition, row: Record<string, unknown>): ApiRecord {
  let readable = readableByDefinition.get(definition);
  if (!readable) readableByDefinition.set(definition, (readable = readableFields(definition)));
  const record: ApiRecord = { id: Number(row.id) };
  for (const [name, field] of readable) {
    record[name] = fromStorage(field, row[name]);
    if (field.kind === 'reference') {
      const display = row[`${name}${REFERENCE_DISPLAY_SUFFIX}`];
      record[referenceKey(name)] = record[name] === null ? null : { id: record[name], display: display ?? null };
    }
  }
  record.created_at = toIsoTimestamp(row.created_at);
  record.updated_at = toIsoTimestamp(row.updated_at);
  record.deleted_at = toIsoTimestamp(row.deleted_at);
  record.version = Number(row.version);
  return record;
}
