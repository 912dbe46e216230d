import { sql } from 'kysely';
import { z } from 'zod';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../domain/money';
import type { LineInput } from '../../domain/document-lines';
import { holdsAny, permissionName } from '../../domain/permissions';
import { createSchema } from '../../domain/resource-schemas';
import { invoicePayments } from '../../domain/resources/invoice-payments';
import { invoices, OVERRIDE_CREDIT_LIMITS_PERMISSION } from '../../domain/resources/invoices';
import { quotations } from '../../domain/resources/quotations';
import { tendersInput } from '../../domain/tenders-input';
import { forUpdate, nowIso, toIsoTimestamp } from '../db/dialect';
import { conflict, forbidden, HttpError, validationError } from '../errors';
import type { ApiRecord } from '../resources/codec';
import type { CreateAnother, ResourceStore } from '../resources/store';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import type { ServerPart } from './server-part';
import { documentStore, liveSource, viewedSource } from './document-store';
import { priceLines } from './lines';
import { decoratePayments, paymentsAnswer } from './payments';

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

const quotationsStore: ResourceStore = documentStore(quotations, {
  async prepare(trx, scope, columns, input) {
    return { lines: await priceLines(trx, scope, lines(input), salePricing(columns)) };
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

/** What a sale at the counter pays with its invoice (`payment.tenders`), in centavos: what it leaves unpaid is owed. */
function paidWith(input: Record<string, unknown>): number {
  const tenders = (input.payment as { tenders?: unknown } | null | undefined)?.tenders;
  if (!Array.isArray(tenders)) return 0;
  return tenders.reduce((paid: number, tender: { amount?: unknown }) => {
    const amount = Number(tender?.amount);
    return Number.isFinite(amount) && amount > 0 ? paid + pesosToCentavos(amount) : paid;
  }, 0);
}

/**
 * A customer's credit limit (`contacts.credit_limit`, none: no limit): an invoice that would leave
 * them owing more than it, on every unpaid invoice of the business with what this one leaves
 * unpaid, is refused in words — unless its maker holds `override-credit-limits` and gives the
 * reason, which the invoice keeps (`credit_override_reason`, in its history too). The customer's
 * row is locked first, so two invoices to one customer at once are reckoned one after the other
 * and cannot pass the limit together. The reason comes from no one else, and is kept only where
 * it was needed. Answers the reason kept.
 */
async function creditOverrideOf(trx: Trx, scope: Scope, contactId: number, unpaid: number, given: unknown): Promise<string | null> {
  const reason = typeof given === 'string' && given.trim() !== '' ? given.trim() : null;
  const mayOverride = holdsAny(scope.permissions, [OVERRIDE_CREDIT_LIMITS_PERMISSION]);
  if (reason !== null && !mayOverride) throw forbidden("Going past a customer's credit limit needs permission to override credit limits.");
  if (unpaid <= 0) return null;
  const customer = await forUpdate(
    trx,
    trx.selectFrom('contacts').select(['name', 'credit_limit']).where('id', '=', contactId).where('business_id', '=', scope.businessId),
  ).executeTakeFirst();
  if (!customer || customer.credit_limit === null) return null;
  const { owed } = await trx
    .selectFrom('invoices')
    .select((eb) => eb.fn.sum<number | string | null>('balance').as('owed'))
    .where('business_id', '=', scope.businessId)
    .where('contact_id', '=', contactId)
    .where('deleted_at', 'is', null)
    .where('status', '<>', 'void')
    .where('balance', '>', 0)
    .executeTakeFirstOrThrow();
  const after = Number(owed ?? 0) + unpaid;
  const limit = Number(customer.credit_limit);
  if (after <= limit) return null;
  if (reason !== null) return reason;
  const pesos = (centavos: number) => formatPesos(centavosToPesos(centavos));
  throw validationError({
    contact_id: [
      `${customer.name}'s credit limit is ${pesos(limit)}: with what they owe already, this invoice would leave ${pesos(after)} unpaid, ` +
        `${pesos(after - limit)} past it. Take ${pesos(after - limit)} more in payment, or ` +
        (mayOverride ? 'give the reason for going past the limit.' : 'ask someone who may override credit limits.'),
    ],
    ...(mayOverride && { credit_override_reason: ["Give the reason for going past the customer's credit limit."] }),
  });
}

const invoicesBase: ResourceStore = documentStore(invoices, {
  async prepare(trx, scope, columns, input) {
    if (columns.quotation_id !== null && columns.quotation_id !== undefined) {
      const quotation = await viewedSource(trx, scope, quotations, Number(columns.quotation_id));
      if (!quotation) throw validationError({ quotation_id: ['The selected quotation is invalid.'] });
    }
    const buyerDiscount = buyerDiscountOf(columns);
    const priced = await priceLines(trx, scope, lines(input), { ...salePricing(columns), buyerDiscount: Boolean(columns.buyer_discount) });
    const contactId = Number(columns.contact_id);
    await refuseWithoutBuyerParticulars(trx, scope, contactId, priced.totals.total);
    const unpaid = priced.totals.total - Math.min(paidWith(input), priced.totals.total);
    const override = await creditOverrideOf(trx, scope, contactId, unpaid, columns.credit_override_reason);
    return {
      columns: { ...buyerDiscount, credit_override_reason: override, amount_paid: 0, balance: priced.totals.total },
      lines: priced,
    };
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

/**
 * A sale at the counter is one change: the invoice and its payment, made together in the
 * invoice's create (`payment` in its body, as the outbox sends it once under one Idempotency-Key).
 */
const counterPayment = z
  .object({
    tenders: tendersInput.describe(
      "As an invoice payment's create takes them: each tender's method, amount (pesos) and what the method needs; cash may say what was received",
    ),
    payment_reference: createSchema(invoicePayments).shape.payment_reference,
  })
  .nullish()
  .describe(
    'The payment taken with the invoice (a sale at the counter): made in the same transaction, once the invoice is, as an ' +
      'invoice payment of it dated as it is, numbered from its own series; its tenders may come to at most the total. ' +
      'Needs create-invoice-payments as well; a refusal of it (under payment.…) makes nothing.',
  );

type CounterPayment = z.infer<typeof counterPayment>;

/** A refusal of the payment, its field messages under `payment.`, where the body named what they are about. */
function asPaymentRefusal(error: unknown): unknown {
  if (!(error instanceof HttpError) || error.statusCode !== 422 || !error.errors) return error;
  return validationError(Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [`payment.${field}`, messages])));
}

/**
 * The payment of a sale at the counter, once its invoice is made: an invoice payment of it, made by
 * the engine's create as `POST /api/invoice-payments` makes one — its number from its series, its
 * tenders kept, the invoice's balance following (so its tenders come to at most the new invoice's
 * total), its own history entry — dated as the invoice is.
 */
async function payAtTheCounter(invoice: ApiRecord, payment: NonNullable<CounterPayment>, create: CreateAnother): Promise<void> {
  try {
    await create(invoicePayments, {
      invoice_id: invoice.id,
      date: invoice.date,
      payment_reference: payment.payment_reference ?? null,
      tenders: payment.tenders,
    });
  } catch (error) {
    throw asPaymentRefusal(error);
  }
}

const invoicesStore: ResourceStore = {
  ...invoicesBase,
  createFields: { ...invoicesBase.createFields, payment: counterPayment },
  async insert(trx, scope, columns, input) {
    // Refused before anything is made: taking the payment is making an invoice payment.
    if (input.payment && !holdsAny(scope.permissions, [permissionName('create', invoicePayments.permission)])) {
      throw forbidden('Taking the payment with the invoice needs permission to create invoice payments as well as invoices.');
    }
    return invoicesBase.insert(trx, scope, columns, input);
  },
  async afterCreate(_trx, _scope, invoice, input, create) {
    const payment = input.payment as CounterPayment;
    if (payment) await payAtTheCounter(invoice, payment, create);
  },
  async decorate(db, scope, records) {
    await invoicesBase.decorate?.(db, scope, records);
    await decorateIssue(db, scope, records);
    await decoratePayments(db, scope, invoicePayments, records);
  },
  decorated: {
    issued_at: z.string().describe("When it was made: on the device's clock for one made offline and sent later"),
    issued_by: z
      .looseObject({ id: z.number().int(), display: z.string().nullable() })
      .nullable()
      .describe('The user who made it, by name; null for one the demo seeder made'),
    ...paymentsAnswer,
  },
};

/**
 * Voiding an invoice (its goods go back in stock as it declares): refused while returns took any of
 * its goods back (they are back already: void the returns first); its quotation may be invoiced again.
 */
async function reopenQuotation(trx: Trx, scope: Scope, row: Record<string, unknown>): Promise<void> {
  const returned = await trx
    .selectFrom('document_lines')
    .select('id')
    .where('document_type', '=', invoices.document!.type)
    .where('document_id', '=', Number(row.id))
    .where('quantity_done', '>', 0)
    .executeTakeFirst();
  if (returned) throw conflict(`Invoice ${String(row.number)} has returns: void them first.`);
  if (row.quotation_id === null) return;
  // The quotation first, as an invoice made from it locks it first.
  await liveSource(trx, scope, 'quotations', Number(row.quotation_id));
  await setStatus(trx, 'quotations', Number(row.quotation_id), 'open');
}

/** Quotations and invoices; invoice payments are served from their declaration (`effects.settles`). */
export const salesParts: readonly ServerPart[] = [
  { definition: quotations, store: quotationsStore },
  { definition: invoices, store: invoicesStore, reversals: { void: reopenQuotation } },
];
