/**
 * Which texts may hold a term, by its trigrams: each run of three characters of a text lists the
 * texts it occurs in (their numbers, ascending), so a term's candidates are the texts listed under
 * every one of its trigrams, found by going through its rarest lists first. A candidate is only
 * likely to hold the term (its trigrams may be apart in it, or share a list with another trigram),
 * so the caller tests each one; that test is also what lets a text be forgotten without taking it
 * out of its lists.
 */

/**
 * The list a trigram is kept in: its three UTF-16 code units, ten bits of each (exact for every
 * Latin letter, ñ and é included). Characters beyond share lists, which only adds candidates. It
 * stays a small integer, which a Map hashes fastest.
 */
const gramKey = (a: number, b: number, c: number) => ((a & 1023) << 20) | ((b & 1023) << 10) | (c & 1023);

/** The numbers of the texts a trigram occurs in, ascending, in an array that grows as texts are added (`length` of it used). */
interface Posting {
  ids: Int32Array;
  length: number;
}

export class TrigramIndex {
  private readonly postings = new Map<number, Posting>();
  private readonly separator: number;

  /** `separator`: a character between a text's parts, never searched for, so no trigram across it is listed. */
  constructor(separator: string) {
    this.separator = separator.charCodeAt(0);
  }

  /** Lists text number `id` under its trigrams: ids are added in ascending order, each once. */
  add(id: number, text: string): void {
    const separator = this.separator;
    for (let at = 2; at < text.length; at += 1) {
      const a = text.charCodeAt(at - 2);
      const b = text.charCodeAt(at - 1);
      const c = text.charCodeAt(at);
      if (a === separator || b === separator || c === separator) continue;
      const key = gramKey(a, b, c);
      let posting = this.postings.get(key);
      if (!posting) {
        posting = { ids: new Int32Array(4), length: 0 };
        this.postings.set(key, posting);
      } else if (posting.ids[posting.length - 1] === id) continue; // The same trigram twice in one text.
      if (posting.length === posting.ids.length) {
        // By half again: a list of every text (an SKU's "sku") wastes less room than by doubling.
        const grown = new Int32Array(posting.length + (posting.length >> 1));
        grown.set(posting.ids);
        posting.ids = grown;
      }
      posting.ids[posting.length] = id;
      posting.length += 1;
    }
  }

  /**
   * The texts that may hold `term` (of three characters or more, without the separator): those
   * listed under each of its trigrams, ascending. The caller tests each. Null when even its rarest
   * trigram lists more than `most` texts: so many that testing every text costs no more.
   */
  candidates(term: string, most = Infinity): Int32Array | null {
    const lists: Posting[] = [];
    const seen = new Set<number>();
    for (let at = 2; at < term.length; at += 1) {
      const key = gramKey(term.charCodeAt(at - 2), term.charCodeAt(at - 1), term.charCodeAt(at));
      if (seen.has(key)) continue;
      seen.add(key);
      const posting = this.postings.get(key);
      if (!posting) return new Int32Array(0);
      lists.push(posting);
    }
    lists.sort((a, b) => a.length - b.length);
    if (lists[0].length > most) return null;
    let found: Int32Array = lists[0].ids.slice(0, lists[0].length);
    for (let at = 1; at < lists.length && found.length > 0; at += 1) found = within(found, lists[at]);
    return found;
  }

  /**
   * Numbers the texts again: `to[id]` is a text's new number (in the same order as before), or -1
   * for a text forgotten, which leaves every list.
   */
  renumber(to: Int32Array): void {
    for (const [key, posting] of this.postings) {
      let kept = 0;
      for (let at = 0; at < posting.length; at += 1) {
        const id = to[posting.ids[at]];
        if (id >= 0) posting.ids[kept++] = id;
      }
      posting.length = kept;
      if (kept === 0) this.postings.delete(key);
    }
  }
}

/**
 * The ids of `found` also in `list` (both ascending), written over `found`'s own: each looked for
 * ahead of the last, by steps that double then halve, so a few candidates cost a few steps of a
 * long list.
 */
function within(found: Int32Array, list: Posting): Int32Array {
  const { ids, length } = list;
  let kept = 0;
  let low = 0;
  for (let at = 0; at < found.length && low < length; at += 1) {
    const id = found[at];
    // The first place in the list not below `id`: past `low` by a doubling step, then halved.
    let step = 1;
    while (low + step < length && ids[low + step] < id) step *= 2;
    let high = Math.min(low + step, length);
    low += step >> 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ids[middle] < id) low = middle + 1;
      else high = middle;
    }
    if (low < length && ids[low] === id) found[kept++] = id;
  }
  return found.subarray(0, kept);
}
