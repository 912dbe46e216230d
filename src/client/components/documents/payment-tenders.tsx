import { useQuery } from '@tanstack/react-query';
import { Download, Plus } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { todayInManila } from '../../../domain/documents';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../../domain/money';
import { getResource } from '../../../domain/resources/registry';
import { detailLabel, methodLabel, needsOf, TENDER_METHODS, type TenderDetail, type TenderMethod } from '../../../domain/tenders';
import { paymentTenders } from '../../../domain/tenders-input';
import { ApiError, apiFile, describeError, saveFile } from '../../lib/api';
import { toast } from '../../lib/notify';
import { recordQuery } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { changeAt, cn } from '../../lib/utils';
import type { FormSection, RecordProps, ScreenProps } from '../crud/slots';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Input } from '../ui/input';
import { LabelledField, SmallLabel } from '../labelled-field';
import { NativeSelect } from '../ui/native-select';
import { emptyTender, rowsTotal, traceOfAnswer, type TenderAnswer, type TenderRow } from './tender-rows';
import { FieldMessages } from './field-messages';
import { RemoveRowButton } from './remove-row-button';
import { ProblemAlert } from '../problem-alert';
import { formatCentavos } from '../../lib/format';

/**
 * A payment's tenders on screen: the editor of its form (a row per tender — method, amount and
 * what the method needs — with their running total against the balance), the tenders of a
 * payment shown among its details, and the list's export of a period's tenders for reconciliation.
 */

/** What the server would refuse in the tenders as sent, by full key (`tenders.1.reference`): said before sending offline. */
export async function tenderProblems(sent: unknown): Promise<Record<string, string[]>> {
  const settled = paymentTenders({ tenders: sent });
  return settled.errors ?? {};
}

/** The balance of the bill or invoice the form pays, as this device knows it; undefined until one is picked and read. */
function usePaidBalance(definition: ComponentProps<FormSection['Editor']>['definition'], values: Record<string, unknown>) {
  const businessId = useActiveBusinessId();
  const source = definition.document?.source;
  const id = Number(source ? (values[source.field] ?? 0) : 0);
  const paid = useQuery({
    ...recordQuery(businessId, getResource(source?.resource ?? definition.name), id),
    enabled: Boolean(source) && Number.isInteger(id) && id > 0,
  });
  const balance = paid.data?.balance;
  return typeof balance === 'number'
    ? { centavos: pesosToCentavos(balance), noun: getResource(source!.resource).singular.toLowerCase() }
    : undefined;
}

/**
 * The tenders of a payment's form: a tender per way the money came (part in cash, the rest by
 * GCash …), each asking for what its method is traced by; their total runs beneath, against the
 * balance. The server's messages (`tenders.0.reference`) show under their input. Rows stack into
 * cards on a phone.
 */
export function TendersEditor({ definition, value, onChange, errors, values }: ComponentProps<FormSection['Editor']>) {
  const balance = usePaidBalance(definition, values);
  return (
    <TenderRowsEditor
      rows={value as TenderRow[]}
      onChange={onChange}
      errors={errors}
      intro="How it was paid: add a tender for each way the money came, such as part in cash and the rest by GCash."
      target={
        balance && {
          centavos: balance.centavos,
          label: `Balance of the ${balance.noun}`,
          over: 'More than the balance by',
          left: 'Left to pay',
        }
      }
    />
  );
}

/** What tenders should come to, and the words of the running figures against it. */
export interface TenderTarget {
  centavos: number;
  label: string;
  over: string;
  left: string;
}

/**
 * Rows of tenders (a payment's, a refund's): method, amount and what the method needs, each row
 * a card on a phone; their total beneath, against `target` when one is known. Messages of the
 * whole (`tenders`, `amount`, `payment_method`) above them.
 */
export function TenderRowsEditor({
  rows,
  onChange,
  errors,
  intro,
  target,
}: {
  rows: TenderRow[];
  onChange: (rows: TenderRow[]) => void;
  errors: Record<string, string[]>;
  intro: string;
  target?: TenderTarget;
}) {
  const total = rowsTotal(rows);
  const update = (index: number, changes: Partial<TenderRow>) => onChange(changeAt(rows, index, changes));
  const addTender = () => {
    // The next tender starts with what is left.
    const left = target ? target.centavos - total : 0;
    onChange([...rows, emptyTender(left > 0 ? String(centavosToPesos(left)) : '')]);
    requestAnimationFrame(() => document.getElementById(`tender-${rows.length}-method`)?.focus());
  };
  // Messages of the whole: no tender, more than the balance, an amount or method that disagrees.
  const overall = ['tenders', 'amount', 'payment_method'].flatMap((key) => errors[key] ?? []);
  const left = target ? target.centavos - total : undefined;

  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-medium">Tenders</legend>
      <p className="text-sm text-muted-foreground">{intro}</p>
      <ProblemAlert problem={overall} />
      <ol className="space-y-3">
        {rows.map((row, index) => {
          const id = (field: string) => `tender-${index}-${field}`;
          const at = (field: string) => errors[`tenders.${index}.${field}`] ?? [];
          const needs = needsOf(row.method);
          const detail = (name: TenderDetail, className?: string) => (
            <div className={className}>
              <SmallLabel htmlFor={id(name)}>
                {detailLabel(row.method, name)}
                <span className="text-destructive" aria-hidden>
                  {' '}
                  *
                </span>
              </SmallLabel>
              <Input
                id={id(name)}
                className="h-11"
                type={name === 'check_date' ? 'date' : 'text'}
                inputMode={name === 'check_number' ? 'numeric' : undefined}
                autoComplete="off"
                maxLength={name === 'check_number' ? 50 : 100}
                value={row[name]}
                aria-invalid={at(name).length > 0 || undefined}
                onChange={(event) => update(index, { [name]: event.target.value })}
              />
              <FieldMessages messages={at(name)} />
            </div>
          );
          return (
            <li key={index} className="rounded-lg border bg-card p-3" aria-label={`Tender ${index + 1}`}>
              {/* A phone: method, amount and remove in a row, what traces it beneath; a tablet: all in one row. */}
              <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-3 sm:grid-cols-[minmax(0,11rem)_minmax(0,10rem)_minmax(0,1fr)_auto]">
                <div>
                  <SmallLabel htmlFor={id('method')}>Method</SmallLabel>
                  <NativeSelect
                    id={id('method')}
                    className="w-full"
                    value={row.method}
                    aria-invalid={at('method').length > 0 || undefined}
                    onChange={(event) => update(index, { method: event.target.value as TenderMethod })}
                  >
                    {TENDER_METHODS.map((method) => (
                      <option key={method.value} value={method.value}>
                        {method.label}
                      </option>
                    ))}
                  </NativeSelect>
                  <FieldMessages messages={at('method')} />
                </div>
                <div>
                  <SmallLabel htmlFor={id('amount')}>Amount</SmallLabel>
                  <div className="relative">
                    <span
                      className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground"
                      aria-hidden
                    >
                      ₱
                    </span>
                    <Input
                      id={id('amount')}
                      className="h-11 pl-7 text-right tabular-nums"
                      inputMode="decimal"
                      autoComplete="off"
                      value={row.amount}
                      aria-invalid={at('amount').length > 0 || undefined}
                      onChange={(event) => update(index, { amount: event.target.value })}
                    />
                  </div>
                  <FieldMessages messages={at('amount')} />
                </div>
                <div className="mt-5 sm:col-start-4 sm:row-start-1">
                  <RemoveRowButton
                    className="h-11 w-11"
                    label={`Remove tender ${index + 1}`}
                    onRemove={() => onChange(rows.filter((_, other) => other !== index))}
                    disabled={rows.length === 1}
                  />
                </div>
                {needs.includes('reference') ? (
                  detail('reference', 'col-span-3 sm:col-span-1 sm:col-start-3 sm:row-start-1')
                ) : (
                  <p className="hidden self-center pt-5 text-sm text-muted-foreground sm:col-start-3 sm:row-start-1 sm:block">
                    {row.method === 'cash' ? 'Cash needs nothing more.' : ''}
                  </p>
                )}
                {row.method === 'check' && (
                  <div className="col-span-3 grid grid-cols-2 gap-3 sm:col-span-4 sm:grid-cols-3">
                    {detail('bank', 'col-span-2 sm:col-span-1')}
                    {detail('check_number')}
                    {detail('check_date')}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <Button type="button" variant="outline" className="h-11" onClick={addTender}>
          <Plus aria-hidden /> Add tender
        </Button>
        <dl
          className="ml-auto grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm tabular-nums"
          aria-label="Tenders total"
          aria-live="polite"
        >
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold" data-testid="tenders-total">
            {formatCentavos(total)}
          </dd>
          {target && left !== undefined && (
            <>
              <dt className="text-muted-foreground">{target.label}</dt>
              <dd className="text-right">{formatCentavos(target.centavos)}</dd>
              <dt className={cn(left < 0 ? 'text-destructive' : 'text-muted-foreground')}>{left < 0 ? target.over : target.left}</dt>
              <dd className={cn('text-right', left < 0 && 'text-destructive')}>{formatCentavos(Math.abs(left))}</dd>
            </>
          )}
        </dl>
      </div>
    </fieldset>
  );
}

/** Among a payment's details: how it was paid, a line per tender — its method, what traces it, its amount. */
export function PaymentTenderDetails({ record }: RecordProps) {
  const tenders = record.tenders as TenderAnswer[] | undefined;
  if (!Array.isArray(tenders) || tenders.length === 0) return null;
  return (
    <div className="contents">
      <dt className="border-b px-4 pt-3 text-sm font-medium text-muted-foreground sm:py-3">Tenders</dt>
      <dd className="border-b px-4 pb-3 sm:py-3">
        <ul className="space-y-1" aria-label="Tenders">
          {tenders.map((tender, index) => {
            const trace = traceOfAnswer(tender);
            const amount = Number(tender.amount);
            return (
              <li key={index} className="flex flex-wrap items-baseline justify-between gap-x-4">
                <span className="min-w-0 break-words">
                  <span className="font-medium">{methodLabel(tender.method)}</span>
                  {trace && <span className="text-muted-foreground"> · {trace}</span>}
                </span>
                <span className="tabular-nums">{Number.isFinite(amount) ? formatPesos(amount) : String(tender.amount ?? '—')}</span>
              </li>
            );
          })}
        </ul>
      </dd>
    </div>
  );
}

/**
 * On a payments list: the tenders of a period as CSV for reconciliation — one row per tender, or
 * their count and total per day and method — from the server, voided payments left out.
 */
export function TendersExport({ definition }: ScreenProps) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(todayInManila);
  const [to, setTo] = useState(todayInManila);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const download = async (file: 'tenders.csv' | 'tenders-by-day.csv') => {
    setBusy(file);
    setProblem(null);
    try {
      const answer = await apiFile(`/api/${definition.name}/${file}`, { query: { from, to } });
      saveFile(answer.blob, answer.filename ?? `${definition.name}-${file}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) toast.error('Exporting needs a connection: the tenders come from the server.');
      else if (error instanceof ApiError && error.status === 422) setProblem(Object.values(error.errors).flat().join(' ') || error.message);
      else toast.error(describeError(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Download aria-hidden /> Tenders CSV
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Tenders for reconciliation</DialogTitle>
            <DialogDescription>
              The {definition.plural.toLowerCase()} of these days, voided ones left out: every tender with its reference, or the count and
              total of each method per day.
            </DialogDescription>
          </DialogHeader>
          <div className="grid grid-cols-2 gap-3">
            <LabelledField id="tenders-from" label="From">
              <Input id="tenders-from" type="date" className="h-11" value={from} onChange={(event) => setFrom(event.target.value)} />
            </LabelledField>
            <LabelledField id="tenders-to" label="To">
              <Input id="tenders-to" type="date" className="h-11" value={to} onChange={(event) => setTo(event.target.value)} />
            </LabelledField>
          </div>
          <ProblemAlert problem={problem} />
          <DialogFooter className="gap-2 sm:gap-2">
            <Button
              variant="outline"
              disabled={busy !== null}
              aria-busy={busy === 'tenders-by-day.csv'}
              onClick={() => void download('tenders-by-day.csv')}
            >
              <Download aria-hidden /> {busy === 'tenders-by-day.csv' ? 'Exporting…' : 'Totals by day'}
            </Button>
            <Button disabled={busy !== null} aria-busy={busy === 'tenders.csv'} onClick={() => void download('tenders.csv')}>
              <Download aria-hidden /> {busy === 'tenders.csv' ? 'Exporting…' : 'Every tender'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
