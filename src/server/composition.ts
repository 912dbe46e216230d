import type { ResourceDefinition } from '../domain/resource';
import { billPayments } from '../domain/resources/bill-payments';
import { bills } from '../domain/resources/bills';
import { businesses } from '../domain/resources/businesses';
import { conversions } from '../domain/resources/conversions';
import { creditMemoranda } from '../domain/resources/credit-memoranda';
import { debitMemoranda } from '../domain/resources/debit-memoranda';
import { documentMemoranda } from '../domain/resources/document-memoranda';
import { invoicePayments } from '../domain/resources/invoice-payments';
import { invoices } from '../domain/resources/invoices';
import { items } from '../domain/resources/items';
import { permissions } from '../domain/resources/permissions';
import { purchaseItemPrices } from '../domain/resources/purchase-item-prices';
import { purchaseOrders } from '../domain/resources/purchase-orders';
import { quotations } from '../domain/resources/quotations';
import { receiveOrders } from '../domain/resources/receive-orders';
import { registry } from '../domain/resources/registry';
import { roles } from '../domain/resources/roles';
import { stockAdjustments } from '../domain/resources/stock-adjustments';
import { stockCounts } from '../domain/resources/stock-counts';
import { stockReceives } from '../domain/resources/stock-receives';
import { stockRequests } from '../domain/resources/stock-requests';
import { stockReturns } from '../domain/resources/stock-returns';
import { stockTransfers } from '../domain/resources/stock-transfers';
import { stocks } from '../domain/resources/stocks';
import { users } from '../domain/resources/users';
import type { Scope, Trx } from './db/scope';
import { adjustmentReversals, stockAdjustmentsStore } from './documents/adjustments';
import { countSteps, stockCountsStore } from './documents/counts';
import { registerReversals, registerSteps } from './documents/document-store';
import { logisticsReversals, stockReceivesStore, stockRequestsStore, stockReturnsStore, stockTransfersStore } from './documents/logistics';
import { documentMemorandaStore } from './documents/memo-store';
import { creditMemorandaStore, debitMemorandaStore, memorandaReversals } from './documents/memoranda';
import { billPaymentsStore, billsStore, purchaseOrdersStore, purchasingReversals, receiveOrdersStore } from './documents/purchasing';
import { invoicePaymentsStore, invoicesStore, quotationsStore, salesReversals } from './documents/sales';
import { stocksStore } from './documents/stocks-store';
import { removeFilesOf } from './files/file-store';
import { conversionsStore } from './resources/conversions-store';
import { itemsStore } from './resources/items-store';
import { permissionsStore } from './resources/permissions-store';
import { purchaseItemPricesStore } from './resources/purchase-item-prices-store';
import { onForceDelete } from './resources/record-service';
import type { ResourceStore } from './resources/store';
import { registerPlainStores, registerStore } from './resources/stores';
import { businessesStore } from './services/businesses-store';
import { rolesStore } from './services/roles-store';
import { usersStore } from './services/users-store';

/**
 * Puts the record engine together. The engine (`resources/`) knows nothing of documents, files or
 * users; here each resource with rules of its own gets its store, every other business table the
 * generic one, each document kind what its transitions reverse, and a permanent delete its work
 * beyond the record's rows. `buildApp` composes it
 * before registering any route; whatever uses the engine without building the app (the seeder,
 * the audit's callers) composes it too. Composing again changes nothing.
 */

const SPECIAL_STORES: readonly [ResourceDefinition, ResourceStore][] = [
  [businesses, businessesStore],
  [users, usersStore],
  [permissions, permissionsStore],
  [roles, rolesStore],
  [items, itemsStore],
  [conversions, conversionsStore],
  [purchaseItemPrices, purchaseItemPricesStore],
  [stocks, stocksStore],
  [purchaseOrders, purchaseOrdersStore],
  [receiveOrders, receiveOrdersStore],
  [bills, billsStore],
  [billPayments, billPaymentsStore],
  [quotations, quotationsStore],
  [invoices, invoicesStore],
  [invoicePayments, invoicePaymentsStore],
  [creditMemoranda, creditMemorandaStore],
  [debitMemoranda, debitMemorandaStore],
  [stockRequests, stockRequestsStore],
  [stockTransfers, stockTransfersStore],
  [stockReceives, stockReceivesStore],
  [stockReturns, stockReturnsStore],
  [stockAdjustments, stockAdjustmentsStore],
  [stockCounts, stockCountsStore],
  [documentMemoranda, documentMemorandaStore],
];

/** A record's attached files go with it when it is deleted permanently. */
async function removeAttachedFiles(trx: Trx, scope: Scope, definition: ResourceDefinition, id: number): Promise<void> {
  if (definition.attachments) await removeFilesOf(trx, scope, { resource: definition.name, recordId: id });
}

/**
 * Registers the stores of `definitions` (the registry) and the engine's hooks. Throws when a
 * document, or a resource that is not a business table, has no store of its own.
 */
export function composeEngine(definitions: readonly ResourceDefinition[] = registry): void {
  for (const [definition, store] of SPECIAL_STORES) registerStore(definition, store);
  registerPlainStores(definitions);
  for (const kinds of [purchasingReversals, salesReversals, memorandaReversals, logisticsReversals, adjustmentReversals])
    registerReversals(kinds);
  registerSteps(countSteps);
  onForceDelete(removeAttachedFiles);
}
