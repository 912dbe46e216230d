import { creditMemoranda } from '../../domain/resources/credit-memoranda';
import { debitMemoranda } from '../../domain/resources/debit-memoranda';
import type { ResourceStore } from '../resources/store';
import type { Reversals } from './document-store';
import { paymentStore, paymentVoid } from './payments';

/** Credit and debit memoranda settle part of an invoice or a bill like a payment, with a reason instead of money paid. */
export const creditMemorandaStore: ResourceStore = paymentStore(creditMemoranda, {
  table: 'invoices',
  field: 'invoice_id',
  noun: 'Invoice',
  settlement: 'amount_adjusted',
});

export const debitMemorandaStore: ResourceStore = paymentStore(debitMemoranda, {
  table: 'bills',
  field: 'bill_id',
  noun: 'Bill',
  settlement: 'amount_adjusted',
});

export const memorandaReversals: Reversals = {
  'credit-memoranda': { void: paymentVoid('Credit memorandum', 'invoices', 'invoice_id', 'amount_adjusted') },
  'debit-memoranda': { void: paymentVoid('Debit memorandum', 'bills', 'bill_id', 'amount_adjusted') },
};
