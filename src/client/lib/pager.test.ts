import { describe, expect, it } from 'vitest';
import { pagerItems } from './pager';

describe('pager page numbers', () => {
  it('shows every page up to 10 pages', () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('shows 1 to 7, a gap and the last two while the current page is at most 6', () => {
    expect(pagerItems(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 19, 20]);
    expect(pagerItems(6, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 19, 20]);
  });

  it('shows 1, 2, a gap and the last 8 near the end', () => {
    expect(pagerItems(20, 20)).toEqual([1, 2, 'gap', 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(pagerItems(15, 20)).toEqual([1, 2, 'gap', 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('shows 1, 2, the current page ± 2 and the last two in the middle, with gaps', () => {
    expect(pagerItems(10, 20)).toEqual([1, 2, 'gap', 8, 9, 10, 11, 12, 'gap', 19, 20]);
    expect(pagerItems(7, 20)).toEqual([1, 2, 'gap', 5, 6, 7, 8, 9, 'gap', 19, 20]);
  });

  it('puts no gap where the runs touch', () => {
    expect(pagerItems(6, 11)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 10, 11]);
    expect(pagerItems(7, 11)).toEqual([1, 2, 'gap', 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(pagerItems(7, 12)).toEqual([1, 2, 'gap', 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});
