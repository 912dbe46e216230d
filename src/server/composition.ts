import type { ResourceDefinition } from '../domain/resource';
import { businesses } from '../domain/resources/businesses';
import { conversions } from '../domain/resources/conversions';
import { documentMemoranda } from '../domain/resources/document-memoranda';
import { items } from '../domain/resources/items';
import { permissions } from '../domain/resources/permissions';
import { purchaseItemPrices } from '../domain/resources/purchase-item-prices';
import { registry } from '../domain/resources/registry';
import { roles } from '../domain/resources/roles';
import { stocks } from '../domain/resources/stocks';
import { users } from '../domain/resources/users';
import type { Scope, Trx } from './db/scope';
import { adjustmentsPart } from './documents/adjustments';
import { countsPart } from './documents/counts';
import { declaredDocumentStore, registerReversals, registerSteps } from './documents/document-store';
import { logisticsParts } from './documents/logistics';
import { documentMemorandaStore } from './documents/memo-store';
import { paymentStore } from './documents/payments';
import { purchasingParts } from './documents/purchasing';
import { salesParts } from './documents/sales';
import { purchaseReturnsPart, salesReturnsPart } from './documents/returns';
import { stocksStore } from './documents/stocks-store';
import { voidOf } from './documents/undo-effects';
import { removeFilesOf } from './files/file-store';
import type { ServerPart } from './documents/server-part';
import { conversionsStore } from './resources/conversions-store';
import { itemsStore } from './resources/items-store';
import { permissionsStore } from './resources/permissions-store';
import { purchaseItemPricesStore } from './resources/purchase-item-prices-store';
import { onForceDelete } from './resources/record-service';
import { registerPlainStores, registerStore } from './resources/stores';
import { businessesStore } from './services/businesses-store';
import { rolesStore } from './services/roles-store';
import { usersStore } from './services/users-store';

/**
 * Puts the record engine together. The engine (`resources/`) knows nothing of documents, files or
 * users; here the server parts of the resources with rules of their own (`documents/server-part.ts`) are
 * registered — their stores and their transitions' work — and every other resource is served from
 * its declaration: a payment or memorandum by the payment store, a business table by the generic
 * one, and every document's void undoes what its kind declares it did. `buildApp` composes it
 * before registering any route; whatever uses the engine without building the app (the seeder,
 * the audit's callers) composes it too. Composing again changes nothing.
 */

const PARTS: readonly ServerPart[] = [
  { definition: businesses, store: businessesStore },
  { definition: users, store: usersStore },
  { definition: permissions, store: permissionsStore },
  { definition: roles, store: rolesStore },
  { definition: items, store: itemsStore },
  { definition: conversions, store: conversionsStore },
  { definition: purchaseItemPrices, store: purchaseItemPricesStore },
  { definition: stocks, store: stocksStore },
  { definition: documentMemoranda, store: documentMemorandaStore },
  ...purchasingParts,
  ...salesParts,
  salesReturnsPart,
  purchaseReturnsPart,
  ...logisticsParts,
  adjustmentsPart,
  countsPart,
];

const derivedParts = new WeakMap<ResourceDefinition, ServerPart>();

/**
 * The part of a document kind with no rules beyond its declaration: a payment's or memorandum's
 * (`effects.settles`) the payment store; any other's `declaredDocumentStore`. Made once per kind,
 * so that composing again changes nothing.
 */
function derivedPart(definition: ResourceDefinition): ServerPart | undefined {
  const document = definition.document;
  if (!document) return undefined;
  const known = derivedParts.get(definition);
  if (known) return known;
  const store = document.effects?.settles ? paymentStore(definition) : declaredDocumentStore(definition);
  const part = { definition, store };
  derivedParts.set(definition, part);
  return part;
}

/** A record's attached files go with it when it is deleted permanently. */
async function removeAttachedFiles(trx: Trx, scope: Scope, definition: ResourceDefinition, id: number): Promise<void> {
  if (definition.attachments) await removeFilesOf(trx, scope, { resource: definition.name, recordId: id });
}

/**
 * Registers the stores of `definitions` (the registry) and the engine's hooks. Throws when a
 * document, or a resource that is not a business table, has no store of its own.
 */
export function composeEngine(definitions: readonly ResourceDefinition[] = registry): void {
  const parts = new Map(PARTS.map((part) => [part.definition.name, part]));
  for (const definition of definitions) {
    const part = parts.get(definition.name) ?? derivedPart(definition);
    if (part) registerStore(definition, part.store);
    if (!definition.document) continue;
    const reversals = { ...part?.reversals };
    for (const transition of definition.document.lifecycle.transitions) {
      if (transition.to !== 'void') continue;
      const reversal = voidOf(definition, reversals[transition.name]);
      if (reversal) reversals[transition.name] = reversal;
      else delete reversals[transition.name];
    }
    registerReversals(definition, reversals);
    if (part?.steps) registerSteps(definition, part.steps);
  }
  registerPlainStores(definitions);
  onForceDelete(removeAttachedFiles);
}
