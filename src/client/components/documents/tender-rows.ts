import { centavosToPesos, pesosToCentavos } from '../../../domain/money';
import { needsOf, paymentMethodOf, tenderTrace, tendersTotal, type TenderDetail, type TenderMethod } from '../../../domain/tenders';

/**
 * A payment's tenders as its form holds them (rows typed as text) and as the API takes them: what
 * the form needs before the tenders editor itself has loaded.
 */

/** One tender as typed: its method, its amount and every detail a method may need, as text. */
export type TenderRow = { method: string; amount: string } & Record<TenderDetail, string>;

/** A new tender: cash, for `amount` (the balance, on the first). */
export const emptyTender = (amount = ''): TenderRow => ({
  method: 'cash',
  amount,
  reference: '',
  bank: '',
  check_number: '',
  check_date: '',
});

/** A tender as the API reads it back or a queued create sent it. */
export interface TenderAnswer {
  method: string;
  amount: number | string | null;
  reference?: string | null;
  bank?: string | null;
  check_number?: string | null;
  check_date?: string | null;
  /** Of cash: what the customer handed over (the change is what is over the amount). */
  received?: number | string | null;
}

/** What traces a tender read back (`tenderTrace`), a detail it does not carry taken as none. */
export function traceOfAnswer(tender: TenderAnswer): string {
  return tenderTrace({
    method: tender.method as TenderMethod,
    reference: tender.reference ?? null,
    bank: tender.bank ?? null,
    check_number: tender.check_number ?? null,
    check_date: tender.check_date ?? null,
  });
}

/** Tenders read back (a queued create's, to edit and retry) as rows of the editor. */
export function tenderRowsOf(tenders: readonly TenderAnswer[]): TenderRow[] {
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  return tenders.map((tender) => ({
    method: tender.method,
    amount: text(tender.amount),
    reference: text(tender.reference),
    bank: text(tender.bank),
    check_number: text(tender.check_number),
    check_date: text(tender.check_date),
  }));
}

/** An amount as people type it ("₱1,250.50"): a number once the peso sign, commas and spaces are gone. */
export function typedAmount(text: string): number | null {
  const plain = text.replace(/[₱,\s]/g, '');
  return plain === '' || !Number.isFinite(Number(plain)) ? null : Number(plain);
}

/**
 * The tenders as the API takes them: each with only what its method needs (a detail typed for
 * another method before this one was picked is not sent); an amount not a number is sent as
 * typed, for the server to say so.
 */
export function tendersBody(rows: readonly TenderRow[]): Record<string, unknown>[] {
  return rows.map((row) => ({
    method: row.method,
    amount: typedAmount(row.amount) ?? (row.amount.trim() === '' ? null : row.amount),
    ...Object.fromEntries(needsOf(row.method).map((detail) => [detail, row[detail].trim() === '' ? null : row[detail].trim()])),
  }));
}

/** What the rows come to, in centavos, counting the amounts typed as numbers. */
export const rowsTotal = (rows: readonly TenderRow[]): number =>
  tendersTotal(rows.map((row) => ({ amount: pesosToCentavos(typedAmount(row.amount) ?? 0) })));

/**
 * The payment's amount and method its tenders make, sent with them: a payment still on this
 * device shows them (in lists and pending changes) as the server will keep them, and the server
 * refuses them if they disagree.
 */
export const paymentFieldsOf = (rows: readonly TenderRow[]) => ({
  amount: centavosToPesos(rowsTotal(rows)),
  payment_method: paymentMethodOf(rows),
});
