import { describe, expect, it } from 'vitest';
import { IMPORT_KINDS, importKind } from '../../../domain/imports';
import { count, importedWords, newRecords } from './import-words';

describe('import words', () => {
  it('says what an import made by what it makes, never "49 news"', () => {
    expect(importedWords(importKind('items')!, { created: 49, updated: 0, skipped: 0 })).toBe('49 new items, 0 updates, 0 rows skipped');
    expect(importedWords(importKind('opening-stock')!, { created: 1, updated: 1, skipped: 1 })).toBe(
      '1 new opening balance, 1 update, 1 row skipped',
    );
    expect(newRecords(importKind('contacts')!, 1_204)).toBe('1,204 new contacts');
    expect(newRecords(importKind('purchase-prices')!, 2)).toBe('2 new purchase prices');
    expect(newRecords(importKind('sale-prices')!, 1)).toBe('1 new sale price');
    // Every kind is named.
    for (const kind of IMPORT_KINDS) expect(newRecords(kind, 2)).toMatch(/^2 new [a-z ]+s$/);
  });

  it('counts in the plural a word is given, or with an s', () => {
    expect(count(1, 'row')).toBe('1 row');
    expect(count(0, 'row')).toBe('0 rows');
    expect(count(3, 'entry', 'entries')).toBe('3 entries');
  });
});
