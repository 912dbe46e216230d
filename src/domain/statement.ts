import { holdsAny, permissionName } from './permissions';
import type { ReportBusiness } from './reports';
import { getResource } from './resources/registry';

/**
 * A customer's statement of account: the documents that charged them and those that credited
 * them between two days, each with the balance after it, from what they owed before the first day
 * (the opening balance) to what they owe at the end of the last (the closing balance). The server
 * builds it (server/overview/statement.ts, and its PDF), the client shows and prints it
 * (client/features/statement).
 */

/** One row of a statement: a document, what it charged (debit) or credited, and the balance after it. Money in pesos. */
export type StatementRow = {
  date: string;
  /** The document's resource and id, to open it; its kind in words ("Invoice Payment"). */
  resource: string;
  id: number;
  kind: string;
  number: string;
  description: string;
  debit: number;
  credit: number;
  balance: number;
};

/**
 * A statement, as `GET /api/contacts/{id}/statement` answers it and its PDF prints it. Money in
 * pesos. Types, not interfaces: the route's answer schema takes them as the plain records they are.
 */
export type Statement = {
  from: string;
  to: string;
  business: ReportBusiness;
  customer: { id: number; name: string; company_name: string | null; address: string | null; tin: string | null };
  /** The names of the places whose documents it holds, for a user who views only some; null: every place. */
  places: string[] | null;
  opening_balance: number;
  data: StatementRow[];
  totals: { debit: number; credit: number };
  closing_balance: number;
};

/** A kind of document a statement's rows are made of, and what its description reads. */
export interface StatementSource {
  resource: string;
  /**
   * The fields its description reads, in order, after the document it settles (if it settles one):
   * a choice by its label, any other field as "Label: value".
   */
  details: readonly string[];
}

/**
 * The kinds a statement is made of, in the order they stand on one day. Each is owed (its total is a
 * charge: `effects.owed`) or settles what is owed (its amount is a credit: `effects.settles`), as it
 * declares; a new kind of charge or credit is one more entry here.
 */
export const STATEMENT_SOURCES: readonly StatementSource[] = [
  { resource: 'invoices', details: ['due_date'] },
  { resource: 'invoice-payments', details: ['payment_method', 'payment_reference'] },
  { resource: 'credit-memoranda', details: ['reason'] },
  // Credited to the invoice, its amount; kept on the customer's account, its total (and a payment out of that credit
  // credits only its other tenders); refunded, nothing (what was paid stays paid, and was paid back).
  { resource: 'sales-returns', details: ['settlement'] },
];

/** What reading a statement takes: viewing the customer and every kind of its rows, as a statement is never shown in part. */
export const STATEMENT_PERMISSIONS: readonly string[] = ['contacts', ...STATEMENT_SOURCES.map(({ resource }) => resource)].map((name) =>
  permissionName('view', getResource(name).permission),
);

/** Whether `held` (a user's permission names) reads statements. */
export const readsStatements = (held: ReadonlySet<string> | readonly string[]): boolean =>
  STATEMENT_PERMISSIONS.every((name) => holdsAny(held, [name]));

/** The most rows a statement holds; a period holding more is refused, to be asked in shorter ones. */
export const STATEMENT_MAX_ROWS = 5000;

/** The period a statement covers unless asked: from the first day of the month three months before `today`'s, to `today`. */
export function defaultStatementPeriod(today: string): { from: string; to: string } {
  // setUTCFullYear, as Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const first = new Date(0);
  first.setUTCFullYear(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - 3, 1);
  return { from: first.toISOString().slice(0, 10), to: today };
}
