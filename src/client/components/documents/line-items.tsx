import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { documentTotals, lineFigures } from '../../../domain/documents';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../../domain/money';
import { toThousandths } from '../../../domain/quantity';
import { getResource } from '../../../domain/resources/registry';
import { listQuery } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { cn } from '../../lib/utils';
import { ReferencePicker } from '../crud/reference-picker';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';

/** One row of the editor, as typed: numbers stay text until sent. */
export interface LineRow {
  item_id: number | null;
  /** The item's name, once picked (or from the source document). */
  item_name?: string | null;
  unit_of_measurement_id: number | null;
  quantity: string;
  unit_price: string;
  discount_percent: string;
  vatable: boolean;
  /** The source document's line it fulfils (a purchase order line being received). */
  source_line_id?: number | null;
  /** How much of the source line is still open, shown as the most it can take. */
  open?: number;
}

export const emptyLine = (): LineRow => ({
  item_id: null,
  unit_of_measurement_id: null,
  quantity: '1',
  unit_price: '',
  discount_percent: '',
  vatable: true,
});

/** A document line as the API answers it (GET /api/{document}/{id} → `lines`). */
export interface DocumentLine {
  id: number;
  item_id: number;
  item: { id: number; display: string; sku: string } | null;
  unit_of_measurement_id: number;
  unit: string | null;
  quantity: number;
  unit_price: number;
  discount_percent: number;
  vatable: boolean;
  amount: number;
  vat: number;
  /** What later documents fulfilled of it: received of an order line, transferred of a request line … */
  quantity_done: number;
}

/** A document's stored lines as rows of the editor (editing it, or starting from it). */
export function rowsOf(lines: readonly DocumentLine[]): LineRow[] {
  return lines.map((line) => ({
    item_id: line.item_id,
    item_name: line.item?.display ?? null,
    unit_of_measurement_id: line.unit_of_measurement_id,
    quantity: String(line.quantity),
    unit_price: String(line.unit_price),
    discount_percent: String(line.discount_percent),
    vatable: line.vatable,
  }));
}

const number = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text));

/** The lines as the API takes them; blank price and discount are left to the server (price list, quantity break). */
export function linesBody(rows: readonly LineRow[]) {
  return rows.map((row) => ({
    item_id: row.item_id,
    unit_of_measurement_id: row.unit_of_measurement_id,
    quantity: number(row.quantity) ?? row.quantity,
    unit_price: number(row.unit_price),
    discount_percent: number(row.discount_percent),
    source_line_id: row.source_line_id ?? null,
  }));
}

/** Running figures in centavos: a line without a price yet counts as nothing. */
function figures(row: LineRow) {
  const quantity = number(row.quantity);
  const price = number(row.unit_price);
  if (quantity === null || price === null) return null;
  return lineFigures(toThousandths(quantity), pesosToCentavos(price), Math.round((number(row.discount_percent) ?? 0) * 100), row.vatable);
}

/**
 * The line-item editor of document forms: item (search by name, SKU or barcode), unit,
 * quantity, unit price and discount per line, its amount, and running totals in PHP. Rows stack
 * into cards on a phone. Field messages of the server (`lines.2.quantity`) show under their input.
 */
export function LineItems({
  rows,
  onChange,
  errors,
  fromSource,
  priced,
}: {
  rows: LineRow[];
  onChange: (rows: LineRow[]) => void;
  errors: Record<string, string[]>;
  /** Lines taken from a source document: their item and unit are the source's. */
  fromSource: boolean;
  /** False for goods moved between locations: quantities only, no prices nor totals. */
  priced: boolean;
}) {
  const businessId = useActiveBusinessId();
  const units = useQuery(
    listQuery(businessId, getResource('unit-of-measurements'), { per_page: 100, order_by: 'asc', order_by_field_name: 'name' }),
  );
  const items = getResource('items');
  const update = (index: number, changes: Partial<LineRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...changes } : row)));
  const lineFiguresList = rows.map(figures);
  const totals = documentTotals(lineFiguresList.filter((line) => line !== null));
  const unpriced = lineFiguresList.some((line) => line === null);
  const linesError = errors.lines ?? [];

  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-medium">Lines</legend>
      {linesError.length > 0 && (
        <p role="alert" className="text-sm text-destructive">
          {linesError.join(' ')}
        </p>
      )}
      <ol className="space-y-3">
        {rows.map((row, index) => {
          const at = (field: string) => errors[`lines.${index}.${field}`] ?? [];
          const id = (field: string) => `line-${index}-${field}`;
          const line = lineFiguresList[index];
          return (
            <li
              key={index}
              className="grid grid-cols-2 gap-3 rounded-lg border bg-card p-3 sm:grid-cols-12 sm:items-start"
              aria-label={`Line ${index + 1}`}
            >
              <div className="col-span-2 sm:col-span-4">
                <Label htmlFor={id('item')} className="mb-1 block text-xs text-muted-foreground">
                  Item
                </Label>
                {fromSource && row.source_line_id ? (
                  <p id={id('item')} className="flex min-h-11 items-center">
                    {row.item_name}
                  </p>
                ) : (
                  <ReferencePicker
                    id={id('item')}
                    target={items}
                    value={row.item_id}
                    display={row.item_name ?? undefined}
                    invalid={at('item_id').length > 0}
                    onChange={(itemId, record) =>
                      update(index, {
                        item_id: itemId,
                        item_name: record ? String(record.name) : null,
                        unit_of_measurement_id: record ? Number(record.unit_of_measurement_id) : row.unit_of_measurement_id,
                        vatable: record ? Boolean(record.vatable) : row.vatable,
                      })
                    }
                  />
                )}
                <Messages messages={at('item_id')} />
                {row.open !== undefined && <p className="text-xs text-muted-foreground">{row.open} still open</p>}
              </div>
              <div className="col-span-2 sm:col-span-2">
                <Label htmlFor={id('unit')} className="mb-1 block text-xs text-muted-foreground">
                  Unit
                </Label>
                <Select
                  value={row.unit_of_measurement_id ? String(row.unit_of_measurement_id) : ''}
                  onValueChange={(value) => update(index, { unit_of_measurement_id: Number(value) })}
                  disabled={fromSource && Boolean(row.source_line_id)}
                >
                  <SelectTrigger id={id('unit')} className="h-11 w-full" aria-invalid={at('unit_of_measurement_id').length > 0}>
                    <SelectValue placeholder="Unit" />
                  </SelectTrigger>
                  <SelectContent position="popper">
                    {units.data?.data.map((unit) => (
                      <SelectItem key={String(unit.id)} value={String(unit.id)}>
                        {String(unit.name)} ({String(unit.abbreviation)})
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <Messages messages={at('unit_of_measurement_id')} />
              </div>
              <NumberCell
                label="Quantity"
                id={id('quantity')}
                value={row.quantity}
                messages={at('quantity')}
                onChange={(quantity) => update(index, { quantity })}
              />
              {priced && (
                <>
                  <NumberCell
                    label="Unit price"
                    id={id('unit_price')}
                    value={row.unit_price}
                    placeholder="Price list"
                    messages={at('unit_price')}
                    onChange={(unit_price) => update(index, { unit_price })}
                  />
                  <NumberCell
                    label="Discount %"
                    id={id('discount')}
                    value={row.discount_percent}
                    placeholder="Auto"
                    messages={at('discount_percent')}
                    onChange={(discount_percent) => update(index, { discount_percent })}
                    narrow
                  />
                </>
              )}
              <div className="flex items-end justify-between gap-2 sm:col-span-1 sm:flex-col sm:items-end">
                {priced && (
                  <>
                    <span className="text-xs text-muted-foreground sm:sr-only">Amount</span>
                    <output className="flex min-h-11 items-center font-medium tabular-nums" aria-label={`Amount of line ${index + 1}`}>
                      {line ? formatPesos(centavosToPesos(line.amount)) : '—'}
                    </output>
                  </>
                )}
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove line ${index + 1}`}
                  onClick={() => onChange(rows.filter((_, at) => at !== index))}
                  disabled={rows.length === 1}
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      {!fromSource && (
        <Button type="button" variant="outline" onClick={() => onChange([...rows, emptyLine()])}>
          <Plus aria-hidden /> Add line
        </Button>
      )}
      {priced && (
        <dl className="ml-auto grid max-w-xs grid-cols-2 gap-x-4 gap-y-1 text-sm tabular-nums" aria-live="polite">
          <dt className="text-muted-foreground">Subtotal</dt>
          <dd className="text-right">{formatPesos(centavosToPesos(totals.subtotal))}</dd>
          <dt className="text-muted-foreground">Discount</dt>
          <dd className="text-right">−{formatPesos(centavosToPesos(totals.discount_total))}</dd>
          <dt className="text-muted-foreground">VAT (12%)</dt>
          <dd className="text-right">{formatPesos(centavosToPesos(totals.vat_total))}</dd>
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold">{formatPesos(centavosToPesos(totals.total))}</dd>
        </dl>
      )}
      {priced && unpriced && (
        <p className="text-right text-xs text-muted-foreground">
          Lines without a unit price take the price list’s when saved; the totals are then final.
        </p>
      )}
    </fieldset>
  );
}

function NumberCell({
  label,
  id,
  value,
  placeholder,
  messages,
  onChange,
  narrow,
}: {
  label: string;
  id: string;
  value: string;
  placeholder?: string;
  messages: string[];
  onChange: (value: string) => void;
  narrow?: boolean;
}) {
  return (
    <div className={cn(narrow ? 'sm:col-span-1' : 'sm:col-span-2')}>
      <Label htmlFor={id} className="mb-1 block text-xs text-muted-foreground">
        {label}
      </Label>
      <Input
        id={id}
        inputMode="decimal"
        className="h-11 text-right tabular-nums"
        value={value}
        placeholder={placeholder}
        aria-invalid={messages.length > 0}
        onChange={(event) => onChange(event.target.value)}
      />
      <Messages messages={messages} />
    </div>
  );
}

function Messages({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return <p className="mt-1 text-xs text-destructive">{messages.join(' ')}</p>;
}
