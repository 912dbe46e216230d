import { describe, expect, it } from 'vitest';
import { changeDue } from './tenders';

describe('the change a cash tender gives back', () => {
  it('is what was received beyond the amount', () => {
    expect(changeDue({ amount: 8_750, received: 10_000 })).toBe(1_250);
    expect(changeDue({ amount: 8_750, received: 8_750 })).toBe(0);
  });

  it('is none when nothing was told received', () => {
    expect(changeDue({ amount: 8_750, received: null })).toBe(0);
  });
});
