import { purchaseItemPrices } from '../../domain/resources/purchase-item-prices';
import { contactKindErrors } from './contact-kinds';
import { businessTableStore, type ResourceStore } from './store';

/** Purchase item prices: a price listed for one supplier names a supplier, never a customer. */
export const purchaseItemPricesStore: ResourceStore = {
  ...businessTableStore(purchaseItemPrices),
  validate: (db, scope, values) => contactKindErrors(db, scope, purchaseItemPrices, values),
};
