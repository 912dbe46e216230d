import { readableFields, referenceKey, type ResourceDefinition } from '../../domain/resource';
import type { FieldChanges } from '../../domain/activity';

/**
 * What a history entry says changed, from records as the API reads them: decimals rather than
 * centavos, references as `{ id, display }` (the name they had then), never a write-only field
 * (passwords, pins) since a read never returns one. A document's lines are told as a count.
 */

/** A record as the API reads it (the engine's `ApiRecord`), seen only by its values. */
type ReadRecord = Readonly<Record<string, unknown>>;

interface DocumentLine {
  item_id: unknown;
  unit_of_measurement_id: unknown;
  quantity: unknown;
  unit_price: unknown;
  discount_percent: unknown;
  vat_category: unknown;
}

function fieldValue(definition: ResourceDefinition, record: ReadRecord, name: string): unknown {
  const value = record[name];
  const field = definition.fields[name];
  // A reference, or a place named by its type and id (a transfer's from location), by its name then.
  if (value === null || !(field?.kind === 'reference' || field?.referencesBy)) return value ?? null;
  return record[referenceKey(name)] ?? value;
}

function linesCount(lines: unknown): string | null {
  if (!Array.isArray(lines)) return null;
  return lines.length === 1 ? '1 line' : `${lines.length} lines`;
}

/** What a line is, without the ids and amounts a re-pricing gives it anew. */
function lineContent(lines: unknown): string {
  if (!Array.isArray(lines)) return '';
  return JSON.stringify(
    (lines as DocumentLine[]).map((line) => [
      line.item_id,
      line.unit_of_measurement_id,
      line.quantity,
      line.unit_price,
      line.discount_percent,
      line.vat_category,
    ]),
  );
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** A new record's values, blanks left out. */
export function initialValues(definition: ResourceDefinition, record: ReadRecord): FieldChanges {
  const changes: FieldChanges = {};
  for (const [name] of readableFields(definition)) {
    const value = fieldValue(definition, record, name);
    if (!isBlank(value)) changes[name] = { from: null, to: value };
  }
  if (Array.isArray(record.lines) && record.lines.length > 0) changes.lines = { from: null, to: linesCount(record.lines) };
  return changes;
}

/** The fields whose value differs between two reads of a record. */
export function changedValues(definition: ResourceDefinition, before: ReadRecord, after: ReadRecord): FieldChanges {
  const changes: FieldChanges = {};
  for (const [name] of readableFields(definition)) {
    if (JSON.stringify(before[name] ?? null) === JSON.stringify(after[name] ?? null)) continue;
    changes[name] = { from: fieldValue(definition, before, name), to: fieldValue(definition, after, name) };
  }
  if (lineContent(before.lines) !== lineContent(after.lines)) {
    const from = linesCount(before.lines);
    const to = linesCount(after.lines);
    // Same count, other content: the count alone would read as no change.
    changes.lines = from === to ? { from, to: `${to ?? ''} (changed)` } : { from, to };
  }
  return changes;
}

/** "Changed the password" for the write-only fields an update was given (their values never appear). */
export function secretsChanged(definition: ResourceDefinition, values: Record<string, unknown>): string | undefined {
  const labels = Object.entries(definition.fields)
    .filter(([name, field]) => field.writeOnly && values[name] !== undefined)
    .map(([, field]) => field.label.toLowerCase());
  return labels.length > 0 ? `Changed the ${labels.join(' and the ')}` : undefined;
}
