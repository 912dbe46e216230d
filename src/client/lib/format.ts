import { formatDiscounts, type DiscountEntry, type Field } from '../../domain/fields';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { referenceKey } from '../../domain/resource';

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });

/** An amount kept in centavos, as pesos are shown (₱1,075.20). */
export const formatCentavos = (centavos: number): string => formatPesos(centavosToPesos(centavos));

let dateFormat: Intl.DateTimeFormat | undefined;

/** `2026-11-01` in the user's own way of writing dates. */
export function formatDate(value: string): string {
  const [year, month, day] = value.split('-').map(Number);
  // Made once: `toLocaleDateString` with options makes a formatter on every call (a list's dates, the overview's rows).
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return dateFormat.format(new Date(year, month - 1, day));
}

/** Made when first used: the first formatter in Manila's time zone loads the browser's zone data (lib/freshness.ts). */
let manilaTime: Intl.DateTimeFormat | undefined;

/** A moment on Manila's clock, where the businesses are, whatever zone the device is set to. */
export function formatTimestamp(value: string): string {
  manilaTime ??= new Intl.DateTimeFormat(undefined, { timeZone: 'Asia/Manila', dateStyle: 'medium', timeStyle: 'short' });
  return manilaTime.format(new Date(value));
}

/** A field of a record as a person reads it; an empty value reads as an em dash. */
export function displayValue(name: string, field: Field | undefined, record: Record<string, unknown>): string {
  const value = record[name];
  if (name === 'created_at' || name === 'updated_at' || name === 'deleted_at')
    return typeof value === 'string' ? formatTimestamp(value) : '—';
  if (value === null || value === undefined || value === '') return '—';
  if (field?.referencesBy) return (record[referenceKey(name)] as { display: string } | null)?.display ?? `#${String(value)}`;
  switch (field?.kind) {
    case 'money':
      return formatPesos(Number(value));
    case 'quantity':
    case 'factor':
    case 'integer':
      return numberFormat.format(Number(value));
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'date':
      return formatDate(String(value));
    case 'discounts': {
      const entries = value as DiscountEntry[];
      return entries.length > 0 ? formatDiscounts(entries) : '—';
    }
    case 'select':
      return field.options?.find((option) => option.value === value)?.label ?? String(value);
    case 'reference': {
      const reference = record[referenceKey(name)] as { id: number; display: string | null } | null;
      return reference?.display ?? `#${String(value)}`;
    }
    default:
      return String(value);
  }
}
