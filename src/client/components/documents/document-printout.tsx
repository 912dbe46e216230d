import { useQuery } from '@tanstack/react-query';
import { Printer, ReceiptText } from 'lucide-react';
import { amountInWords } from '../../../domain/amount-in-words';
import { MAX_DOCUMENT_AMOUNT, todayInManila } from '../../../domain/documents';
import { isShown, type FieldKind, type SelectOption } from '../../../domain/fields';
import { statusLabel } from '../../../domain/lifecycle';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../../domain/money';
import { readableFields, type ResourceDefinition } from '../../../domain/resource';
import { documentTotals } from '../../../domain/resources/document-fields';
import { ADJUSTMENT_REASONS } from '../../../domain/resources/stock-adjustments';
import { methodLabel } from '../../../domain/tenders';
import { isWalkInName } from '../../../domain/walk-in';
import { displayValue, formatDate, formatTimestamp } from '../../lib/format';
import { isClientKey } from '../../lib/outbox-queue';
import { useActiveBusinessId, userQuery } from '../../lib/session';
import type { RecordProps } from '../crud/slots';
import type { ApiRecord } from '../../lib/resource-queries';
import { Button } from '../ui/button';
import type { ShownLine } from './document-view';
import { printDocument, usePrintedCopy } from './document-print';
import { DocumentTotals } from './document-totals';
import { usePendingDocument } from './pending-lines';
import { PartyParticulars, SellerParticulars, useParticulars, type Particulars } from './document-particulars';
import { buyerDiscountOf, figure, lineAmount, printedTitle, totalLabelOf, vatLegend, vatTag } from './printed-figures';
import { traceOfAnswer, type TenderAnswer } from './tender-rows';

/**
 * A document's printed copy: hidden on screen, the only thing on paper (styles.css hides the rest
 * of the view in print when a page has one). One copy, two papers, chosen when printing
 * (`printAs`): a full A4 page — the issuer and the title with the number in large type, the
 * customer's or supplier's particulars beside the document's own, a table of lines, the totals
 * and the total in words — or an 80 mm receipt, the same in one narrow column of small type
 * (the `receipt:` variant). Money is written with two decimals. It claims no accreditation: no
 * "official receipt", no permit or accreditation numbers. A sales invoice also answers what its
 * buyer asks at the counter: the time it was issued and by which cashier, how it was paid (each
 * tender with what traces it) and, for a walk-in buyer, blank lines to write their name, address
 * and TIN. A document still queued on this device is printed only once it has its final number
 * (a sale numbered from the device's block, lib/number-blocks.ts). Who issues it and to whom are
 * the particulars it was issued with (`useParticulars`); every copy after the first says REPRINT,
 * and when it was printed (`usePrintedCopy`).
 */
export function DocumentPrintout({ definition, record: given }: { definition: ResourceDefinition; record: ApiRecord }) {
  const record = usePrintedRecord(definition, given);
  const particulars = useParticulars(definition, record);
  const copy = usePrintedCopy(definition, given);
  const spec = definition.document;
  // A record still on this device is printed only with the final number it took from the device's block, and its figures.
  if (!spec || (isClientKey(record.id) && (!record.number || record.unpriced))) return null;
  const lines = (record.lines as ShownLine[] | undefined) ?? [];
  const priced = spec.lines === 'priced' || spec.lines === 'returns';
  const sale = spec.type === 'invoice';
  const issue = sale ? issueOf(record) : null;
  // A voided or cancelled document keeps its number and says so, across it and under its title.
  const undone =
    spec.lifecycle.statuses[String(record.status ?? '')] === 'undone' ? statusLabel(String(record.status)).toUpperCase() : null;
  const buyer = priced ? buyerDiscountOf(record) : null;
  const legend = priced ? vatLegend(lines) : null;
  // A payment or a memorandum is its amount.
  const amount = spec.lines === 'none' ? figure(record.amount) : undefined;
  const words = inWords(priced ? figure(record.total) : amount);
  const notes = typeof record.notes === 'string' && record.notes.trim() !== '' ? record.notes : null;
  // A seller not VAT-registered shows no VAT on its sales, and says its invoice gives the buyer no input tax (RR 7-2024).
  const nonVatSale = priced && spec.contact === 'Customer' && particulars.seller !== null && !particulars.seller.vatRegistered;
  const totals = nonVatSale
    ? {
        ...record,
        prices_include_vat: undefined,
        vatable_sales: undefined,
        exempt_sales: undefined,
        zero_rated_sales: undefined,
        vat_total: undefined,
      }
    : record;
  return (
    <article
      data-printout
      aria-label="Printed copy"
      className="relative hidden text-[10pt] leading-snug text-black print:block receipt:w-[74mm] receipt:text-[8.5pt] receipt:leading-tight"
    >
      {undone && (
        <p
          aria-hidden
          className="pointer-events-none absolute inset-x-0 top-[38%] -rotate-12 text-center text-[96pt] leading-none font-bold tracking-widest text-black/20 receipt:text-[32pt] receipt:tracking-wide receipt:text-black/30"
        >
          {undone}
        </p>
      )}
      <header className="flex items-start justify-between gap-6 border-b-2 border-black pb-3 receipt:flex-col receipt:items-stretch receipt:gap-1.5 receipt:border-b receipt:border-dashed receipt:pb-1.5 receipt:text-center">
        <SellerParticulars seller={particulars.seller} place={particulars.place} />
        <div className="shrink-0 text-right receipt:text-center">
          <h2 className="text-[16pt] font-bold tracking-wide receipt:text-[11pt]">{printedTitle(definition)}</h2>
          <p className="mt-0.5">
            No. <span className="text-[14pt] font-bold receipt:text-[11pt]">{String(record.number ?? '')}</span>
          </p>
          <p>Date: {displayValue('date', definition.fields.date, record)}</p>
          {issue?.time && <p>Time: {issue.time}</p>}
          {issue?.issued && <p>Issued: {issue.issued}</p>}
          {issue?.cashier && <p>Cashier: {issue.cashier}</p>}
          {/* In solid type too: a receipt printer may not print the mark's grey. */}
          {undone && <p className="mt-1 text-[12pt] font-bold tracking-widest receipt:text-[10pt]">*** {undone} ***</p>}
          {copy.reprint && (
            <p data-reprint className="mt-1 border border-black px-1 text-center font-bold tracking-widest">
              REPRINT
              {copy.at && <span className="block font-normal tracking-normal">Reprinted {formatTimestamp(copy.at)}</span>}
            </p>
          )}
        </div>
      </header>

      <section className="mt-3 grid grid-cols-2 gap-x-8 gap-y-1 receipt:mt-1.5 receipt:grid-cols-1">
        {sale && walkIn(particulars) ? <BuyerLines /> : particulars.party ? <PartyParticulars party={particulars.party} /> : null}
        <Facts definition={definition} record={record} placeShown={particulars.place !== null && particulars.seller !== null} />
      </section>

      {spec.lines !== 'none' && (
        <PrintedLines
          lines={nonVatSale ? lines.map((line) => ({ ...line, vat_category: undefined })) : lines}
          priced={priced}
          adjusts={spec.lines === 'adjustments'}
          reasons={spec.lines === 'adjustments' ? ADJUSTMENT_REASONS : spec.returns?.reasons}
          record={record}
        />
      )}

      {priced && (
        <DocumentTotals
          paper
          record={totals}
          totalLabel={totalLabelOf(definition)}
          className="mt-3 ml-auto w-[85mm] receipt:mt-1.5 receipt:w-full"
        />
      )}
      {amount !== undefined && (
        <p className="mt-3 ml-auto flex w-[85mm] justify-between gap-4 border-t border-black pt-1 font-bold tabular-nums receipt:w-full">
          <span className="uppercase">Amount</span>
          <span>{formatPesos(amount)}</span>
        </p>
      )}
      {words && (
        <p className="mt-2 receipt:mt-1">
          Amount in words: <span className="font-semibold">{words}</span>
        </p>
      )}
      {sale && <PaidWith record={record} />}

      {buyer && (
        <section className="mt-4 break-inside-avoid border border-black p-2 receipt:mt-2 receipt:border-dashed receipt:p-1.5">
          <p>
            {buyer.kind}: <span className="font-bold">{buyer.name || '—'}</span>,{' '}
            <span className="whitespace-nowrap">
              ID No. <span className="font-bold">{buyer.idNumber || '—'}</span>
            </span>
          </p>
          <p className="mt-8 w-72 border-t border-black pt-0.5 text-center text-[8pt] receipt:mt-6 receipt:w-full">
            Signature of the {buyer.kind === 'PWD' ? 'person with disability' : 'senior citizen'}
          </p>
        </section>
      )}
      {nonVatSale && <p className="mt-2 text-center font-bold uppercase">This document is not valid for claim of input tax.</p>}
      {legend && !nonVatSale && <p className="mt-2 text-[8pt] receipt:mt-1 receipt:text-[7pt]">{legend}</p>}
      {notes && <p className="mt-2 whitespace-pre-line receipt:mt-1">Notes: {notes}</p>}
    </article>
  );
}

interface QueuedTender extends TenderAnswer {
  amount: number;
}

/**
 * The record as its paper prints it. One still on this device (a sale numbered from the device's
 * block) is read as the server will save it: its lines priced here by the same rules, issued when
 * it was made by who is signed in, paid by the tenders it sends (a counter sale's `payment`) — as
 * the server's read of it will say once it syncs, under the same number.
 */
function usePrintedRecord(definition: ResourceDefinition, record: ApiRecord): ApiRecord & { unpriced?: boolean } {
  const priced = usePendingDocument(definition, record);
  const user = useQuery(userQuery(useActiveBusinessId())).data;
  if (!isClientKey(record.id)) return record;
  const tenders = ((record.payment as { tenders?: QueuedTender[] } | undefined)?.tenders ?? []).filter((tender) => tender.amount > 0);
  const paid = tenders.reduce((sum, tender) => sum + pesosToCentavos(Number(tender.amount)), 0);
  const total = pesosToCentavos(Number(priced.total ?? 0));
  return {
    ...priced,
    issued_at: record.created_at,
    issued_by: user ? { id: user.id, display: user.name } : null,
    ...(tenders.length > 0 && {
      balance: centavosToPesos(Math.max(0, total - paid)),
      payments: [{ id: -1, number: '', date: record.date, amount: centavosToPesos(paid), tenders }],
    }),
  };
}

/**
 * When and by whom a sales invoice was issued, as the server says (`issued_at`, `issued_by`): the
 * time on Manila's clock after its date when it was issued that day, else the day and time in
 * full (one dated another day than it was made); the cashier by name.
 */
function issueOf(record: ApiRecord): { time: string | null; issued: string | null; cashier: string | null } {
  const at = typeof record.issued_at === 'string' && !Number.isNaN(Date.parse(record.issued_at)) ? record.issued_at : null;
  const sameDay = at !== null && todayInManila(new Date(at)) === record.date;
  const cashier = (record.issued_by as { display?: string | null } | null | undefined)?.display?.trim() || null;
  return {
    time: at && sameDay ? manilaClock.format(new Date(at)) : null,
    issued: at && !sameDay ? formatTimestamp(at) : null,
    cashier,
  };
}

const manilaClock = new Intl.DateTimeFormat(undefined, { timeZone: 'Asia/Manila', timeStyle: 'short' });

/**
 * A sale to no one in particular: the customer is the business's walk-in contact ("Walk-in
 * customer" — Bodega keeps no mark for it, so its name says it), or has no name.
 */
function walkIn({ party }: Pick<Particulars, 'party'>): boolean {
  return !party || party.name.trim() === '' || isWalkInName(party.name);
}

/** A walk-in sale's buyer: blank lines to write their name, address and TIN, as a Philippine invoice leaves them. */
function BuyerLines() {
  return (
    <div className="min-w-0 space-y-3 receipt:space-y-2.5">
      {['Sold to', 'Address', 'TIN'].map((label) => (
        <p key={label} className="flex items-end gap-1.5">
          <span className="shrink-0">{label}:</span>
          <span data-blank className="h-[1.1em] min-w-0 flex-1 border-b border-black" />
        </p>
      ))}
    </div>
  );
}

/** A payment as an invoice's read carries it. */
interface SettlingPayment {
  id: number;
  number: string;
  date: string;
  amount: number;
  tenders: TenderAnswer[];
}

/**
 * How a sales invoice was paid: each payment settling it (voided ones are not sent), by its number
 * — and its date when it is not the invoice's — and its tenders, each method with what traces it
 * (a reference, an approval code, a check) and its amount; then the balance still due, if any.
 * Nothing when it has no payment or the user may not view payments (none are sent).
 */
function PaidWith({ record }: { record: ApiRecord }) {
  const payments = Array.isArray(record.payments) ? (record.payments as SettlingPayment[]) : [];
  if (payments.length === 0) return null;
  const balance = figure(record.balance);
  return (
    <section
      aria-label="Payment"
      className="mt-3 ml-auto w-[85mm] break-inside-avoid border-t border-black pt-1 tabular-nums receipt:mt-1.5 receipt:w-full receipt:border-dashed"
    >
      <p className="font-bold uppercase">Paid</p>
      {payments.map((payment) => (
        <div key={payment.id} className="mt-0.5">
          <p className="text-[8pt] receipt:text-[7.5pt]">
            {/* A payment still on this device has its number once it syncs. */}
            {payment.number && `Payment ${payment.number}`}
            {payment.date !== record.date && `, ${formatDate(payment.date)}`}
          </p>
          <ul>
            {payment.tenders.map((tender, index) => {
              const trace = traceOfAnswer(tender);
              return (
                <li key={index} className="flex flex-wrap justify-between gap-x-4 receipt:gap-x-2">
                  {/* A check's trace names it already: "BPI check 004512 of 2026-12-03". */}
                  <span className="min-w-0 break-words">
                    {tender.method === 'check' && trace ? trace : [methodLabel(tender.method), trace].filter(Boolean).join(' · ')}
                  </span>
                  <span className="shrink-0 whitespace-nowrap">{formatPesos(Number(tender.amount))}</span>
                  {cashHandedOver(tender) && (
                    <span className="basis-full text-[8pt] receipt:text-[7.5pt]">
                      Cash received {formatPesos(Number(tender.received))} · Change{' '}
                      {formatPesos(centavosToPesos(pesosToCentavos(Number(tender.received)) - pesosToCentavos(Number(tender.amount))))}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {balance !== undefined && balance > 0 && (
        <p className="mt-0.5 flex justify-between gap-4 border-t border-black/40 font-bold receipt:gap-2">
          <span>Balance due</span>
          <span className="whitespace-nowrap">{formatPesos(balance)}</span>
        </p>
      )}
    </section>
  );
}

/** A cash tender that was handed over in more than its amount: the receipt says what was received and the change. */
const cashHandedOver = (tender: TenderAnswer) =>
  tender.method === 'cash' && tender.received !== null && tender.received !== undefined && Number(tender.received) > Number(tender.amount);

/** What the printed copy says of the document beside its party: its due date, its source, its reference … */
function Facts({ definition, record, placeShown }: { definition: ResourceDefinition; record: ApiRecord; placeShown: boolean }) {
  const fields = readableFields(definition);
  // A place named by two fields (its type, its id) reads as one: "From: Valenzuela Central (Warehouse)".
  const typeFields = new Set(fields.flatMap(([, field]) => (field.referencesBy ? [field.referencesBy.field] : [])));
  const rows = fields
    .filter(
      ([name, field]) =>
        PRINTED_KINDS.has(field.kind) && !field.heldBy && !typeFields.has(name) && !elsewhere(name, placeShown) && isShown(field, record),
    )
    .map(([name, field]) => {
      const value = displayValue(name, field, record);
      const typeName = field.referencesBy?.field;
      if (!typeName || value === '—') return [field.label, value] as const;
      const type = definition.fields[typeName];
      return [type?.label ?? field.label, `${value} (${displayValue(typeName, type, record)})`] as const;
    })
    .filter(([, value]) => value !== '—');
  if (rows.length === 0) return null;
  // Label and value in a grid, not a <dl>: the screen's details are found by their <dt>s, and the copy is never found on screen.
  return (
    <div className="grid h-fit grid-cols-[auto_1fr] gap-x-3 receipt:gap-x-2">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <span>{label}:</span>
          <span className="min-w-0 break-words">{value}</span>
        </div>
      ))}
    </div>
  );
}

/** Kinds of field a printed copy lists beside its party: plain values (no notes, lists or flags). */
const PRINTED_KINDS = new Set<FieldKind>(['text', 'date', 'select', 'reference', 'integer', 'quantity']);

/** Fields printed elsewhere on the copy (the header, the particulars, the totals, the SC/PWD block), or not at all (status, balance). */
const ELSEWHERE = new Set([
  'number',
  'date',
  'status',
  'contact_id',
  'notes',
  'amount',
  'amount_paid',
  'amount_adjusted',
  'balance',
  'buyer_discount',
  'buyer_discount_id_number',
  'buyer_discount_name',
  ...Object.keys(documentTotals()),
]);
const elsewhere = (name: string, placeShown: boolean) =>
  ELSEWHERE.has(name) || (placeShown && (name === 'branch_id' || name === 'warehouse_id'));

const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** The lines: a table on A4; on a receipt each line two short rows — the item, then quantity × price and the amount. */
function PrintedLines({
  lines,
  priced,
  adjusts,
  reasons,
  record,
}: {
  lines: readonly ShownLine[];
  priced: boolean;
  /** Signed lines (a stock adjustment's): what comes in shows its +. */
  adjusts: boolean;
  /** The reasons its lines give (an adjustment's, a return's), printed with each line. */
  reasons?: readonly SelectOption[];
  record: ApiRecord;
}) {
  const quantity = (line: ShownLine) => `${adjusts && line.quantity > 0 ? '+' : ''}${quantityFormat.format(line.quantity)}`;
  const price = (line: ShownLine) => formatPesos(Number(line.unit_price));
  const amount = (line: ShownLine) => formatPesos(lineAmount(line, record.prices_include_vat));
  const discount = (line: ShownLine) => (line.discount_percent ? `${line.discount_percent}%` : '');
  const tagged = priced && lines.some((line) => line.vat_category);
  const name = (line: ShownLine) => (
    <>
      {line.item?.display ?? '—'}
      {priced && line.sc_pwd && <span className="font-bold"> (SC/PWD)</span>}
    </>
  );
  return (
    <>
      <table className="mt-4 w-full border-collapse tabular-nums receipt:hidden">
        <thead>
          <tr className="border-y border-black text-left [&>th]:px-1 [&>th]:py-1 [&>th]:font-bold">
            <th className="text-right">Qty</th>
            <th>Unit</th>
            <th className="w-full">Description</th>
            {reasons && <th>Reason</th>}
            {priced && (
              <>
                <th className="text-right whitespace-nowrap">Unit price</th>
                <th className="text-right">Disc.</th>
                <th className="text-right">Amount</th>
                {tagged && <th className="text-center">VAT</th>}
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.id} className="border-b border-black/40 align-top [&>td]:px-1 [&>td]:py-0.5">
              <td className="text-right">{quantity(line)}</td>
              <td>{line.unit}</td>
              <td>
                {name(line)}
                {line.item?.sku && <span className="text-[8pt]"> · {line.item.sku}</span>}
              </td>
              {reasons && <td>{reasonText(line, reasons)}</td>}
              {priced && (
                <>
                  <td className="text-right whitespace-nowrap">{price(line)}</td>
                  <td className="text-right">{discount(line)}</td>
                  <td className="text-right whitespace-nowrap">{amount(line)}</td>
                  {tagged && <td className="text-center">{vatTag(line)?.tag}</td>}
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>

      <ul className="mt-1.5 hidden border-b border-dashed border-black pb-1 tabular-nums receipt:block">
        {lines.map((line) => (
          <li key={line.id} className="break-inside-avoid py-0.5">
            <p>{name(line)}</p>
            <p className="flex justify-between gap-2 pl-2">
              <span>
                {quantity(line)} {line.unit}
                {priced && ` × ${price(line)}`}
                {priced && discount(line) && ` less ${discount(line)}`}
                {reasons && ` · ${reasonText(line, reasons)}`}
              </span>
              {priced && (
                <span className="shrink-0 whitespace-nowrap">
                  {amount(line)}
                  {tagged && ` ${vatTag(line)?.tag ?? ' '}`}
                </span>
              )}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** A line's reason as the form offers it ("Count correction", "Damaged"), and its note. */
const reasonText = (line: ShownLine, reasons: readonly SelectOption[]) =>
  [reasons.find((option) => option.value === line.reason)?.label ?? line.reason, line.note].filter(Boolean).join(': ') || '—';

/** A total in words, as an invoice writes it; none for what is not an amount. */
function inWords(pesos: number | undefined): string | null {
  if (pesos === undefined) return null;
  const centavos = pesosToCentavos(pesos);
  return centavos >= 0 && centavos <= MAX_DOCUMENT_AMOUNT ? amountInWords(centavos) : null;
}

/**
 * The document's Print action: the paper is chosen as it prints, an A4 page or an 80 mm receipt —
 * two joined buttons, narrow enough to keep a tablet's action bar on one row. Each print is
 * counted first (`printDocument`), so a reprint says so.
 */
export function DocumentPrintButtons({ definition, record }: RecordProps) {
  const businessId = useActiveBusinessId();
  const printAs = (layout: 'a4' | 'receipt') => void printDocument(businessId, definition, record, layout);
  return (
    <div role="group" aria-label="Print" className="flex">
      <Button variant="outline" className="rounded-r-none focus-visible:z-10" onClick={() => printAs('a4')}>
        <Printer aria-hidden /> Print A4
      </Button>
      <Button
        variant="outline"
        className="-ml-px rounded-l-none focus-visible:z-10"
        aria-label="Print receipt (80 mm)"
        title="Print an 80 mm receipt"
        onClick={() => printAs('receipt')}
      >
        <ReceiptText aria-hidden /> Receipt
      </Button>
    </div>
  );
}
