import { describe, expect, it } from 'vitest';
import { TrigramIndex } from './text-index';
import { randomSequence } from '../../../tests/support/random-sequence';

/**
 * The trigram lists behind a picker's search (text-index.ts): a term's candidates are exactly the
 * texts holding each of its trigrams, whatever the lists' lengths, and stay so as texts are
 * numbered again.
 */

const SEPARATOR = '\u0001';

const trigramsOf = (text: string) => Array.from({ length: Math.max(0, text.length - 2) }, (_, at) => text.slice(at, at + 3));

describe('a trigram index', () => {
  it("gives as candidates the texts holding every one of a term's trigrams, ascending", () => {
    const random = randomSequence(7);
    // A small alphabet: lists from a few texts to nearly all of them, so both ways of intersecting are taken.
    const letters = 'aab cd';
    const texts = Array.from({ length: 2000 }, () =>
      Array.from({ length: 3 + Math.floor(random() * 12) }, () => letters[Math.floor(random() * letters.length)]).join(''),
    );
    const index = new TrigramIndex(SEPARATOR);
    texts.forEach((text, id) => index.add(id, text));
    for (let round = 0; round < 300; round += 1) {
      const term = Array.from({ length: 3 + Math.floor(random() * 5) }, () => letters[Math.floor(random() * letters.length)]).join('');
      const expected = texts.flatMap((text, id) => (trigramsOf(term).every((gram) => text.includes(gram)) ? [id] : []));
      expect([...index.candidates(term)!], term).toEqual(expected);
    }
  });

  it('lists a text once under a trigram it holds twice, and none across the separator', () => {
    const index = new TrigramIndex(SEPARATOR);
    index.add(0, `nanana${SEPARATOR}sku`);
    index.add(1, `ana${SEPARATOR}nan`);
    expect([...index.candidates('nan')!]).toEqual([0, 1]);
    expect([...index.candidates('nanana')!]).toEqual([0, 1]);
    expect([...index.candidates('sku')!]).toEqual([0]);
    // The second holds "ana" and "nan" apart: a candidate all the same, which the caller's test turns away.
    expect([...index.candidates('anan')!]).toEqual([0, 1]);
    expect([...index.candidates('naz')!]).toEqual([]);
    // Nothing is listed across the separator (a term never holds it).
    expect([...index.candidates(`na${SEPARATOR}`)!]).toEqual([]);
    expect([...index.candidates(`a${SEPARATOR}n`)!]).toEqual([]);
  });

  it('shares a list between characters ten bits apart: a candidate, not a match', () => {
    const index = new TrigramIndex(SEPARATOR);
    // "ѡ" is U+0461, "a" is U+0061: 1024 apart.
    index.add(0, 'ѡbc');
    index.add(1, 'abc');
    expect([...index.candidates('abc')!]).toEqual([0, 1]);
    expect([...index.candidates('ñoñ')!]).toEqual([]);
    index.add(2, 'niño');
    expect([...index.candidates('iño')!]).toEqual([2]);
  });

  it('gives none for a term whose rarest trigram lists more texts than asked: every text is tested instead', () => {
    const index = new TrigramIndex(SEPARATOR);
    ['sku-1 tuna', 'sku-2 tuna', 'sku-3 beef', 'sku-4 ham'].forEach((text, id) => index.add(id, text));
    expect(index.candidates('sku', 2)).toBeNull();
    expect(index.candidates('sku-', 2)).toBeNull();
    expect([...index.candidates('sku-1 tuna', 2)!]).toEqual([0]);
    expect([...index.candidates('tuna', 2)!]).toEqual([0, 1]);
  });

  it('numbers texts again, dropping those forgotten', () => {
    const index = new TrigramIndex(SEPARATOR);
    ['tuna', 'tuna flakes', 'corned beef', 'tuna spread', 'beef loaf'].forEach((text, id) => index.add(id, text));
    index.renumber(Int32Array.from([-1, 0, -1, 1, 2]));
    expect([...index.candidates('tuna')!]).toEqual([0, 1]);
    expect([...index.candidates('beef')!]).toEqual([2]);
    expect([...index.candidates('corned')!]).toEqual([]);
    // Texts added after take the numbers that follow.
    index.add(3, 'tuna beef');
    expect([...index.candidates('tun')!]).toEqual([0, 1, 3]);
  });
});
