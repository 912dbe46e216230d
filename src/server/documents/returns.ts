import { documentTotals, type VatCategory } from '../../domain/documents';
import { returnedFigures, share, soldFigures, sourceDateField } from '../../domain/returns';
import type { LineInput } from '../../domain/document-lines';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { fromThousandths, toThousandths } from '../../domain/quantity';
import type { ResourceDefinition } from '../../domain/resource';
import { getResource } from '../../domain/resources/registry';
import { purchaseReturns } from '../../domain/resources/purchase-returns';
import { salesReturns } from '../../domain/resources/sales-returns';
import { z } from 'zod';
import { tendersTotal, type Tender } from '../../domain/tenders';
import { isWalkInName } from '../../domain/walk-in';
import { paymentCreateFields, paymentTenders } from '../../domain/tenders-input';
import { conflict, validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import type { Scope, Trx } from '../db/scope';
import { documentStore, liveSource, viewedSource, type Prepared } from './document-store';
import { fulfil, storedLines, type Line, type StoredLine } from './lines';
import { accountCreditOf, accountCreditText, moveAccountCredit } from './account-credit';
import { followBalance } from './payments';
import type { ServerPart } from './server-part';
import { insertTenders, keepingTenders } from './tenders';

/**
 * Returns: goods a customer brings back from an invoice (a sales return), or sent back to a
 * supplier from a bill (a purchase return) — one kind of document, each kind in its own words
 * (`document.returns`). Each line is one of the source's, at most what it sold or billed less what
 * earlier returns took (`quantity_done` of the source's line, moved by one guarded UPDATE, so two
 * returns racing for the same goods cannot both take them), and comes to its share of that line as
 * the source priced it — its VAT, its discount, a senior citizen's or PWD's discount — figured so
 * that the returns of a whole line come to the line to the centavo. Its goods move as the kind
 * declares (a sales return's restocked lines back on hand, a purchase return's out of stock or of
 * quarantine). What it comes to is credited to the source (taken off its balance, as a memorandum's
 * amount is) or refunded in tenders, at most what was paid on the source and not yet refunded.
 */

/** The lines of a return of `source` (named `noun`), each its share of the source's line it names; refused in words, all at once. */
function returnLines(noun: string, source: Record<string, unknown>, sold: readonly StoredLine[], inputs: readonly LineInput[]): Line[] {
  const byId = new Map(sold.map((line) => [line.id, line]));
  // What earlier returns and this one's earlier lines took of each sold line.
  const taken = new Map(sold.map((line) => [line.id, line.quantity_done]));
  const errors: Record<string, string[]> = {};
  const lines: Line[] = [];
  for (const [index, input] of inputs.entries()) {
    const line = input.source_line_id ? byId.get(input.source_line_id) : undefined;
    if (!line) {
      errors[`lines.${index}.source_line_id`] = [`Each line must be a line of ${noun} ${String(source.number)}.`];
      continue;
    }
    const quantity = toThousandths(input.quantity);
    const before = taken.get(line.id)!;
    const open = line.quantity - before;
    if (quantity > open) {
      errors[`lines.${index}.quantity`] = [
        open === 0 ? 'All of this line was returned already.' : `Only ${fromThousandths(open)} of this line remain to be returned.`,
      ];
      continue;
    }
    taken.set(line.id, before + quantity);
    const sold = soldFigures({ ...line, vat_category: line.vat_category as VatCategory }, Boolean(source.prices_include_vat));
    const figures = returnedFigures(sold, line.quantity, before, quantity);
    lines.push({
      ...figures,
      itemId: line.item_id,
      unitId: line.unit_of_measurement_id,
      quantity,
      baseQuantity: share(line.base_quantity, before + quantity, line.quantity) - share(line.base_quantity, before, line.quantity),
      unitPrice: line.unit_price,
      discountHundredths: line.discount_percent,
      sourceLineId: line.id,
      reason: input.reason ?? null,
      note: input.note || null,
      disposition: input.disposition ?? null,
    });
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return lines;
}

const pesos = (centavos: number) => formatPesos(centavosToPesos(centavos));

interface ReturnPrepared extends Prepared {
  /** A refund's tenders, kept with the return as a payment's are. */
  refund?: Tender[];
}

/** The store and the void of a kind taking goods back (`lines: 'returns'`) from the documents it is made from. */
function returnsPart(definition: ResourceDefinition): ServerPart {
  const spec = definition.document!;
  const terms = spec.returns!;
  const source = getResource(spec.source!.resource);
  const field = spec.source!.field;
  const noun = source.singular.toLowerCase();
  const paymentType = spec.type;
  const settling = (value: string) => terms.settlements.find((option) => option.value === value)!;
  const [credit, refund, onAccount] = [settling('credit'), settling('refund'), settling('account')];
  const party = (spec.contact ?? 'Contact').toLowerCase();

  /** What earlier returns of the source, not voided, refunded. */
  async function refundedBefore(trx: Trx, sourceId: number): Promise<number> {
    const { refunded } = await trx
      .selectFrom(definition.table as 'sales_returns')
      .select((eb) => eb.fn.sum<number | string | null>('refunded').as('refunded'))
      .where(field as 'invoice_id', '=', sourceId)
      .where('status', '<>', 'void')
      .executeTakeFirstOrThrow();
    return Number(refunded ?? 0);
  }

  /** How the party gets back `total`: off what the source still owes, in tenders out of what was paid on it, or kept on their account. */
  async function settlementOf(
    trx: Trx,
    from: Record<string, unknown>,
    settlement: string,
    total: number,
    input: Record<string, unknown>,
  ): Promise<{ amount: number; refunded: number; tenders?: Tender[] }> {
    const named = `${noun} ${String(from.number)}`;
    if (settlement === credit.value) {
      const owed = Number(from.balance);
      if (total > owed) {
        throw validationError({
          settlement: [
            `The returned goods come to ${pesos(total)}, more than the ${pesos(owed)} still owed on ${named}: refund them instead.`,
          ],
        });
      }
      return { amount: total, refunded: 0 };
    }
    // Kept on the party's account (apply puts it there), to pay later documents with: not on the
    // walk-in customer's, which is everyone's.
    if (settlement === onAccount.value) {
      const contact = await trx.selectFrom('contacts').select('name').where('id', '=', Number(from.contact_id)).executeTakeFirst();
      if (contact && isWalkInName(contact.name)) {
        throw validationError({
          settlement: [`${contact.name} is no one in particular, with no account to keep credit on: refund them instead.`],
        });
      }
      return { amount: 0, refunded: 0 };
    }
    const refundable = Number(from.amount_paid) - (await refundedBefore(trx, Number(from.id)));
    if (total > refundable) {
      throw validationError({
        settlement: [
          `The returned goods come to ${pesos(total)}, but only ${pesos(Math.max(0, refundable))} was paid on ${named} and not refunded: choose “${credit.label}” instead.`,
        ],
      });
    }
    const settled = paymentTenders({ tenders: input.tenders ?? [] });
    if (settled.errors) throw validationError(settled.errors);
    if (accountCreditOf(settled.tenders) > 0) {
      throw validationError({
        tenders: [`A refund is paid back in money: to keep it on the ${party}’s account, choose “${onAccount.label}”.`],
      });
    }
    if (tendersTotal(settled.tenders) !== total) {
      throw validationError({ tenders: [`The refund's tenders must come to what the returned goods do: ${pesos(total)}.`] });
    }
    return { amount: 0, refunded: total, tenders: settled.tenders };
  }

  const base: ResourceStore = documentStore(definition, {
    placesFrom: (from) => ({ branch_id: from.branch_id, warehouse_id: from.warehouse_id }),
    async prepare(trx, scope, columns, input): Promise<ReturnPrepared> {
      // Locked: the returns of one source are reckoned one after the other.
      const from = await viewedSource(trx, scope, source, Number(columns[field]));
      if (!from) throw validationError({ [field]: [`The selected ${noun} is invalid.`] });
      // Goods come back after they went: what they cost when they left is what they come back at.
      if (String(columns.date) < String(from.date)) {
        throw validationError({ date: [`A return is dated on or after its ${noun}: ${String(from.date)} or later.`] });
      }
      const lines = returnLines(noun, from, await storedLines(trx, source.document!.type, [Number(from.id)]), input.lines as LineInput[]);
      const totals = { ...documentTotals(lines), prices_include_vat: Number(from.prices_include_vat) };
      const settlement = String(input.settlement);
      const { amount, refunded, tenders } = await settlementOf(trx, from, settlement, totals.total, input);
      return {
        columns: {
          contact_id: from.contact_id,
          branch_id: from.branch_id,
          warehouse_id: from.warehouse_id,
          [sourceDateField(field)]: from.date,
          settlement,
          amount,
          refunded,
        },
        lines: { lines, totals },
        refund: tenders,
      };
    },
    async apply(trx, scope, document, prepared, columns) {
      // Its goods moved as its kind declares (the store moved them): now the lines they came from.
      const lines = prepared.lines!.lines;
      await fulfil(trx, lines);
      const credited = Number(columns.amount);
      if (credited > 0 && !(await followBalance(trx, source.table, Number(columns[field]), credited, 'amount_adjusted'))) {
        throw validationError({ settlement: [`What ${noun} still owes changed meanwhile: reload it and return the goods again.`] });
      }
      const refundTenders = (prepared as ReturnPrepared).refund;
      if (refundTenders) await insertTenders(trx, scope, paymentType, document.id, refundTenders);
      if (columns.settlement === onAccount.value) await moveAccountCredit(trx, Number(columns.contact_id), prepared.lines!.totals.total);
    },
  });

  const store: ResourceStore = {
    ...keepingTenders(base, paymentType, "A refund's tenders, in order: they come to what was refunded (none for a credit)"),
    createFields: {
      ...base.createFields,
      settlement: z
        .enum(terms.settlements.map((option) => option.value) as [string, ...string[]], {
          error: (issue) =>
            issue.input === undefined || issue.input === null || issue.input === ''
              ? 'The settlement field is required.'
              : `The settlement must be ${credit.value} (${credit.label.toLowerCase()}), ${refund.value} (${refund.label.toLowerCase()}) or ${onAccount.value} (${onAccount.label.toLowerCase()}).`,
        })
        .describe(
          `${credit.value}: taken off what the ${noun} still owes; ${refund.value}: paid back in \`tenders\`, at most what was paid on the ${noun}; ` +
            `${onAccount.value}: kept on the ${party}'s \`credit_balance\`, which later payments' \`account_credit\` tenders use`,
        ),
      tenders: paymentCreateFields.tenders.describe(
        "A refund's tenders, as a payment's create takes them: they must come to the return's total. Ignored for a credit.",
      ),
    },
  };

  /**
   * A return's void, beside what its declaration undoes (its goods move back, what it credited is
   * owed again): its lines may be returned again, and what it put on the party's account leaves it
   * — refused while payments have used that credit. Its source first, as a return made from it
   * locks it first.
   */
  async function reopenReturnedLines(trx: Trx, scope: Scope, row: Record<string, unknown>): Promise<void> {
    await liveSource(trx, scope, source.table, Number(row[field]));
    const contactId = Number(row.contact_id);
    if (row.settlement === onAccount.value && !(await moveAccountCredit(trx, contactId, -Number(row.total)))) {
      throw conflict(
        `${definition.singular} ${String(row.number)} put ${pesos(Number(row.total))} on the ${party}’s account, which holds ` +
          `${await accountCreditText(trx, contactId)} now: void the payments that used its credit first.`,
      );
    }
    const lines = await storedLines(trx, paymentType, [Number(row.id)]);
    await fulfil(
      trx,
      lines.map((line) => ({ sourceLineId: line.source_line_id, quantity: line.quantity })),
      -1,
    );
  }

  return { definition, store, reversals: { void: reopenReturnedLines } };
}

export const salesReturnsPart = returnsPart(salesReturns);
export const purchaseReturnsPart = returnsPart(purchaseReturns);
