import type { ResourceDefinition } from '../resource';
import { billPayments } from './bill-payments';
import { bills } from './bills';
import { branches } from './branches';
import { brands } from './brands';
import { businesses } from './businesses';
import { contactTypes } from './contact-types';
import { contacts } from './contacts';
import { conversions } from './conversions';
import { creditMemoranda } from './credit-memoranda';
import { debitMemoranda } from './debit-memoranda';
import { documentMemoranda, writtenAbout } from './document-memoranda';
import { itemClassifications } from './item-classifications';
import { itemTypes } from './item-types';
import { invoicePayments } from './invoice-payments';
import { invoices } from './invoices';
import { items } from './items';
import { measuringMasses } from './measuring-masses';
import { permissions } from './permissions';
import { purchaseItemPrices } from './purchase-item-prices';
import { purchaseOrders } from './purchase-orders';
import { quotations } from './quotations';
import { receiveOrders } from './receive-orders';
import { roles } from './roles';
import { saleItemPrices } from './sale-item-prices';
import { purchaseReturns } from './purchase-returns';
import { salesReturns } from './sales-returns';
import { servicePrices } from './service-prices';
import { services } from './services';
import { stockAdjustments } from './stock-adjustments';
import { stockCounts } from './stock-counts';
import { stockReceives } from './stock-receives';
import { stockRequests } from './stock-requests';
import { stockReturns } from './stock-returns';
import { stockTransfers } from './stock-transfers';
import { stocks } from './stocks';
import { unitOfMeasurements } from './unit-of-measurements';
import { users } from './users';
import { warehouses } from './warehouses';

/** Every resource the generic engine mounts and the generic screens render, by name. */
export const registry: readonly ResourceDefinition[] = [
  brands,
  measuringMasses,
  unitOfMeasurements,
  conversions,
  itemClassifications,
  itemTypes,
  items,
  stocks,
  purchaseItemPrices,
  purchaseOrders,
  receiveOrders,
  bills,
  billPayments,
  purchaseReturns,
  saleItemPrices,
  services,
  servicePrices,
  quotations,
  invoices,
  invoicePayments,
  salesReturns,
  creditMemoranda,
  debitMemoranda,
  documentMemoranda,
  stockRequests,
  stockTransfers,
  stockReceives,
  stockReturns,
  stockAdjustments,
  stockCounts,
  warehouses,
  branches,
  contactTypes,
  contacts,
  businesses,
  users,
  roles,
  permissions,
];

writtenAbout(registry);

const byName = new Map(registry.map((definition) => [definition.name, definition]));

export function findResource(name: string): ResourceDefinition | undefined {
  return byName.get(name);
}

export function getResource(name: string): ResourceDefinition {
  const definition = byName.get(name);
  if (!definition) throw new Error(`Unknown resource "${name}"`);
  return definition;
}
