import { sql } from 'kysely';
import { centavosToPesos, formatPesos } from '../../domain/money';
import type { LineInput } from '../../domain/document-lines';
import { invoicePayments } from '../../domain/resources/invoice-payments';
import { invoices } from '../../domain/resources/invoices';
import { quotations } from '../../domain/resources/quotations';
import { nowIso, toIsoTimestamp } from '../db/dialect';
import { validationError } from '../errors';
import type { ApiRecord } from '../resources/codec';
import type { ResourceStore } from '../resources/store';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import { documentStore, liveSource, moveBack, viewedSource, type Reversals } from './document-store';
import { priceLines } from './lines';
import { balanceVoid, decoratePayments, paymentStore, paymentVoid } from './payments';

/**
 * Sales: quotations → invoices (stock out, refused when it would go negative; the quotation is
 * marked invoiced) → invoice payments (the balance follows). Sale prices come from the price
 * list of the invoice's branch (or every branch), quantity breaks from the item's sale discounts.
 */

const lines = (input: Record<string, unknown>) => input.lines as LineInput[];
const salePricing = (columns: Record<string, unknown>) => ({
  list: 'sale' as const,
  date: String(columns.date),
  partyId: columns.branch_id === null || columns.branch_id === undefined ? null : Number(columns.branch_id),
});

async function setStatus(trx: Trx, table: string, id: number, status: string): Promise<void> {
  await untyped(trx)
    .updateTable(table)
    .set({ status, updated_at: nowIso(), version: sql`version + 1` })
    .where('id', '=', id)
    .execute();
}

export const quotationsStore: ResourceStore = documentStore(quotations, {
  async prepare(trx, scope, columns, input) {
    return { columns: { status: 'open' }, lines: await priceLines(trx, scope, lines(input), salePricing(columns)) };
  },
});

/** From this total (₱1,000.00, in centavos) a sales invoice to a VAT-registered buyer names the buyer. */
export const BUYER_PARTICULARS_FROM = 100_000;

/**
 * A sales invoice of ₱1,000 or more to a VAT-registered buyer must carry the buyer's name, address
 * and TIN (RR 7-2024): refused, saying what the contact lacks, when it has not got them.
 */
async function refuseWithoutBuyerParticulars(trx: Trx, scope: Scope, contactId: number, total: number): Promise<void> {
  if (total < BUYER_PARTICULARS_FROM) return;
  const buyer = await trx
    .selectFrom('contacts')
    .select(['name', 'tin', 'address', 'vat_registered'])
    .where('id', '=', contactId)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  if (!buyer || !buyer.vat_registered) return;
  const missing = [!buyer.tin && 'TIN', !buyer.address?.trim() && 'address'].filter(Boolean);
  if (missing.length === 0) return;
  throw validationError({
    contact_id: [
      `${buyer.name} is VAT-registered and this invoice comes to ${formatPesos(centavosToPesos(total))}: an invoice of ${formatPesos(centavosToPesos(BUYER_PARTICULARS_FROM))} or more to a VAT-registered buyer shows the buyer's name, address and TIN. Add ${buyer.name}'s ${missing.join(' and ')} to the contact first.`,
    ],
  });
}

/**
 * A senior citizen's or PWD's discount is given against their ID: its number and the name on it
 * are kept on the invoice (RA 9994, RA 10754), and it is refused without them. Without the
 * discount, no ID is kept.
 */
function buyerDiscountOf(columns: Record<string, unknown>): Record<string, unknown> {
  if (!columns.buyer_discount) return { buyer_discount: null, buyer_discount_id_number: null, buyer_discount_name: null };
  const kind = columns.buyer_discount === 'senior' ? "A senior citizen's" : "A PWD's";
  const errors: Record<string, string[]> = {};
  if (!columns.buyer_discount_id_number)
    errors.buyer_discount_id_number = [`${kind} discount is given only against their ID: enter the ID number.`];
  if (!columns.buyer_discount_name) errors.buyer_discount_name = [`${kind} discount is given only against their ID: enter the name on it.`];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return {};
}

const invoicesBase: ResourceStore = documentStore(invoices, {
  async prepare(trx, scope, columns, input) {
    if (columns.quotation_id !== null && columns.quotation_id !== undefined) {
      const quotation = await viewedSource(trx, scope, quotations, Number(columns.quotation_id));
      if (!quotation) throw validationError({ quotation_id: ['The selected quotation is invalid.'] });
    }
    const buyerDiscount = buyerDiscountOf(columns);
    const priced = await priceLines(trx, scope, lines(input), { ...salePricing(columns), buyerDiscount: Boolean(columns.buyer_discount) });
    await refuseWithoutBuyerParticulars(trx, scope, Number(columns.contact_id), priced.totals.total);
    return { columns: { ...buyerDiscount, status: 'unpaid', amount_paid: 0, balance: priced.totals.total }, lines: priced };
  },
  async apply(trx, _scope, _document, _prepared, columns) {
    if (columns.quotation_id !== null && columns.quotation_id !== undefined) {
      await setStatus(trx, 'quotations', Number(columns.quotation_id), 'invoiced');
    }
  },
});

/**
 * Each invoice read gets when and by whom it was issued, as its printed copy states them:
 * `issued_at`, when it was made — on the device's clock for one made offline and sent later
 * (its creation's history entry keeps that), else when the server made it — and `issued_by`,
 * the user who made it (`created_by`; none for one the demo seeder made).
 */
async function decorateIssue(db: Db, scope: Scope, records: ApiRecord[]): Promise<void> {
  const rows = await db
    .selectFrom('invoices as invoice')
    .leftJoin('users as user', 'user.id', 'invoice.created_by')
    .leftJoin('activity_log as made', (join) =>
      join
        .on('made.business_id', '=', scope.businessId)
        .on('made.resource', '=', invoices.name)
        .onRef('made.record_id', '=', 'invoice.id')
        .on('made.action', '=', 'created'),
    )
    .select(['invoice.id', 'invoice.created_at', 'invoice.created_by', 'user.name as user_name', 'made.id as entry_id', 'made.made_at'])
    .where('invoice.business_id', '=', scope.businessId)
    .where(
      'invoice.id',
      'in',
      records.map((record) => record.id),
    )
    .execute();
  const issues = new Map(rows.map((row) => [Number(row.id), row]));
  for (const record of records) {
    const issue = issues.get(record.id);
    // No history entry yet: the invoice is being made by this very request, the entry written after.
    const madeAt = issue && (issue.entry_id === null ? scope.origin?.madeAt : issue.made_at);
    record.issued_at = toIsoTimestamp(madeAt ?? issue?.created_at ?? record.created_at);
    record.issued_by =
      issue?.created_by === null || issue?.created_by === undefined
        ? null
        : { id: Number(issue.created_by), display: issue.user_name ?? null };
  }
}

export const invoicesStore: ResourceStore = {
  ...invoicesBase,
  async decorate(db, scope, records) {
    await invoicesBase.decorate?.(db, scope, records);
    await decorateIssue(db, scope, records);
    await decoratePayments(db, scope, invoicePayments, records);
  },
};

export const invoicePaymentsStore: ResourceStore = paymentStore(invoicePayments, {
  table: 'invoices',
  field: 'invoice_id',
  noun: 'Invoice',
});

/** Voiding an invoice puts its goods back in stock, and its quotation may be invoiced again. */
async function returnInvoicedGoods(trx: Trx, scope: Scope, row: Record<string, unknown>): Promise<void> {
  // The quotation first, as an invoice made from it locks it first.
  if (row.quotation_id !== null) await liveSource(trx, scope, 'quotations', Number(row.quotation_id));
  await moveBack(trx, scope, row, 'invoice', 1);
  if (row.quotation_id !== null) await setStatus(trx, 'quotations', Number(row.quotation_id), 'open');
}

export const salesReversals: Reversals = {
  invoices: { void: balanceVoid('Invoice', 'invoices', returnInvoicedGoods) },
  'invoice-payments': { void: paymentVoid('Invoice payment', 'invoices', 'invoice_id') },
};
