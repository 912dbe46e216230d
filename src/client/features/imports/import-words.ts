import type { ImportKind } from '../../../domain/imports';

/** A number of things in words: "1 row", "1,204 rows". */
export const count = (value: number, one: string, many = `${one}s`) => `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;

/** What an import makes, named: "49 new items", "1 new opening balance". */
export const newRecords = (kind: ImportKind, value: number) => count(value, `new ${kind.made}`);

/** What an import did: "49 new items, 2 updates, 1 row skipped". */
export const importedWords = (kind: ImportKind, outcome: { created: number; updated: number; skipped: number }) =>
  `${newRecords(kind, outcome.created)}, ${count(outcome.updated, 'update')}, ${count(outcome.skipped, 'row')} skipped`;
