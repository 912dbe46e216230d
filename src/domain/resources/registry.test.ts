import { describe, expect, it } from 'vitest';
import { DOCUMENT_RESOURCES, DOCUMENT_TYPES, documentMemoranda } from './document-memoranda';
import { registry } from './registry';

describe('what the registry derives from each kind', () => {
  it('lets a memo be written about every kind of document, each named by its type', () => {
    expect(DOCUMENT_RESOURCES).toMatchObject({ 'purchase-order': 'purchase-orders', invoice: 'invoices', 'stock-count': 'stock-counts' });
    expect(Object.values(DOCUMENT_RESOURCES)).toEqual(registry.flatMap((definition) => (definition.document ? [definition.name] : [])));
    expect(Object.keys(DOCUMENT_RESOURCES)).toEqual(registry.flatMap((definition) => definition.document?.type ?? []));
    // The memo's form offers the same kinds, labelled with their names, and reads a document by its type.
    expect(documentMemoranda.fields.document_type.options).toBe(DOCUMENT_TYPES);
    expect(DOCUMENT_TYPES.map((option) => [option.value, option.label])).toEqual(
      registry.flatMap((definition) => (definition.document ? [[definition.document.type, definition.singular]] : [])),
    );
    expect(documentMemoranda.fields.document_id.referencesBy?.resources).toBe(DOCUMENT_RESOURCES);
  });

  it('marks the action making a document from another with the icon its kind declares', () => {
    const icons = registry.flatMap((definition) =>
      definition.document?.followOnIcon ? [[definition.name, definition.document.followOnIcon]] : [],
    );
    expect(Object.fromEntries(icons)).toEqual({
      'receive-orders': 'package-check',
      'bill-payments': 'credit-card',
      'purchase-returns': 'undo-2',
      'invoice-payments': 'credit-card',
      'credit-memoranda': 'file-minus',
      'debit-memoranda': 'file-minus',
      'stock-transfers': 'truck',
      'stock-receives': 'package-check',
      'stock-returns': 'undo-2',
      'sales-returns': 'undo-2',
    });
  });

  it('numbers sales at the counter from blocks, and numbers a return where its transfer went', () => {
    expect(registry.filter((definition) => definition.document?.numberBlocks).map((definition) => definition.name)).toEqual(['invoices']);
    expect(registry.filter((definition) => definition.document?.source?.reversed).map((definition) => definition.name)).toEqual([
      'stock-returns',
    ]);
  });
});
