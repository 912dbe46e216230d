import { sql } from 'kysely';
import { z } from 'zod';
import { centavosToPesos } from '../../domain/money';
import type { ResourceDefinition } from '../../domain/resource';
import { holdsAny, permissionName } from '../../domain/permissions';
import { getResource, registry } from '../../domain/resources/registry';
import { methodLabel, TENDER_METHODS, type Tender, type TenderRead } from '../../domain/tenders';
import { BYTE_ORDER_MARK, csvRow, inert } from '../resources/csv-export';
import { placeAccessOf, placeCondition } from '../resources/places';
import type { ApiRecord } from '../resources/codec';
import type { ResourceStore } from '../resources/store';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';

/**
 * A payment's tenders (`domain/tenders.ts`) where they are kept, `payment_tenders`: written with
 * the payment, in its transaction, and never changed after — a void keeps them, as history; read
 * back with every read of the payment; and taken away for reconciliation as CSV, one row per
 * tender or a total per day and method.
 */

/** A tender of a payment (`domain/tenders.ts`), as answers carry it: what its method needs is given, the rest null. */
export const tenderAnswer = z.looseObject({
  method: z.string().describe(`One of ${TENDER_METHODS.map((method) => method.value).join(', ')}`),
  amount: z.number().describe('In pesos'),
  reference: z.string().nullable().describe("GCash's, Maya's, other QR Ph's or a bank transfer's reference number; a card's approval code"),
  bank: z.string().nullable().describe("A check's bank"),
  check_number: z.string().nullable(),
  check_date: z.string().nullable().describe('YYYY-MM-DD'),
  received: z.number().nullable().describe('Of cash: what the customer handed over, in pesos (the change is what is over the amount)'),
});

/** Keeps a new payment's tenders, in their order. */
export async function insertTenders(trx: Trx, scope: Scope, paymentType: string, paymentId: number, tenders: readonly Tender[]) {
  await trx
    .insertInto('payment_tenders')
    .values(
      tenders.map((tender, position) => ({
        business_id: scope.businessId,
        payment_type: paymentType,
        payment_id: paymentId,
        position,
        method: tender.method,
        amount: tender.amount,
        reference: tender.reference,
        bank: tender.bank,
        check_number: tender.check_number,
        check_date: tender.check_date,
        received: tender.received,
      })),
    )
    .execute();
}

/** A payment's tenders go with it when it is deleted permanently. */
export async function removeTenders(trx: Trx, scope: Scope, paymentType: string, paymentId: number) {
  await trx
    .deleteFrom('payment_tenders')
    .where('payment_type', '=', paymentType)
    .where('payment_id', '=', paymentId)
    .where('business_id', '=', scope.businessId)
    .execute();
}

/** The tenders of these payments of a kind, in order, amounts (and cash received) in pesos, by payment: one query for the lot. */
export async function tendersOfPayments(db: Db, paymentType: string, ids: readonly number[]): Promise<Map<number, TenderRead[]>> {
  const byPayment = new Map<number, TenderRead[]>();
  if (ids.length === 0) return byPayment;
  const rows = await db
    .selectFrom('payment_tenders')
    .select(['payment_id', 'method', 'amount', 'reference', 'bank', 'check_number', 'check_date', 'received'])
    .where('payment_type', '=', paymentType)
    .where('payment_id', 'in', ids)
    .orderBy('payment_id')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const list = byPayment.get(row.payment_id) ?? [];
    list.push({
      method: row.method as TenderRead['method'],
      amount: centavosToPesos(Number(row.amount)),
      reference: row.reference,
      bank: row.bank,
      check_number: row.check_number,
      check_date: row.check_date,
      received: row.received === null ? null : centavosToPesos(Number(row.received)),
    });
    byPayment.set(row.payment_id, list);
  }
  return byPayment;
}

/** Each payment read gets its `tenders`, in order, amounts in pesos. */
export async function decorateTenders(db: Db, paymentType: string, records: ApiRecord[]): Promise<void> {
  const byPayment = await tendersOfPayments(
    db,
    paymentType,
    records.map((record) => record.id),
  );
  for (const record of records) record.tenders = byPayment.get(record.id) ?? [];
}

/**
 * `store` whose documents keep tenders of `paymentType` (a payment's, a return's refund): they go
 * with the document when it is taken away for good, and come with every read of it, described as
 * `described` says. Writing them is the store's own (a payment's insert, a return's apply).
 */
export function keepingTenders(store: ResourceStore, paymentType: string, described: string): ResourceStore {
  return {
    ...store,
    async remove(trx, scope, id) {
      await removeTenders(trx, scope, paymentType, id);
      await store.remove(trx, scope, id);
    },
    async decorate(db, scope, records) {
      await store.decorate?.(db, scope, records);
      await decorateTenders(db, paymentType, records);
    },
    decorated: { ...store.decorated, tenders: z.array(tenderAnswer).describe(described) },
  };
}

/** The days a reconciliation covers, both included. */
export interface Period {
  from: string;
  to: string;
}

/** What a kind of payment pays and who: the invoice and its customer, the bill and its supplier. */
function paidBy(definition: ResourceDefinition) {
  const source = definition.document!.source!;
  const paid = getResource(source.resource);
  return { field: source.field, table: paid.table, noun: paid.singular, party: definition.document!.contact ?? 'Contact' };
}

/**
 * The kinds whose tenders pay back what a kind of payment took in, which the scope may view: a
 * sales return's refund of what was paid on its invoice. Their tenders are money out.
 */
function refundsOf(scope: Scope, definition: ResourceDefinition): ResourceDefinition[] {
  const paid = definition.document!.source!.resource;
  return registry.filter(
    (kind) =>
      kind.document?.lines === 'returns' &&
      kind.document.source?.resource === paid &&
      holdsAny(scope.permissions, [permissionName('view', kind.permission)]),
  );
}

/**
 * The business's unvoided, untrashed payments of a kind dated in the period, each joined to its
 * tenders, and the refunds of the documents they pay (`refundsOf`) with theirs, money out below
 * zero: of the places the scope views, as their lists show them. One row per tender, with the
 * number of what it paid or refunded and its party; `kind` orders a day's payments before its refunds.
 */
function tendered(db: Db, scope: Scope, definition: ResourceDefinition, period: Period) {
  const paid = paidBy(definition);
  const kinds = [
    { kind: definition, field: paid.field, sign: 1 },
    ...refundsOf(scope, definition).map((kind) => ({ kind, field: kind.document!.source!.field, sign: -1 })),
  ];
  const rows = kinds.map(({ kind, field, sign }, order) => {
    const viewed = kind.places && placeCondition(kind.places, (column) => `payment.${column}`, placeAccessOf(scope), 'view');
    const query = untyped(db)
      .selectFrom(`${kind.table} as payment`)
      .innerJoin('payment_tenders as tender', (join) =>
        join.onRef('tender.payment_id', '=', 'payment.id').on('tender.payment_type', '=', kind.document!.type),
      )
      .leftJoin(`${paid.table} as paid`, 'paid.id', `payment.${field}`)
      .leftJoin('contacts as party', 'party.id', 'payment.contact_id')
      .select([
        sql<number>`${sql.lit(order)}`.as('kind'),
        'payment.id as payment_id',
        'payment.date',
        'payment.number',
        'paid.number as paid_number',
        'party.name as party',
        'tender.position',
        'tender.method',
        'tender.reference',
        'tender.bank',
        'tender.check_number',
        'tender.check_date',
        sql<number>`${sql.lit(sign)} * tender.amount`.as('amount'),
        'tender.received',
      ])
      .where('payment.business_id', '=', scope.businessId)
      .where('payment.status', '<>', 'void')
      .where('payment.deleted_at', 'is', null)
      .where('payment.date', '>=', period.from)
      .where('payment.date', '<=', period.to)
      .where('tender.business_id', '=', scope.businessId);
    return viewed ? query.where(viewed) : query;
  });
  const all = rows.slice(1).reduce((union, each) => union.unionAll(each), rows[0]);
  return untyped(db).selectFrom(all.as('tendered'));
}

/** The columns of the tenders' CSV, for the README of whoever reads it. */
export function tenderColumns(definition: ResourceDefinition): string[] {
  const paid = paidBy(definition);
  return [
    'Date',
    'Payment number',
    `${paid.noun} number`,
    paid.party,
    'Method',
    'Reference',
    'Bank',
    'Check number',
    'Check date',
    'Amount',
    'Cash received',
  ];
}

interface TenderRow {
  kind: number;
  payment_id: number;
  date: string;
  number: string;
  paid_number: string | null;
  party: string | null;
  position: number;
  method: string;
  reference: string | null;
  bank: string | null;
  check_number: string | null;
  check_date: string | null;
  amount: number;
  received: number | null;
}

/**
 * One row per tender of the period's unvoided payments (RFC 4180, UTF-8 with a byte-order mark,
 * as every export): by date, payment and the tender's order, a batch at a time, each batch
 * continuing after the last (date, payment, position) of the one before.
 */
export async function* tenderLines(db: Db, scope: Scope, definition: ResourceDefinition, period: Period, batchSize = 500) {
  yield BYTE_ORDER_MARK + csvRow(tenderColumns(definition));
  const text = (value: string | null) => (value === null ? '' : inert(value));
  let last: { date: string; kind: number; id: number; position: number } | undefined;
  for (;;) {
    let batch = tendered(db, scope, definition, period).selectAll();
    if (last) {
      batch = batch.where(sql<boolean>`(date, kind, payment_id, position) > (${last.date}, ${last.kind}, ${last.id}, ${last.position})`);
    }
    const rows = (await batch
      .orderBy('date')
      .orderBy('kind')
      .orderBy('payment_id')
      .orderBy('position')
      .limit(batchSize)
      .execute()) as TenderRow[];
    if (rows.length > 0) {
      yield rows
        .map((row) =>
          csvRow([
            row.date,
            text(row.number),
            text(row.paid_number),
            text(row.party),
            methodLabel(row.method),
            text(row.reference),
            text(row.bank),
            text(row.check_number),
            row.check_date ?? '',
            centavosToPesos(Number(row.amount)).toFixed(2),
            row.received === null ? '' : centavosToPesos(Number(row.received)).toFixed(2),
          ]),
        )
        .join('');
    }
    if (rows.length < batchSize) return;
    const final = rows[rows.length - 1];
    last = { date: final.date, kind: Number(final.kind), id: Number(final.payment_id), position: Number(final.position) };
  }
}

/** What the summary CSV holds. */
export const SUMMARY_COLUMNS = ['Date', 'Method', 'Count', 'Total'];

/**
 * The period's unvoided payments' tenders totalled by day and method: one row for each day and
 * method that has any, by day and then in the order the form offers the methods.
 */
export async function* tenderSummaryLines(db: Db, scope: Scope, definition: ResourceDefinition, period: Period) {
  const rows = (await tendered(db, scope, definition, period)
    .select(['date', 'method', sql<number>`count(*)`.as('count'), sql<number>`sum(amount)`.as('total')])
    .groupBy(['date', 'method'])
    .execute()) as { date: string; method: string; count: number; total: number }[];
  const order = (method: string) => {
    const index = TENDER_METHODS.findIndex((known) => known.value === method);
    return index === -1 ? TENDER_METHODS.length : index;
  };
  rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : order(a.method) - order(b.method)));
  yield BYTE_ORDER_MARK + csvRow(SUMMARY_COLUMNS);
  yield rows
    .map((row) => csvRow([row.date, methodLabel(row.method), String(Number(row.count)), centavosToPesos(Number(row.total)).toFixed(2)]))
    .join('');
}
