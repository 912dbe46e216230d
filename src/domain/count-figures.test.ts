import { describe, expect, it } from 'vitest';
import { countDifference, differenceValue } from './count-figures';

describe('a count line’s figures', () => {
  it('differs by what was counted less what is on hand', () => {
    expect(countDifference(12_000, 10_500)).toBe(1_500);
    expect(countDifference(0, 2_250)).toBe(-2_250);
    expect(countDifference(7_000, 7_000)).toBe(0);
  });

  it('values the difference at the cost per base unit, to the centavo', () => {
    // 1.5 units over at ₱25.50 each; 2.25 units short at ₱10.00 each.
    expect(differenceValue(1_500, 2_550)).toBe(3_825);
    expect(differenceValue(-2_250, 1_000)).toBe(-2_250);
    // A cost worked out per base unit may be a fraction of a centavo: the value is rounded once, at the end.
    expect(differenceValue(3_000, 333.4)).toBe(1_000);
    expect(differenceValue(1, 1_234)).toBe(1);
  });

  it('has no value without a cost', () => {
    expect(differenceValue(1_500, null)).toBeNull();
  });
});
