import { documentTotals, type VatCategory } from '../../domain/documents';
import { returnedFigures, share, soldFigures, sourceDateField } from '../../domain/returns';
import type { LineInput } from '../../domain/document-lines';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { fromThousandths, toThousandths } from '../../domain/quantity';
import { invoices } from '../../domain/resources/invoices';
import { RETURN_SETTLEMENTS, salesReturns } from '../../domain/resources/sales-returns';
import { z } from 'zod';
import { tendersTotal, type Tender } from '../../domain/tenders';
import { paymentCreateFields, paymentTenders } from '../../domain/tenders-input';
import { validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import type { Scope, Trx } from '../db/scope';
import { documentStore, liveSource, viewedSource, type Prepared } from './document-store';
import { fulfil, storedLines, type Line, type StoredLine } from './lines';
import { followBalance } from './payments';
import type { ServerPart } from './server-part';
import { insertTenders, keepingTenders } from './tenders';

/**
 * Sales returns: goods a customer brings back from an invoice. Each line is one of the invoice's,
 * at most what was sold less what earlier returns took (`quantity_done` of the invoice's line,
 * moved by one guarded UPDATE, so two returns racing for the same goods cannot both take them),
 * and comes to its share of that line as the invoice priced it — its VAT, its discount, a senior
 * citizen's or PWD's discount — figured so that the returns of a whole line come to the line to
 * the centavo. Restocked lines go back on hand at the invoice's place; written-off ones do not.
 * What the return comes to is credited to the invoice (taken off its balance, as a memorandum's
 * amount is) or refunded in tenders, at most what was paid on the invoice and not yet refunded.
 */

const PAYMENT_TYPE = salesReturns.document!.type;

/** The lines of a return of `invoice`, each its share of the invoice line it names; refused in words, all at once. */
function returnLines(invoice: Record<string, unknown>, sold: readonly StoredLine[], inputs: readonly LineInput[]): Line[] {
  const byId = new Map(sold.map((line) => [line.id, line]));
  // What earlier returns and this one's earlier lines took of each sold line.
  const taken = new Map(sold.map((line) => [line.id, line.quantity_done]));
  const errors: Record<string, string[]> = {};
  const lines: Line[] = [];
  for (const [index, input] of inputs.entries()) {
    const source = input.source_line_id ? byId.get(input.source_line_id) : undefined;
    if (!source) {
      errors[`lines.${index}.source_line_id`] = [`Each line must be a line of invoice ${String(invoice.number)}.`];
      continue;
    }
    const quantity = toThousandths(input.quantity);
    const before = taken.get(source.id)!;
    const open = source.quantity - before;
    if (quantity > open) {
      errors[`lines.${index}.quantity`] = [
        open === 0 ? 'All of this line was returned already.' : `Only ${fromThousandths(open)} of this line remain to be returned.`,
      ];
      continue;
    }
    taken.set(source.id, before + quantity);
    const sold = soldFigures({ ...source, vat_category: source.vat_category as VatCategory }, Boolean(invoice.prices_include_vat));
    const figures = returnedFigures(sold, source.quantity, before, quantity);
    lines.push({
      ...figures,
      itemId: source.item_id,
      unitId: source.unit_of_measurement_id,
      quantity,
      baseQuantity: share(source.base_quantity, before + quantity, source.quantity) - share(source.base_quantity, before, source.quantity),
      unitPrice: source.unit_price,
      discountHundredths: source.discount_percent,
      sourceLineId: source.id,
      reason: input.reason ?? null,
      note: input.note || null,
      disposition: input.disposition ?? null,
    });
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return lines;
}

const pesos = (centavos: number) => formatPesos(centavosToPesos(centavos));

/** What earlier returns of the invoice, not voided, refunded. */
async function refundedBefore(trx: Trx, invoiceId: number): Promise<number> {
  const { refunded } = await trx
    .selectFrom('sales_returns')
    .select((eb) => eb.fn.sum<number | string | null>('refunded').as('refunded'))
    .where('invoice_id', '=', invoiceId)
    .where('status', '<>', 'void')
    .executeTakeFirstOrThrow();
  return Number(refunded ?? 0);
}

/** How the customer gets back `total`: off what the invoice still owes, or in tenders out of what was paid on it. */
async function settlementOf(
  trx: Trx,
  invoice: Record<string, unknown>,
  settlement: string,
  total: number,
  input: Record<string, unknown>,
): Promise<{ amount: number; refunded: number; tenders?: Tender[] }> {
  const number = String(invoice.number);
  if (settlement === 'credit') {
    const owed = Number(invoice.balance);
    if (total > owed) {
      throw validationError({
        settlement: [
          `The returned goods come to ${pesos(total)}, more than the ${pesos(owed)} still owed on invoice ${number}: refund them instead.`,
        ],
      });
    }
    return { amount: total, refunded: 0 };
  }
  const refundable = Number(invoice.amount_paid) - (await refundedBefore(trx, Number(invoice.id)));
  if (total > refundable) {
    throw validationError({
      settlement: [
        `The returned goods come to ${pesos(total)}, but only ${pesos(Math.max(0, refundable))} was paid on invoice ${number} and not refunded: credit them to the invoice instead.`,
      ],
    });
  }
  const settled = paymentTenders({ tenders: input.tenders ?? [] });
  if (settled.errors) throw validationError(settled.errors);
  if (tendersTotal(settled.tenders) !== total) {
    throw validationError({ tenders: [`The refund's tenders must come to what the returned goods do: ${pesos(total)}.`] });
  }
  return { amount: 0, refunded: total, tenders: settled.tenders };
}

interface ReturnPrepared extends Prepared {
  /** A refund's tenders, kept with the return as a payment's are. */
  refund?: Tender[];
}

const returnsBase: ResourceStore = documentStore(salesReturns, {
  placesFrom: (invoice) => ({ branch_id: invoice.branch_id, warehouse_id: invoice.warehouse_id }),
  async prepare(trx, scope, columns, input): Promise<ReturnPrepared> {
    // Locked: the returns of one invoice are reckoned one after the other.
    const invoice = await viewedSource(trx, scope, invoices, Number(columns.invoice_id));
    if (!invoice) throw validationError({ invoice_id: ['The selected invoice is invalid.'] });
    const lines = returnLines(invoice, await storedLines(trx, invoices.document!.type, [Number(invoice.id)]), input.lines as LineInput[]);
    const totals = { ...documentTotals(lines), prices_include_vat: Number(invoice.prices_include_vat) };
    const settlement = String(input.settlement);
    const { amount, refunded, tenders } = await settlementOf(trx, invoice, settlement, totals.total, input);
    return {
      columns: {
        contact_id: invoice.contact_id,
        branch_id: invoice.branch_id,
        warehouse_id: invoice.warehouse_id,
        [sourceDateField('invoice_id')]: invoice.date,
        settlement,
        amount,
        refunded,
      },
      lines: { lines, totals },
      refund: tenders,
    };
  },
  async apply(trx, scope, document, prepared, columns) {
    // Its goods came back as its kind declares (the store moved them): now the lines they were sold on.
    const lines = prepared.lines!.lines;
    await fulfil(trx, lines);
    const credited = Number(columns.amount);
    if (credited > 0 && !(await followBalance(trx, invoices.table, Number(columns.invoice_id), credited, 'amount_adjusted'))) {
      throw validationError({ settlement: ['What the invoice still owes changed meanwhile: reload it and return the goods again.'] });
    }
    const refund = (prepared as ReturnPrepared).refund;
    if (refund) await insertTenders(trx, scope, PAYMENT_TYPE, document.id, refund);
  },
});

const salesReturnsStore: ResourceStore = {
  ...keepingTenders(returnsBase, PAYMENT_TYPE, "A refund's tenders, in order: they come to what was refunded (none for a credit)"),
  createFields: {
    ...returnsBase.createFields,
    settlement: z
      .enum(RETURN_SETTLEMENTS.map((option) => option.value) as [string, ...string[]], {
        error: (issue) =>
          issue.input === undefined || issue.input === null || issue.input === ''
            ? 'The settlement field is required.'
            : 'The settlement must be credit (to the invoice) or refund.',
      })
      .describe('credit: taken off what the invoice still owes; refund: paid back in `tenders`, at most what was paid on the invoice'),
    tenders: paymentCreateFields.tenders.describe(
      "A refund's tenders, as a payment's create takes them: they must come to the return's total. Ignored for a credit.",
    ),
  },
};

/**
 * A return's void, beside what its declaration undoes (its restocked and quarantined goods leave stock again, what
 * it credited is owed again): its lines may be returned again. Its invoice first, as a return made
 * from it locks it first.
 */
async function reopenReturnedLines(trx: Trx, scope: Scope, row: Record<string, unknown>): Promise<void> {
  await liveSource(trx, scope, invoices.table, Number(row.invoice_id));
  const lines = await storedLines(trx, PAYMENT_TYPE, [Number(row.id)]);
  await fulfil(
    trx,
    lines.map((line) => ({ sourceLineId: line.source_line_id, quantity: line.quantity })),
    -1,
  );
}

export const salesReturnsPart: ServerPart = {
  definition: salesReturns,
  store: salesReturnsStore,
  reversals: { void: reopenReturnedLines },
};
