import { creditMemoranda } from '../../domain/resources/credit-memoranda';
import { debitMemoranda } from '../../domain/resources/debit-memoranda';
import type { ResourceStore } from '../resources/store';
import type { Reversals } from './document-store';
import { paymentStore, paymentVoid } from './payments';

/** Credit and debit memoranda settle part of an invoice or a bill like a payment, with a reason instead of money paid. */
export const creditMemorandaStore: ResourceStore = paymentStore(creditMemoranda);

export const debitMemorandaStore: ResourceStore = paymentStore(debitMemoranda);

export const memorandaReversals: Reversals = {
  'credit-memoranda': { void: paymentVoid(creditMemoranda) },
  'debit-memoranda': { void: paymentVoid(debitMemoranda) },
};
