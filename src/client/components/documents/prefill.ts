import type { ResourceDefinition } from '../../../domain/resource';
import { startingValues } from '../crud/record-form';
import type { FormValues } from '../crud/field-input';
import type { LineRow } from './line-items';

interface SourceLine {
  id: number;
  item_id: number;
  item: { display: string } | null;
  unit_of_measurement_id: number;
  quantity: number;
  unit_price: number;
  discount_percent: number;
  vatable: boolean;
  quantity_done: number;
}

const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

const lineOf = (line: SourceLine, quantity: number, fromSource: boolean): LineRow => ({
  item_id: line.item_id,
  item_name: line.item?.display ?? null,
  unit_of_measurement_id: line.unit_of_measurement_id,
  quantity: String(quantity),
  unit_price: String(line.unit_price),
  discount_percent: String(line.discount_percent),
  vatable: line.vatable,
  ...(fromSource ? { source_line_id: line.id, open: quantity } : {}),
});

/**
 * A new document's form: dated today, with one empty line; made from a source document
 * (`/receive-orders/create/{purchase_order_id}`), it takes the source's party, location and
 * what is still open of its lines — a receive order what is left to receive, a bill the order's
 * lines, a payment the bill's balance.
 */
export function documentStartingValues(definition: ResourceDefinition, source?: Record<string, unknown>): FormValues {
  const values: FormValues = { ...startingValues(definition), date: today() };
  const link = definition.document?.source;
  if (!link || !source) return values;
  values[link.field] = source.id;
  for (const name of ['contact_id', 'branch_id', 'warehouse_id']) if (name in values) values[name] = source[name] ?? null;
  const lines = (source.lines as SourceLine[] | undefined) ?? [];
  if (definition.name === 'receive-orders') {
    values.lines = lines
      .filter((line) => line.quantity > line.quantity_done)
      .map((line) => lineOf(line, Math.round((line.quantity - line.quantity_done) * 1000) / 1000, true));
  } else if (definition.document?.lines === 'priced') {
    values.lines = lines.map((line) => lineOf(line, line.quantity, false));
  }
  if ('amount' in values && typeof source.balance === 'number') values.amount = String(source.balance);
  return values;
}

/**
 * What the pickers of a form made from a source document show before anyone touches them: the
 * source's own names for its party and location, and its number for itself.
 */
export function sourceDisplays(
  definition: ResourceDefinition,
  source: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const link = definition.document?.source;
  if (!link || !source) return undefined;
  const known: Record<string, unknown> = {
    [link.field]: source.id,
    [link.field.replace(/_id$/, '')]: { id: source.id, display: source.number },
  };
  for (const name of ['contact', 'branch', 'warehouse']) {
    known[`${name}_id`] = source[`${name}_id`];
    known[name] = source[name];
  }
  return known;
}
