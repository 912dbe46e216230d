import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { matchingChoices, stillMatching } from './reference-picker';

describe('a picker given its choices', () => {
  const branches = getResource('branches');
  const choices = [
    { id: 1, name: 'Makati', code: 'MKT' },
    { id: 2, name: 'Quezon City', code: 'QC' },
  ];

  it('offers every choice for nothing typed, each as a record of its resource', () => {
    expect(matchingChoices(branches, choices, ' ')).toEqual([
      { id: 1, name: 'Makati', deleted_at: null, version: 0 },
      { id: 2, name: 'Quezon City', deleted_at: null, version: 0 },
    ]);
  });

  it('matches any part of the name or the code, in any case', () => {
    expect(matchingChoices(branches, choices, 'city').map((row) => row.id)).toEqual([2]);
    expect(matchingChoices(branches, choices, 'mkt').map((row) => row.id)).toEqual([1]);
    expect(matchingChoices(branches, choices, 'Cebu')).toEqual([]);
  });
});

describe('a search answered for earlier text', () => {
  const items = getResource('items');
  const answer = [
    { id: 1, name: 'Lucky Me! Beef Noodles 55g', deleted_at: null, version: 1 },
    { id: 2, name: 'Lucky Me! Pancit Canton Original', deleted_at: null, version: 1 },
  ];

  it('keeps listed only the records whose name shows what is typed now, in any case', () => {
    expect(stillMatching(items, answer, ' pancit ').map((row) => row.id)).toEqual([2]);
    expect(stillMatching(items, answer, 'LUCKY').map((row) => row.id)).toEqual([1, 2]);
    expect(stillMatching(items, answer, 'Milo')).toEqual([]);
  });
});
