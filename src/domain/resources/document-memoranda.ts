import { author, date, integer, select, text, textarea, type SelectOption } from '../fields';
import { defineResource, type ResourceDefinition } from '../resource';

const documentTypes: SelectOption[] = [];
const documentResources: Record<string, string> = {};

/** `document_type`'s choices: a document's type, labelled with its kind's name. */
export const DOCUMENT_TYPES: readonly SelectOption[] = documentTypes;

/** The resource whose records each document type names: `purchase-order` → `purchase-orders`. */
export const DOCUMENT_RESOURCES: Readonly<Record<string, string>> = documentResources;

/**
 * Names every kind of document a memo may be written about: each resource of the registry with a
 * `document`. The registry holds this resource too, so it hands them here as it is built; until
 * then a memo can be about nothing.
 */
export function writtenAbout(resources: readonly ResourceDefinition[]): void {
  for (const { document, name, singular } of resources) {
    if (!document) continue;
    documentTypes.push({ value: document.type, label: singular });
    documentResources[document.type] = name;
  }
}

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
