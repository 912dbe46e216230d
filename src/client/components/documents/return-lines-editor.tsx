import type { ComponentProps } from 'react';
import { formatPesos } from '../../../domain/money';
import { getResource } from '../../../domain/resources/registry';
import { OTHER_REASON } from '../../../domain/resources/stock-adjustments';
import type { FormSection } from '../crud/slots';
import { SmallLabel } from '../labelled-field';
import { ProblemAlert } from '../problem-alert';
import { FieldMessages } from './field-messages';
import { AmountCell, cellOf, ChoiceCell, LineCard, LinesTotals, NoteCell, NumberCell } from './line-cells';
import type { LineRow } from './line-rows';
import { TenderRowsEditor } from './payment-tenders';
import { returnFigures, type ReturnRows, type Settlement } from './return-rows';
import { formatCentavos } from '../../lib/format';
import { changeAt } from '../../lib/utils';

/**
 * The lines of a return and how its party is paid back, in its kind's words (`document.returns`):
 * each line of the invoice or bill shows what may still come back of it; someone types how much
 * does (blank: none), why, and what becomes of the goods (back in stock, quarantined, written off;
 * sent back out of stock or out of quarantine). What it comes to is figured as the server will,
 * line by line and in total; it comes off what is owed on the source, is refunded in tenders that
 * must come to it, or is kept on the party's account. The server's messages (`lines.0.quantity`, `settlement`,
 * `tenders.0.amount`) show where they belong.
 */
export function ReturnLinesEditor({ definition, value, onChange, errors }: ComponentProps<FormSection['Editor']>) {
  const form = value as ReturnRows;
  const spec = definition.document!;
  const terms = spec.returns!;
  const noun = getResource(spec.source!.resource).singular.toLowerCase();
  const fromCustomer = spec.contact === 'Customer';
  const { lines, totals } = returnFigures(form);
  const change = (changes: Partial<ReturnRows>) => onChange({ ...form, ...changes });
  const update = (index: number, changes: Partial<LineRow>) => change({ rows: changeAt(form.rows, index, changes) });
  const fromSale = form.rows.some((row) => row.sold);

  return (
    <>
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-medium">{fromCustomer ? 'What comes back' : 'What goes back'}</legend>
        {fromSale ? (
          <p className="text-sm text-muted-foreground">
            Type how many {fromCustomer ? 'come back' : 'go back'} of each line; leave blank what{' '}
            {fromCustomer ? 'the customer keeps' : 'stays here'}.
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">
            Open the {noun} the goods {fromCustomer ? 'come back' : 'go back'} from and choose Return goods.
          </p>
        )}
        <ProblemAlert problem={errors.lines ?? []} />
        <ol className="space-y-3">
          {form.rows.map((row, index) => {
            const id = (field: string) => `line-${index}-${field}`;
            const at = (field: string) => errors[`lines.${index}.${field}`] ?? [];
            const cell = cellOf(index, row, at, update);
            const typed = row.quantity.trim() !== '';
            const tooMany = typed && row.open !== undefined && Number(row.quantity) > row.open;
            return (
              <LineCard key={index} index={index}>
                <div className="col-span-2 sm:col-span-4">
                  <SmallLabel htmlFor={id('quantity')}>Item</SmallLabel>
                  <p className="flex min-h-11 items-center font-medium">{row.item_name ?? '—'}</p>
                  {row.open !== undefined && (
                    <p className="text-xs text-muted-foreground">
                      {row.open} may {fromCustomer ? 'come back' : 'go back'}, at {formatPesos(Number(row.unit_price || 0))} each as{' '}
                      {fromCustomer ? 'sold' : 'billed'}
                    </p>
                  )}
                  <FieldMessages messages={at('source_line_id')} />
                </div>
                <NumberCell
                  label="Returned"
                  {...cell('quantity')}
                  placeholder="0"
                  messages={at('quantity').length > 0 ? at('quantity') : tooMany ? [`At most ${row.open}.`] : []}
                />
                <ChoiceCell label="Reason" className="sm:col-span-3" prompt="Choose…" choices={terms.reasons} {...cell('reason')} />
                <ChoiceCell label="Goods" className="sm:col-span-2" choices={terms.dispositions} {...cell('disposition')} />
                <AmountCell index={index} line={lines[index]} pricesIncludeVat={form.pricesIncludeVat} className="sm:col-span-1" />
                {(typed || row.reason === OTHER_REASON) && (
                  <NoteCell className="col-span-2 sm:col-span-12" reason={row.reason} {...cell('note')} />
                )}
              </LineCard>
            );
          })}
        </ol>
        <LinesTotals totals={totals} pricesIncludeVat={form.pricesIncludeVat} totalLabel={terms.totalLabel} />
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-medium">Paid back</legend>
        <div role="radiogroup" aria-label="Paid back" className="flex flex-wrap gap-4">
          {terms.settlements.map((option) => (
            <label key={option.value} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="settlement"
                className="size-5"
                value={option.value}
                checked={form.settlement === option.value}
                onChange={() => change({ settlement: option.value as Settlement })}
              />
              {option.label}
            </label>
          ))}
        </div>
        <FieldMessages messages={errors.settlement ?? []} />
        {form.settlement === 'credit' && (
          <p className="text-sm text-muted-foreground">
            {formatCentavos(totals.total)} comes off what {fromCustomer ? 'the customer still owes' : 'is still owed to the supplier'} on
            the {noun}.
          </p>
        )}
        {form.settlement === 'account' && (
          <p className="text-sm text-muted-foreground">
            {formatCentavos(totals.total)} is kept on the {fromCustomer ? 'customer' : 'supplier'}’s account, to pay later{' '}
            {fromCustomer ? 'invoices' : 'bills'} with: choose Account credit as the payment’s tender.
          </p>
        )}
        {form.settlement === 'refund' && (
          <TenderRowsEditor
            rows={form.tenders}
            onChange={(tenders) => change({ tenders })}
            errors={errors}
            intro={
              fromCustomer
                ? 'How the money goes back: a tender for each way, such as part in cash and the rest by GCash.'
                : 'How the supplier pays it back: a tender for each way, such as a bank transfer, with its reference.'
            }
            target={{ centavos: totals.total, label: 'Refund due', over: 'More than is due by', left: 'Left to refund' }}
          />
        )}
      </fieldset>
    </>
  );
}
