import { sql } from 'kysely';
import { centavosToPesos, formatPesos } from '../../domain/money';
import type { LineInput } from '../../domain/document-lines';
import { invoicePayments } from '../../domain/resources/invoice-payments';
import { invoices } from '../../domain/resources/invoices';
import { quotations } from '../../domain/resources/quotations';
import { nowIso } from '../db/dialect';
import { validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import { untyped, type Scope, type Trx } from '../db/scope';
import { documentStore, liveSource, moveBack, viewedSource, type Reversals } from './document-store';
import { priceLines } from './lines';
import { balanceVoid, paymentStore, paymentVoid } from './payments';

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

export const invoicesStore: ResourceStore = documentStore(invoices, {
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
