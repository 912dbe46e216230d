import type { KeyboardEvent, ReactNode } from 'react';
import { amountAsPriced, type DocumentTotals as Totals, type LineFigures } from '../../../domain/documents';
import type { SelectOption } from '../../../domain/fields';
import { OTHER_REASON } from '../../../domain/resources/stock-adjustments';
import { formatCentavos } from '../../lib/format';
import { cn } from '../../lib/utils';
import { SmallLabel } from '../labelled-field';
import { Input } from '../ui/input';
import { NativeOptions, NativeSelect } from '../ui/native-select';
import { DocumentTotals } from './document-totals';
import { FieldMessages } from './field-messages';
import { totalsInPesos } from './printed-figures';

/**
 * The cells of a document line's editors (line-items.tsx, return-lines-editor.tsx): each a label,
 * its input at a finger's height, and the messages the server (or the form) has for it; the card
 * that holds a line's cells, and the totals under the lines.
 */

/** Line `index` (from 0) of the editor: a card of its cells, in a row of twelve columns from a tablet's width. */
export function LineCard({ index, children }: { index: number; children: ReactNode }) {
  return (
    <li className="grid grid-cols-2 gap-3 rounded-lg border bg-card p-3 sm:grid-cols-12 sm:items-start" aria-label={`Line ${index + 1}`}>
      {children}
    </li>
  );
}

/**
 * What a cell of line `index` takes for the row's field `name`: its id (`line-2-quantity`, or
 * `line-2-{id}` where the field's name is not its id's), the row's value, the messages `at` has
 * for the field, and the change to it through `update`.
 */
export function cellOf<Row>(
  index: number,
  row: Row,
  at: (field: string) => string[],
  update: (index: number, changes: Partial<Row>) => void,
) {
  return <Name extends keyof Row & string>(name: Name, id: string = name) => ({
    id: `line-${index}-${id}`,
    value: row[name],
    messages: at(name),
    onChange: (value: Row[Name]) => {
      const changes: Partial<Row> = {};
      changes[name] = value;
      update(index, changes);
    },
  });
}

/**
 * What line `index` comes to, as its prices are written (with VAT or before it); a dash until it
 * is priced. `children` go under the amount.
 */
export function AmountCell({
  index,
  line,
  pricesIncludeVat,
  className,
  labelClassName,
  children,
}: {
  index: number;
  line: LineFigures | null | undefined;
  pricesIncludeVat: boolean;
  className?: string;
  labelClassName?: string;
  children?: ReactNode;
}) {
  return (
    <div className={cn('flex flex-col sm:items-end', className)}>
      <span className={cn('text-xs text-muted-foreground', labelClassName)}>Amount</span>
      <output className="flex min-h-11 items-center font-medium tabular-nums" aria-label={`Amount of line ${index + 1}`}>
        {line ? formatCentavos(amountAsPriced(line, pricesIncludeVat)) : '—'}
      </output>
      {children}
    </div>
  );
}

/** A number typed on a phone's number pad: a quantity, a price, a discount. */
export function NumberCell({
  label,
  id,
  value,
  placeholder,
  messages,
  onChange,
  narrow,
  onKeyDown,
}: {
  label: string;
  id: string;
  value: string;
  placeholder?: string;
  messages: string[];
  onChange: (value: string) => void;
  narrow?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className={cn(narrow ? 'sm:col-span-1' : 'sm:col-span-2')}>
      <SmallLabel htmlFor={id}>{label}</SmallLabel>
      <Input
        id={id}
        inputMode="decimal"
        className="h-11 text-right tabular-nums"
        value={value}
        placeholder={placeholder}
        aria-invalid={messages.length > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <FieldMessages messages={messages} />
    </div>
  );
}

/** One of a few choices (a reason, what becomes of the goods); `prompt` is the option standing for none chosen yet. */
export function ChoiceCell({
  label,
  id,
  value,
  choices,
  prompt,
  messages,
  onChange,
  className,
}: {
  label: string;
  id: string;
  value: string | undefined;
  choices: readonly SelectOption[];
  prompt?: string;
  messages: string[];
  onChange: (value: string) => void;
  className: string;
}) {
  return (
    <div className={className}>
      <SmallLabel htmlFor={id}>{label}</SmallLabel>
      <NativeSelect
        id={id}
        className="h-11 w-full"
        value={value ?? ''}
        aria-invalid={messages.length > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <NativeOptions prompt={prompt} choices={choices} />
      </NativeSelect>
      <FieldMessages messages={messages} />
    </div>
  );
}

/** A line's note, across the whole line: required with the reason "other", which it explains. */
export function NoteCell({
  id,
  reason,
  value,
  messages,
  onChange,
  onKeyDown,
  className,
}: {
  id: string;
  reason: string | undefined;
  value: string | undefined;
  messages: string[];
  onChange: (value: string) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  className: string;
}) {
  return (
    <div className={className}>
      <SmallLabel htmlFor={id}>Note{reason === OTHER_REASON ? '' : ' (optional)'}</SmallLabel>
      <Input
        id={id}
        className="h-11"
        value={value ?? ''}
        maxLength={500}
        aria-invalid={messages.length > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <FieldMessages messages={messages} />
    </div>
  );
}

/** The totals of the lines as they are typed, under them and read out as they change; `totalLabel` as `DocumentTotals` takes it. */
export function LinesTotals({ totals, pricesIncludeVat, totalLabel }: { totals: Totals; pricesIncludeVat: boolean; totalLabel?: string }) {
  return (
    <section aria-label="Totals" aria-live="polite" className="ml-auto w-full max-w-xs">
      <DocumentTotals record={totalsInPesos(totals, pricesIncludeVat)} totalLabel={totalLabel} />
    </section>
  );
}
