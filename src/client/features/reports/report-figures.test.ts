import { describe, expect, it } from 'vitest';
import { formatPercent, formatQuantity, formatUnitCost, uncostedLinesNote, uncostedRowsNote } from './report-figures';

describe('the reports’ figures', () => {
  it('shows a unit cost to its four places, at least two', () => {
    expect(formatUnitCost(12.5)).toBe('₱12.50');
    expect(formatUnitCost(12.3456)).toBe('₱12.3456');
    expect(formatUnitCost(1250)).toBe('₱1,250.00');
    expect(formatUnitCost(-0.00001)).toBe('₱0.00');
    expect(formatUnitCost(null)).toBe('Not costed');
  });

  it('shows a quantity with its unit, a percent, and what was never costed', () => {
    expect(formatQuantity(1250.5, 'pc')).toBe('1,250.5 pc');
    expect(formatQuantity(2.125, 'kg')).toBe('2.125 kg');
    expect(formatPercent(32.5)).toBe('32.5%');
    expect(formatPercent(-4)).toBe('-4%');
    expect(formatPercent(null)).toBe('—');
    expect(uncostedRowsNote(1)).toBe('1 row of goods never costed is counted at nothing.');
    expect(uncostedRowsNote(3)).toBe('3 rows of goods never costed are counted at nothing.');
    expect(uncostedLinesNote(2)).toBe('2 lines sold goods never costed: counted at no cost.');
  });
});
