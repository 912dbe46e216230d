import { sql } from 'kysely';
import { centavosToPesos, formatPesos } from '../../domain/money';
import type { ResourceDefinition } from '../../domain/resource';
import { nowIso } from '../db/dialect';
import { conflict, validationError } from '../errors';
import type { ResourceStore } from '../resources/store';
import type { Trx } from '../db/scope';
import { documentStore, liveSource, type Reversal } from './document-store';

/**
 * What bills and invoices share: a balance that payments bring down (unpaid → partially_paid →
 * paid), payments that may not exceed it, and voids that undo them.
 */

/** What brings a balance down: payments (`amount_paid`) or memoranda (`amount_adjusted`). */
export type Settlement = 'amount_paid' | 'amount_adjusted';

/**
 * Moves `delta` centavos of a bill's or an invoice's balance into what was paid or adjusted, in
 * one conditional UPDATE: two payments racing for the last pesos cannot both pass, so the balance
 * never goes below zero. Returns false (nothing changed) when it would. Then the status follows:
 * unpaid → partially_paid → paid (settled by payments and memoranda together).
 */
/** What payments and memoranda settle. */
export type PaidTable = 'bills' | 'invoices';

export async function followBalance(
  trx: Trx,
  table: PaidTable,
  id: number,
  delta: number,
  settlement: Settlement = 'amount_paid',
): Promise<boolean> {
  const moved = await trx
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
  await trx
    .updateTable(table)
    .set({
      status: sql`case when amount_paid + amount_adjusted >= total then 'paid' when amount_paid + amount_adjusted > 0 then 'partially_paid' else 'unpaid' end`,
    })
    .where('id', '=', id)
    .execute();
  return true;
}

interface Paid {
  /** The table of what is paid. */
  table: PaidTable;
  /** The payment's field naming it: `bill_id`, `invoice_id`. */
  field: string;
  /** How a message names it: "Bill", "Invoice". */
  noun: string;
  /** A payment settles by what it paid; a memorandum by what it adjusts. */
  settlement?: Settlement;
}

/**
 * A payment or a memorandum: of a live, unvoided bill or invoice, at most its balance; its party
 * and location are the settled document's.
 */
export function paymentStore(definition: ResourceDefinition, paid: Paid): ResourceStore {
  return documentStore(definition, {
    async prepare(trx, scope, columns) {
      const target = await liveSource(trx, scope, paid.table, Number(columns[paid.field]));
      if (!target) throw validationError({ [paid.field]: [`The selected ${paid.noun.toLowerCase()} is invalid.`] });
      const amount = Number(columns.amount);
      if (amount <= 0) throw validationError({ amount: ['The amount field must be greater than 0.'] });
      if (amount > Number(target.balance)) {
        const balance = formatPesos(centavosToPesos(Number(target.balance)));
        throw validationError({ amount: [`The amount may not be greater than the ${paid.noun.toLowerCase()}’s balance of ${balance}.`] });
      }
      return {
        columns: { status: 'posted', contact_id: target.contact_id, branch_id: target.branch_id, warehouse_id: target.warehouse_id },
      };
    },
    async apply(trx, _scope, _document, _prepared, columns) {
      // Checked again here, atomically: a payment made meanwhile may have taken the balance.
      if (!(await followBalance(trx, paid.table, Number(columns[paid.field]), Number(columns.amount), paid.settlement))) {
        throw validationError({ amount: [`The amount may not be greater than the ${paid.noun.toLowerCase()}’s balance.`] });
      }
    },
  });
}

/** Voiding a bill or an invoice: only once its payments are voided; nothing is owed on it after. */
export function balanceVoid(noun: string, table: PaidTable, undo?: Reversal): Reversal {
  return async (trx, scope, row) => {
    if (Number(row.amount_paid) > 0 || Number(row.amount_adjusted) > 0) {
      throw conflict(`${noun} ${String(row.number)} has payments or memoranda: void them first.`);
    }
    await undo?.(trx, scope, row);
    await trx.updateTable(table).set({ balance: 0 }).where('id', '=', Number(row.id)).execute();
  };
}

/** Voiding a payment (or a memorandum): what it settled is owed again. */
export function paymentVoid(noun: string, table: PaidTable, field: string, settlement: Settlement = 'amount_paid'): Reversal {
  return async (trx, _scope, row) => {
    if (!(await followBalance(trx, table, Number(row[field]), -Number(row.amount), settlement))) {
      throw conflict(`${noun} ${String(row.number)} cannot be voided: what it settled is no longer counted on its document.`);
    }
  };
}
