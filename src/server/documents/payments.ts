import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { centavosToPesos, formatPesos } from '../../domain/money';
import type { Settles } from '../../domain/effects';
import { attributeName } from '../../domain/fields';
import { holdsAny, permissionName } from '../../domain/permissions';
import type { ResourceDefinition } from '../../domain/resource';
import { SETTLED, type SettledStatus } from '../../domain/resources/document-fields';
import { getResource } from '../../domain/resources/registry';
import { paidInTenders, paymentMethodOf, tendersTotal, type TenderRead } from '../../domain/tenders';
import { paymentCreateFields, paymentTenders } from '../../domain/tenders-input';
import { nowIso } from '../db/dialect';
import { conflict, validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import type { ApiRecord } from '../resources/codec';
import { documentStore, viewedSource, type Prepared, type Reversal } from './document-store';
import { accountCreditOf, accountCreditTendered, accountCreditText, moveAccountCredit } from './account-credit';
import { insertTenders, keepingTenders, tenderAnswer, tendersOfPayments } from './tenders';

/**
 * What bills and invoices share: a balance that payments bring down (unpaid → partially_paid →
 * paid), payments that may not exceed it, and voids that undo them.
 */

/** What brings a balance down: payments (`amount_paid`) or memoranda (`amount_adjusted`). */
type Settlement = Settles['into'];

/** What a payment or a memorandum settles, as its kind declares it (`document.effects.settles`). */
interface Settled {
  /** The kind it settles: bills, invoices. */
  owed: ResourceDefinition;
  /** Its field naming the settled document: `bill_id`, `invoice_id`. */
  field: string;
  /** The settled document's figure its amount moves. */
  settlement: Settlement;
}

/** Read once, when the stores are made: a kind that settles nothing, or what is not owed, is a mistake in its definition. */
function settledBy(definition: ResourceDefinition): Settled {
  const settles = definition.document?.effects?.settles;
  if (!settles) throw new Error(`${definition.name} does not declare what it settles.`);
  const owed = getResource(settles.resource);
  if (!owed.document?.effects?.owed)
    throw new Error(`${definition.name} settles ${settles.resource}, which is not a kind of document that is owed.`);
  return { owed, field: settles.field, settlement: settles.into };
}

/** A kind's name at the start of a message: "Invoice payment". */
const nounOf = (definition: ResourceDefinition) => {
  const name = attributeName(definition.singular);
  return name.charAt(0).toUpperCase() + name.slice(1);
};

/** A payment's or a memorandum's place is the one of what it settles. */
const settledPlace = (target: Record<string, unknown>) => ({ branch_id: target.branch_id, warehouse_id: target.warehouse_id });

/**
 * A bill's or an invoice's status from what was settled of its total, as its lifecycle derives it
 * (`settledStatusOf` in domain/resources/document-fields.ts, whose statuses it yields). SQL, because
 * both who move a balance (`followBalance`) and the audit (which checks every document's status in
 * one query) decide it in the database; `table` names the row's alias when the query has several.
 */
export function settledStatus(table?: string): RawBuilder<SettledStatus> {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  const settled = sql`${column('amount_paid')} + ${column('amount_adjusted')}`;
  return sql`case when ${settled} = 0 then ${sql.lit(SETTLED.nothing)} when ${settled} >= ${column('total')} then ${sql.lit(SETTLED.all)}
    else ${sql.lit(SETTLED.part)} end`;
}

/**
 * Moves `delta` centavos of a bill's or an invoice's balance into what was paid or adjusted, in
 * one conditional UPDATE: two payments racing for the last pesos cannot both pass, so the balance
 * never goes below zero. Returns false (nothing changed) when it would. Then the status follows
 * (`settledStatus`).
 */
export async function followBalance(trx: Trx, table: string, id: number, delta: number, settlement: Settlement): Promise<boolean> {
  const moved = await untyped(trx)
    .updateTable(table)
    .set({
      [settlement]: sql`${sql.ref(settlement)} + ${delta}`,
      balance: sql`balance - ${delta}`,
      updated_at: nowIso(),
      version: sql`version + 1`,
    })
    .where('id', '=', id)
    .where('status', '!=', 'void')
    .where(sql<boolean>`balance - ${delta} >= 0`)
    .where(sql<boolean>`${sql.ref(settlement)} + ${delta} >= 0`)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return false;
  await untyped(trx)
    .updateTable(table)
    .set({
      status: settledStatus(),
    })
    .where('id', '=', id)
    .execute();
  return true;
}

/** What a payment settles, and the field its refusals go under: `tenders`, or `amount` for a body of one amount. */
interface Settling extends Prepared {
  refusedAs: string;
}

/** The tenders of a payment's body, which the store's validation has already let through. */
function tendersOf(input: Record<string, unknown>) {
  const settled = paymentTenders(input);
  if (settled.errors) throw validationError(settled.errors);
  return settled.tenders;
}

/**
 * A payment or a memorandum: of a live, unvoided bill or invoice, at most its balance; its party
 * and location are the settled document's. A payment is made of tenders (`domain/tenders.ts`),
 * kept with it in its transaction: its amount is what they come to and its method theirs, or
 * split. A body as clients sent it before tenders, an amount and a method, is one tender.
 */
export function paymentStore(definition: ResourceDefinition): ResourceStore {
  const paid = settledBy(definition);
  const tendered = paidInTenders(definition);
  const type = definition.document!.type;
  const noun = attributeName(paid.owed.singular);
  const store = documentStore(definition, {
    placesFrom: settledPlace,
    async prepare(trx, scope, columns, input) {
      // One at a place the user does not view is answered as one that does not exist.
      const target = await viewedSource(trx, scope, paid.owed, Number(columns[paid.field]));
      if (!target) throw validationError({ [paid.field]: [`The selected ${noun} is invalid.`] });
      const tenders = tendered ? tendersOf(input) : undefined;
      const refusedAs = tendered && input.tenders !== undefined && input.tenders !== null ? 'tenders' : 'amount';
      const amount = tenders ? tendersTotal(tenders) : Number(columns.amount);
      if (amount <= 0) throw validationError({ amount: ['The amount field must be greater than 0.'] });
      if (amount > Number(target.balance)) {
        const balance = formatPesos(centavosToPesos(Number(target.balance)));
        const what = refusedAs === 'tenders' ? `The tenders come to ${formatPesos(centavosToPesos(amount))}, which` : 'The amount';
        throw validationError({ [refusedAs]: [`${what} may not be greater than the ${noun}’s balance of ${balance}.`] });
      }
      const settling: Settling = {
        columns: {
          contact_id: target.contact_id,
          ...settledPlace(target),
          ...(tenders && { amount, payment_method: paymentMethodOf(tenders) }),
        },
        refusedAs,
      };
      return settling;
    },
    async apply(trx, _scope, _document, prepared, columns) {
      // Checked again here, atomically: a payment made meanwhile may have taken the balance.
      if (!(await followBalance(trx, paid.owed.table, Number(columns[paid.field]), Number(columns.amount), paid.settlement))) {
        const refusedAs = (prepared as Settling).refusedAs ?? 'amount';
        throw validationError({
          [refusedAs]: [`The ${refusedAs === 'tenders' ? 'tenders' : 'amount'} may not be greater than the ${noun}’s balance.`],
        });
      }
    },
  });
  if (!tendered) return store;
  const fixed = (label: string) =>
    z.undefined({ error: `The ${label} cannot change once this ${definition.singular.toLowerCase()} is made.` }).optional();
  const kept = keepingTenders(store, type, 'How it was paid, in order: its amount is what they come to');
  return {
    ...kept,
    createFields: paymentCreateFields,
    // Named in an update, what the tenders decided is refused rather than dropped.
    updateFields: { tenders: fixed('tenders'), amount: fixed('amount'), payment_method: fixed('payment method') },
    async validate(db, scope, values, exceptId) {
      const errors = (await store.validate?.(db, scope, values, exceptId)) ?? {};
      const settled = exceptId === undefined ? paymentTenders(values) : undefined;
      return settled?.errors ? { ...errors, ...settled.errors } : errors;
    },
    async insert(trx, scope, columns, input) {
      const id = await store.insert(trx, scope, columns, input);
      const tenders = tendersOf(input);
      await insertTenders(trx, scope, type, id, tenders);
      // What it pays out of credit on account leaves the account (its party's, as the store took it from what it pays), never more than is there.
      const fromCredit = accountCreditOf(tenders);
      if (fromCredit === 0) return id;
      const { contact_id: contactId } = await untyped(trx)
        .selectFrom(definition.table)
        .select('contact_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (!(await moveAccountCredit(trx, Number(contactId), -fromCredit))) {
        const party = (paid.owed.document?.contact ?? 'Contact').toLowerCase();
        throw validationError({
          tenders: [`Only ${await accountCreditText(trx, Number(contactId))} of credit is on the ${party}’s account.`],
        });
      }
      return id;
    },
  };
}

/** A payment as the document it settles carries it (`decoratePayments`). */
const settlingPaymentAnswer = z.looseObject({
  id: z.number().int(),
  number: z.string(),
  date: z.string().describe('YYYY-MM-DD'),
  amount: z.number().describe('In pesos'),
  tenders: z.array(tenderAnswer),
});

/** What `decoratePayments` adds to each paid document, as answers describe it. */
export const paymentsAnswer: z.ZodRawShape = {
  payments: z
    .array(settlingPaymentAnswer)
    .optional()
    .describe(
      'The payments settling it, neither voided nor in the trash, by date, with their tenders; absent for a user who may not view payments',
    ),
};

/** A payment of a bill or an invoice as the paid document's read carries it. */
interface PaymentOfDocument {
  id: number;
  number: string;
  date: string;
  /** Pesos: what its tenders come to. */
  amount: number;
  tenders: TenderRead[];
}

/**
 * Each bill or invoice read gets `payments`: the payments that settle it — neither voided nor in
 * the trash, by date — each with its tenders, so that its printed copy says how it was paid, on
 * this device without a network as well. Their number, date and tenders never change once made,
 * and making or voiding one changes the paid document's version, so a copy of the document kept on
 * a device holds its payments as they are. A user who may not view such payments gets none.
 */
export async function decoratePayments(db: Db, scope: Scope, payments: ResourceDefinition, records: ApiRecord[]): Promise<void> {
  if (!holdsAny(scope.permissions, [permissionName('view', payments.permission)])) return;
  const field = payments.document!.source!.field;
  const rows = (await untyped(db)
    .selectFrom(payments.table)
    .select(['id', 'number', 'date', 'amount', field])
    .where('business_id', '=', scope.businessId)
    .where(
      field,
      'in',
      records.map((record) => record.id),
    )
    .where('status', '<>', 'void')
    .where('deleted_at', 'is', null)
    .orderBy('date')
    .orderBy('id')
    .execute()) as Record<string, unknown>[];
  const tenders = await tendersOfPayments(
    db,
    payments.document!.type,
    rows.map((row) => Number(row.id)),
  );
  const byDocument = new Map<number, PaymentOfDocument[]>();
  for (const row of rows) {
    const list = byDocument.get(Number(row[field])) ?? [];
    list.push({
      id: Number(row.id),
      number: String(row.number),
      date: String(row.date),
      amount: centavosToPesos(Number(row.amount)),
      tenders: tenders.get(Number(row.id)) ?? [],
    });
    byDocument.set(Number(row[field]), list);
  }
  for (const record of records) record.payments = byDocument.get(record.id) ?? [];
}

/** Voiding a bill or an invoice: only once its payments are voided; nothing is owed on it after. */
export function balanceVoid(owed: ResourceDefinition, undo?: Reversal): Reversal {
  const noun = nounOf(owed);
  return async (trx, scope, row) => {
    if (Number(row.amount_paid) > 0 || Number(row.amount_adjusted) > 0) {
      throw conflict(`${noun} ${String(row.number)} has payments or memoranda: void them first.`);
    }
    await undo?.(trx, scope, row);
    await untyped(trx).updateTable(owed.table).set({ balance: 0 }).where('id', '=', Number(row.id)).execute();
  };
}

/** Voiding a payment (or a memorandum): what it settled is owed again, and what it paid out of credit on account is back there. */
export function paymentVoid(definition: ResourceDefinition): Reversal {
  const { owed, field, settlement } = settledBy(definition);
  const noun = nounOf(definition);
  const tendered = paidInTenders(definition);
  return async (trx, _scope, row) => {
    if (!(await followBalance(trx, owed.table, Number(row[field]), -Number(row.amount), settlement))) {
      throw conflict(`${noun} ${String(row.number)} cannot be voided: what it settled is no longer counted on its document.`);
    }
    if (tendered)
      await moveAccountCredit(trx, Number(row.contact_id), await accountCreditTendered(trx, definition.document!.type, Number(row.id)));
  };
}
