import { describe, expect, it } from 'vitest';
import { labelEvery, valueTicks } from './chart-scale';

describe('overview chart scales', () => {
  it('steps the value axis from zero past the largest figure in round steps', () => {
    expect(valueTicks(1000)).toEqual([0, 250, 500, 750, 1000]);
    expect(valueTicks(12_345)).toEqual([0, 5000, 10_000, 15_000]);
    expect(valueTicks(87)).toEqual([0, 25, 50, 75, 100]);
    expect(valueTicks(0.4)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
  });

  it('still draws an axis when every figure is zero', () => {
    expect(valueTicks(0)).toEqual([0, 1, 2, 3, 4]);
  });

  it('labels as many periods as fit under the axis, with a gap between labels', () => {
    expect(labelEvery(7, 600, 42)).toBe(1);
    expect(labelEvery(30, 300, 42)).toBe(6);
    expect(labelEvery(30, 900, 42)).toBe(2);
    expect(labelEvery(12, 0, 56)).toBe(12);
  });
});
