import { formatDiscounts, type DiscountEntry, type Field } from '../../domain/fields';
import type { ListParams } from '../../domain/list-params-schema';
import { readableFields, referenceKey, type ResourceDefinition } from '../../domain/resource';
import type { ApiRecord } from './codec';
import { allRecordsInListOrder } from './record-service';
import type { Db, Scope } from '../db/scope';

/**
 * A list as CSV (RFC 4180, UTF-8 with a byte-order mark so spreadsheet programs read "ñ"), for
 * people who take the list away to a spreadsheet: the list's own search, sort and trash filters,
 * one line per record (a document's lines stay on its own page), references by their names and
 * money as plain decimals. It is produced a
 * batch of records at a time, so a list of a million rows never sits in memory. It walks the list
 * as the engine reads it, so it holds what the list shows the user: of records that belong to
 * places, those of the places they view.
 */

interface Column {
  heading: string;
  cell(record: ApiRecord): string;
}

export const BYTE_ORDER_MARK = '\uFEFF';

/** A spreadsheet runs a cell that starts like a formula; a leading apostrophe keeps it text. */
export function inert(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV row, ending in CRLF. */
export function csvRow(cells: string[]): string {
  return `${cells.map(quoted).join(',')}\r\n`;
}

function fieldText(name: string, field: Field, record: ApiRecord): string {
  const value = record[name];
  if (value === null || value === undefined) return '';
  if (field.kind === 'reference' || field.referencesBy) {
    const reference = record[referenceKey(name)] as { display: string | null } | null | undefined;
    return inert(reference?.display ?? String(value));
  }
  switch (field.kind) {
    case 'money':
      return Number(value).toFixed(2);
    case 'quantity':
    case 'factor':
    case 'integer':
      return String(value);
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'discounts':
      return formatDiscounts(value as DiscountEntry[]);
    case 'select':
      return field.options?.find((option) => option.value === value)?.label ?? String(value);
    default:
      return inert(String(value));
  }
}

function columnsOf(definition: ResourceDefinition, params: ListParams): Column[] {
  const timestamp = (name: string) => (record: ApiRecord) => String(record[name] ?? '');
  const columns: Column[] = [{ heading: 'ID', cell: (record) => String(record.id) }];
  for (const [name, field] of readableFields(definition)) {
    columns.push({ heading: field.label, cell: (record) => fieldText(name, field, record) });
  }
  columns.push({ heading: 'Created', cell: timestamp('created_at') }, { heading: 'Updated', cell: timestamp('updated_at') });
  if (params.with_trashed || params.only_trashed) columns.push({ heading: 'Deleted', cell: timestamp('deleted_at') });
  return columns;
}

export async function* csvLines(db: Db, scope: Scope, definition: ResourceDefinition, params: ListParams): AsyncGenerator<string> {
  const columns = columnsOf(definition, params);
  yield BYTE_ORDER_MARK + csvRow(columns.map((column) => column.heading));
  for await (const records of allRecordsInListOrder(db, scope, definition, params)) {
    yield records.map((record) => csvRow(columns.map((column) => column.cell(record)))).join('');
  }
}
