import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { documentTotals, VAT_PERCENT } from '../../../domain/documents';
import { centavosToPesos } from '../../../domain/money';
import type { PricedLine } from '../../../domain/pricing';
import { fromThousandths } from '../../../domain/quantity';
import { getResource } from '../../../domain/resources/registry';
import { ADJUSTMENT_REASONS, QUARANTINE_WRITTEN_OFF, reasonDirection } from '../../../domain/resources/stock-adjustments';
import { asOfWords } from '../../lib/freshness';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { ReferencePicker } from '../crud/reference-picker';
import { CameraScanButton } from '../scan/camera-scanner';
import { useItemByCode } from '../scan/item-by-code';
import { Button } from '../ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';
import { SignedQuantityInput, signedAs, type QuantitySign } from '../ui/signed-quantity-input';
import { useLinePricing, type LineContext, type LineState } from './line-pricing';
import { emptyLine, type LineRow } from './line-rows';
import { FieldMessages } from './field-messages';
import { AmountCell, cellOf, ChoiceCell, LineCard, LinesTotals, NoteCell, NumberCell } from './line-cells';
import { RemoveRowButton } from './remove-row-button';
import { ProblemAlert } from '../problem-alert';
import { SmallLabel } from '../labelled-field';
import { formatCentavos } from '../../lib/format';
import { changeAt } from '../../lib/utils';

/** A line's figures, once priced. */
const pricedLine = (state: LineState): PricedLine | null => (state.kind === 'priced' ? state.line : null);
/** The sign an adjustment line's reason gives its quantity: below zero for what leaves the stock, above for what comes in; none for either way. */
const reasonSign = (reason: string | undefined): QuantitySign | undefined => {
  const direction = reasonDirection(reason);
  return direction === 'out' ? -1 : direction === 'in' ? 1 : undefined;
};

/**
 * The line-item editor of document forms: item (search by name, SKU or barcode), unit, quantity,
 * unit price and discount per line. Each line is priced as it is typed, by the rules the server
 * applies when it saves (`domain/pricing.ts`): the listed price for the place and date, the
 * quantity break, VAT, its amount, and the totals; a line the server would refuse (no price, no
 * conversion, not enough stock where the goods leave) says so on the line. Keyboard: picking an
 * item moves to its quantity; Enter in a line's figures goes to the next line's item, adding one
 * after the last. Rows stack into cards on a phone. The server's messages (`lines.2.quantity`)
 * show under their input. A stock adjustment's lines take a signed quantity (what is on hand
 * changes by it) and a reason, with a note: a reason that only takes stock away or only adds it
 * gives the quantity its sign, the others take it from the ± key.
 */
export function LineItems({
  rows,
  onChange,
  errors,
  fromSource,
  priced,
  context,
}: {
  rows: LineRow[];
  onChange: (rows: LineRow[]) => void;
  errors: Record<string, string[]>;
  /** Lines taken from a source document: their item and unit are the source's. */
  fromSource: boolean;
  /** False for goods moved between locations: quantities only, no prices nor totals. */
  priced: boolean;
  /** The document's date, party and place, as its form holds them now. */
  context: LineContext;
}) {
  const businessId = useActiveBusinessId();
  const units = useQuery(
    listQuery(businessId, getResource('unit-of-measurements'), { per_page: 100, order_by: 'asc', order_by_field_name: 'name' }),
  );
  const items = getResource('items');
  const pricing = useLinePricing(rows, context);
  // The field to focus once the change that made it (a new line, a picked item) has rendered.
  const focusNext = useRef<string | null>(null);
  const focusAfterChange = (id: string) => {
    focusNext.current = id;
  };
  useEffect(() => {
    if (focusNext.current === null) return;
    const input = document.getElementById(focusNext.current);
    focusNext.current = null;
    input?.focus();
    if (input instanceof HTMLInputElement) input.select();
  });

  const update = (index: number, changes: Partial<LineRow>) => onChange(changeAt(rows, index, changes));
  /** An item picked, searched or scanned: its unit comes with it, and the quantity is next. */
  const pickItem = (index: number, itemId: number | null, record?: ApiRecord) => {
    const row = rows[index];
    setScanProblem(null);
    update(index, {
      item_id: itemId,
      item_name: record ? String(record.name) : null,
      unit_of_measurement_id: record ? Number(record.unit_of_measurement_id) : row.unit_of_measurement_id,
    });
    if (record) focusAfterChange(`line-${index}-quantity`);
  };
  const itemByCode = useItemByCode();
  const [scanProblem, setScanProblem] = useState<string | null>(null);
  const addLine = () => {
    onChange([...rows, emptyLine(context.spec)]);
    focusAfterChange(`line-${rows.length}-item`);
  };
  /** Enter in a line's figures: on to the next line's item, adding a line after the last. */
  const onward = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // Enter in a line never submits the form: Save is a button of its own.
    event.preventDefault();
    if (index === rows.length - 1) {
      if (fromSource) return;
      addLine();
    } else document.getElementById(`line-${index + 1}-${fromSource && rows[index + 1]?.source_line_id ? 'quantity' : 'item'}`)?.focus();
  };
  const figures = pricing.states.map(pricedLine);
  const totals = documentTotals(figures.filter((line) => line !== null));
  const unsettled = pricing.states.some((state) => state.kind !== 'priced');
  const linesError = errors.lines ?? [];
  const unitName = new Map(
    (units.data?.data ?? []).map((unit) => [Number(unit.id), `${String(unit.name)} (${String(unit.abbreviation)})`]),
  );

  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-medium">Lines</legend>
      <ProblemAlert problem={scanProblem} />
      <ProblemAlert problem={linesError} />
      <ol className="space-y-3">
        {rows.map((row, index) => {
          const state = pricing.states[index];
          const refusal = state.kind === 'refused' ? state.refusal : undefined;
          const short = pricing.shortOf(row);
          // The server's messages after a save; before it, what the server would say.
          const at = (field: string) => {
            const server = errors[`lines.${index}.${field}`] ?? [];
            if (server.length > 0) return server;
            const local = [refusal?.field === field ? refusal.message : undefined, field === 'quantity' ? short : undefined];
            return local.filter((message): message is string => message !== undefined);
          };
          const id = (field: string) => `line-${index}-${field}`;
          const cell = cellOf(index, row, at, update);
          const line = figures[index];
          const item = state.kind === 'priced' || state.kind === 'refused' ? state.item : undefined;
          const offered = pricing.unitsOf(item ?? pricing.itemOf.get(row.item_id ?? 0));
          const unitChoices = offered.length > 0 ? offered : [...unitName.keys()];
          const onHand = row.item_id === null ? undefined : pricing.onHandOf.get(row.item_id);
          const onHandAsOf = row.item_id === null ? undefined : pricing.onHandAsOf.get(row.item_id);
          return (
            <LineCard key={index} index={index}>
              <div className="col-span-2 sm:col-span-4">
                <SmallLabel htmlFor={id('item')}>Item</SmallLabel>
                {fromSource && row.source_line_id ? (
                  <p id={id('item')} className="flex min-h-11 items-center">
                    {row.item_name}
                  </p>
                ) : (
                  <div className="flex gap-2">
                    <div className="min-w-0 flex-1">
                      <ReferencePicker
                        id={id('item')}
                        target={items}
                        value={row.item_id}
                        display={row.item_name ?? (item ? String(item.name) : undefined)}
                        invalid={at('item_id').length > 0}
                        describe={pricing.resultDetails}
                        onChange={(itemId, record) => pickItem(index, itemId, record)}
                      />
                    </div>
                    <CameraScanButton
                      label={`Scan the item of line ${index + 1} with the camera`}
                      onRead={(code) =>
                        void itemByCode(code).then((record) =>
                          record ? pickItem(index, Number(record.id), record) : setScanProblem(`No item has the barcode or SKU ${code}.`),
                        )
                      }
                    />
                  </div>
                )}
                <FieldMessages messages={at('item_id')} />
                {item && (
                  <p className="mt-1 text-xs text-muted-foreground">
                    {String(item.sku)}
                    {onHand !== undefined && context.takesFrom && ` · ${fromThousandths(onHand)} on hand here${asOfWords(onHandAsOf)}`}
                    {onHand !== undefined &&
                      context.adjusts &&
                      line &&
                      // Quarantined goods written off leave the quarantine, not what may be sold.
                      row.reason !== QUARANTINE_WRITTEN_OFF &&
                      ` → ${fromThousandths(onHand + Math.sign(Number(row.quantity)) * line.baseQuantity)} after`}
                  </p>
                )}
                {row.open !== undefined &&
                  (context.spec?.stock === 'in' && context.spec.twoLocations ? (
                    // A receive counts what arrived: what was on its way beside it, and one tap for all of it.
                    <p className="flex items-center gap-2 text-xs text-muted-foreground">
                      of {row.open} in transit
                      <Button
                        type="button"
                        variant="link"
                        size="sm"
                        className="h-auto p-0"
                        aria-label={`Receive all ${row.open} of line ${index + 1}`}
                        onClick={() => update(index, { quantity: String(row.open) })}
                      >
                        All {row.open}
                      </Button>
                    </p>
                  ) : (
                    <p className="text-xs text-muted-foreground">{row.open} still open</p>
                  ))}
              </div>
              <div className="col-span-2 sm:col-span-2">
                <SmallLabel htmlFor={id('unit')}>Unit</SmallLabel>
                <Select
                  value={row.unit_of_measurement_id ? String(row.unit_of_measurement_id) : ''}
                  onValueChange={(value) => update(index, { unit_of_measurement_id: Number(value) })}
                  disabled={fromSource && Boolean(row.source_line_id)}
                >
                  <SelectTrigger id={id('unit')} className="h-11 w-full" aria-invalid={at('unit_of_measurement_id').length > 0}>
                    <SelectValue placeholder="Unit">
                      {row.unit_of_measurement_id ? unitName.get(row.unit_of_measurement_id) : undefined}
                    </SelectValue>
                  </SelectTrigger>
                  <SelectContent position="popper">
                    {unitChoices.map((unitId) => (
                      <SelectItem key={unitId} value={String(unitId)}>
                        {unitName.get(unitId) ?? `#${unitId}`}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FieldMessages messages={at('unit_of_measurement_id')} />
              </div>
              {context.adjusts ? (
                <div className="sm:col-span-2">
                  <SmallLabel htmlFor={id('quantity')}>Change</SmallLabel>
                  {/* Damaged, expired and lost take stock away, found adds it: their sign is the reason's; the others take the ± key. */}
                  <SignedQuantityInput
                    id={id('quantity')}
                    value={row.quantity}
                    sign={reasonSign(row.reason)}
                    aria-invalid={at('quantity').length > 0}
                    onChange={(quantity) => update(index, { quantity })}
                    onKeyDown={onward(index)}
                  />
                  <FieldMessages messages={at('quantity')} />
                </div>
              ) : (
                <NumberCell label="Quantity" {...cell('quantity')} onKeyDown={onward(index)} />
              )}
              {context.adjusts && (
                <>
                  <ChoiceCell
                    label="Reason"
                    className="sm:col-span-3"
                    prompt="Choose…"
                    choices={ADJUSTMENT_REASONS}
                    {...cell('reason')}
                    onChange={(reason) => {
                      // The reason moves the sign of what was typed: 3 Found, then Damaged, is −3.
                      const sign = reasonSign(reason);
                      update(index, { reason, quantity: sign === undefined ? row.quantity : signedAs(row.quantity, sign) });
                    }}
                  />
                  <NoteCell
                    className="col-span-2 sm:order-last sm:col-span-12"
                    reason={row.reason}
                    {...cell('note')}
                    onKeyDown={onward(index)}
                  />
                </>
              )}
              {priced && (
                <>
                  <NumberCell
                    label="Unit price"
                    {...cell('unit_price')}
                    placeholder={line ? centavosToPesos(line.unitPrice).toFixed(2) : 'Price list'}
                    onKeyDown={onward(index)}
                  />
                  <NumberCell
                    label="Discount %"
                    {...cell('discount_percent', 'discount')}
                    placeholder={line ? String(line.discountHundredths / 100) : 'Auto'}
                    onKeyDown={onward(index)}
                    narrow
                  />
                </>
              )}
              <div className="flex items-end justify-between gap-2 sm:col-span-1 sm:flex-col sm:items-end">
                {priced && (
                  <AmountCell index={index} line={line} pricesIncludeVat={pricing.pricesIncludeVat} labelClassName="sm:sr-only">
                    {line && <LineTax line={line} pricesIncludeVat={pricing.pricesIncludeVat} />}
                  </AmountCell>
                )}
                <RemoveRowButton
                  label={`Remove line ${index + 1}`}
                  onRemove={() => onChange(rows.filter((_, at) => at !== index))}
                  disabled={rows.length === 1}
                />
              </div>
            </LineCard>
          );
        })}
      </ol>
      {!fromSource && (
        <Button type="button" variant="outline" onClick={addLine}>
          <Plus aria-hidden /> Add line
        </Button>
      )}
      {priced && <LinesTotals totals={totals} pricesIncludeVat={pricing.pricesIncludeVat} />}
      {priced && unsettled && <p className="text-right text-xs text-muted-foreground">The total counts the lines priced so far.</p>}
    </fieldset>
  );
}

/** How a priced line is taxed, under its amount: its VAT, or why it has none. */
function LineTax({ line, pricesIncludeVat }: { line: PricedLine; pricesIncludeVat: boolean }) {
  const note = line.scPwd
    ? `SC/PWD 20% off${line.category === 'exempt' ? ', VAT-exempt' : ''}`
    : line.category === 'exempt'
      ? 'VAT-exempt'
      : line.category === 'zero_rated'
        ? `Zero-rated (0% VAT)`
        : `${pricesIncludeVat ? 'incl.' : '+'} ${VAT_PERCENT}% VAT ${formatCentavos(line.vat)}`;
  return <span className="text-xs text-muted-foreground tabular-nums">{note}</span>;
}
