import type { SelectOption } from './fields';
import type { ResourceDefinition } from './resource';

/**
 * How people pay: a payment of a bill or an invoice is made of one or more tenders, each a
 * method with its amount and what that method is traced by — an e-wallet's, a QR Ph payment's or
 * a bank transfer's reference number, a card's approval code, a check's bank, number and date;
 * cash by nothing, though it may say what the customer handed over (the change is what is over
 * its amount). The server checks and keeps them (`tenders-input.ts` holds the checks); the
 * payment form asks for what each method needs. Plain data: no zod.
 */

export type TenderMethod = 'cash' | 'gcash' | 'maya' | 'qrph' | 'bank_transfer' | 'check' | 'card' | 'account_credit';

/**
 * A tender paid out of the credit kept on the party's account (goods returned and credited to the
 * account, `settlement: 'account'`): no money changes hands, and the account holds at most what
 * was credited to it and not yet used.
 */
export const ACCOUNT_CREDIT = 'account_credit';

/** Whether a resource's records are paid in tenders: invoice and bill payments (their method is the tenders'). */
export const paidInTenders = (definition: Pick<ResourceDefinition, 'fields'>): boolean => 'payment_method' in definition.fields;

/** The methods a tender may be, in the order the form offers them. */
export const TENDER_METHODS: readonly (SelectOption & { value: TenderMethod })[] = [
  { value: 'cash', label: 'Cash' },
  { value: 'gcash', label: 'GCash' },
  { value: 'maya', label: 'Maya' },
  { value: 'qrph', label: 'Other QR Ph' },
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'check', label: 'Check' },
  { value: 'card', label: 'Card' },
  { value: 'account_credit', label: 'Account credit' },
];

/** A payment made of more than one tender. */
export const SPLIT_TENDER = 'split';

/** A payment's method: its one tender's, or "Split tender" when it has several. */
export const PAYMENT_METHODS: readonly SelectOption[] = [...TENDER_METHODS, { value: SPLIT_TENDER, label: 'Split tender' }];

/** The most tenders one payment takes. */
export const TENDERS_MAX = 20;

/** What a tender may be traced by, beyond its method and amount. */
export type TenderDetail = 'reference' | 'bank' | 'check_number' | 'check_date';

export const TENDER_DETAILS: readonly TenderDetail[] = ['reference', 'bank', 'check_number', 'check_date'];

/**
 * What each method needs, every one of them required, and takes nothing else: GCash, Maya, other
 * QR Ph and bank transfers their reference number; a card the approval code on its slip (its
 * reference); a check its bank, number and date; cash nothing.
 */
export const TENDER_NEEDS: Readonly<Record<TenderMethod, readonly TenderDetail[]>> = {
  cash: [],
  gcash: ['reference'],
  maya: ['reference'],
  qrph: ['reference'],
  bank_transfer: ['reference'],
  check: ['bank', 'check_number', 'check_date'],
  card: ['reference'],
  account_credit: [],
};

export const isTenderMethod = (value: unknown): value is TenderMethod =>
  typeof value === 'string' && TENDER_METHODS.some((method) => method.value === value);

/** What a method needs; nothing for a method that is none of ours. */
export const needsOf = (method: unknown): readonly TenderDetail[] => (isTenderMethod(method) ? TENDER_NEEDS[method] : []);

/** "GCash", "Split tender": a payment's or a tender's method as people read it. */
export const methodLabel = (value: unknown): string =>
  PAYMENT_METHODS.find((method) => method.value === value)?.label ?? (value === null || value === undefined ? '' : String(value));

/** How the form labels a detail of a method: a card's reference is its approval code. */
export function detailLabel(method: unknown, detail: TenderDetail): string {
  if (detail === 'reference') return method === 'card' ? 'Approval code' : 'Reference no.';
  return { bank: 'Bank', check_number: 'Check no.', check_date: 'Check date' }[detail];
}

/** How a message names a detail: "reference number", "approval code", "check date". */
function detailWords(method: unknown, detail: TenderDetail): string {
  if (detail === 'reference') return method === 'card' ? 'approval code' : 'reference number';
  return { bank: 'bank', check_number: 'check number', check_date: 'check date' }[detail];
}

/** How a message names a method: "GCash", "a check", "cash". */
function methodWords(method: unknown): string {
  switch (method) {
    case 'cash':
      return 'cash';
    case 'qrph':
      return 'other QR Ph';
    case 'bank_transfer':
      return 'a bank transfer';
    case 'check':
      return 'a check';
    case 'card':
      return 'a card';
    default:
      return methodLabel(method);
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "The reference number is required for GCash.", "The check date is required for a check." */
export const detailRequired = (method: unknown, detail: TenderDetail) =>
  `The ${detailWords(method, detail)} is required for ${methodWords(method)}.`;

/** "Cash takes no reference number.", "A check takes no reference number." */
export const detailNotTaken = (method: unknown, detail: TenderDetail) =>
  `${capitalized(methodWords(method))} takes no ${detailWords(method, detail)}.`;

/** "GCash takes no cash received.", "A check takes no cash received." */
export const receivedNotTaken = (method: unknown) => `${capitalized(methodWords(method))} takes no cash received.`;

/**
 * A tender as it is kept: its amount in centavos, each detail text or null, and of cash what the
 * customer handed over (`received`, centavos, at least the amount; null when not told).
 */
export interface Tender {
  method: TenderMethod;
  amount: number;
  reference: string | null;
  bank: string | null;
  check_number: string | null;
  /** `YYYY-MM-DD`. */
  check_date: string | null;
  received: number | null;
}

/** A tender as the API reads it back: its amount and the cash received in pesos. */
export interface TenderRead extends Omit<Tender, 'amount' | 'received'> {
  amount: number;
  received: number | null;
}

/** The change a cash tender gives back, in centavos: what was received beyond its amount; none when nothing was told received. */
export const changeDue = (tender: Pick<Tender, 'amount' | 'received'>): number =>
  tender.received === null ? 0 : Math.max(0, tender.received - tender.amount);

/** The method a payment of these tenders records: the one tender's, or split. */
export const paymentMethodOf = (tenders: readonly { method: string }[]): string =>
  tenders.length === 1 ? tenders[0].method : SPLIT_TENDER;

/** What tenders come to, in centavos. */
export const tendersTotal = (tenders: readonly { amount: number }[]): number => tenders.reduce((sum, tender) => sum + tender.amount, 0);

/** What a tender is traced by, in a few words: "Ref 1234567890123", "BPI check 004512 of 2026-11-20". */
export function tenderTrace(tender: Pick<Tender, 'method' | 'reference' | 'bank' | 'check_number' | 'check_date'>): string {
  if (tender.method === 'check') {
    const bank = tender.bank ? `${tender.bank} ` : '';
    return [`${bank}check ${tender.check_number ?? ''}`.trim(), tender.check_date && `of ${tender.check_date}`].filter(Boolean).join(' ');
  }
  if (!tender.reference) return '';
  return `${tender.method === 'card' ? 'Approval' : 'Ref'} ${tender.reference}`;
}
