import { author, date, integer, select, text, textarea } from '../fields';
import { defineResource, type ResourceDefinition } from '../resource';
import { billPayments } from './bill-payments';
import { bills } from './bills';
import { creditMemoranda } from './credit-memoranda';
import { debitMemoranda } from './debit-memoranda';
import { invoicePayments } from './invoice-payments';
import { invoices } from './invoices';
import { purchaseOrders } from './purchase-orders';
import { quotations } from './quotations';
import { receiveOrders } from './receive-orders';
import { stockAdjustments } from './stock-adjustments';
import { stockCounts } from './stock-counts';
import { stockReceives } from './stock-receives';
import { stockRequests } from './stock-requests';
import { stockReturns } from './stock-returns';
import { stockTransfers } from './stock-transfers';

/** Every kind of document a memo may be written about. */
const DOCUMENTS: readonly ResourceDefinition[] = [
  purchaseOrders,
  receiveOrders,
  bills,
  billPayments,
  quotations,
  invoices,
  invoicePayments,
  creditMemoranda,
  debitMemoranda,
  stockRequests,
  stockTransfers,
  stockReceives,
  stockReturns,
  stockAdjustments,
  stockCounts,
];

const typeOf = (definition: ResourceDefinition) => definition.document?.type as string;

/** `document_type`'s choices: a document's type, labelled with its kind's name. */
export const DOCUMENT_TYPES = DOCUMENTS.map((definition) => ({ value: typeOf(definition), label: definition.singular }));

/** The resource whose records each document type names: `purchase-order` → `purchase-orders`. */
export const DOCUMENT_RESOURCES: Readonly<Record<string, string>> = Object.fromEntries(
  DOCUMENTS.map((definition) => [typeOf(definition), definition.name]),
);

/**
 * A memo written about one document of the business — "the supplier promised to replace the 3
 * damaged cartons", "the customer disputes line 2" — with its date, subject and body, and who
 * wrote it. It moves no stock nor money; files (a photo of the damage) can be attached. It follows
 * its document's permission: read by who may view that kind of document, changed (files too) only
 * by who may also update it (`server/documents/memo-store.ts`).
 */
export const documentMemoranda = defineResource({
  name: 'document-memoranda',
  singular: 'Document Memo',
  plural: 'Document Memos',
  display: 'subject',
  attachments: true,
  fields: {
    document_type: select('Document type', DOCUMENT_TYPES, { required: true }),
    document_id: integer('Document', { required: true, referencesBy: { field: 'document_type', resources: DOCUMENT_RESOURCES } }),
    date: date('Date', { required: true }),
    subject: text('Subject', { required: true, max: 200, fullText: true }),
    body: textarea('Body', { required: true, fullText: true }),
    author_id: author('Written by'),
  },
  search: ['id', 'subject', 'body', 'document_type', 'document_id', 'date', 'author_id'],
  sort: ['date', 'subject'],
  columns: ['date', 'subject', 'document_type', 'document_id', 'author_id'],
});
