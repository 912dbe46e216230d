import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, monthsSpanned, periodsOf, startOfMonth } from './calendar';

describe('calendar', () => {
  it('steps over month ends, year ends and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2024-01-01', '2024-12-31')).toBe(365);
    expect(daysBetween('2026-03-10', '2026-03-01')).toBe(-9);
  });

  it('counts and starts months', () => {
    expect(monthsSpanned('2026-01-31', '2026-02-01')).toBe(2);
    expect(monthsSpanned('2015-01-01', '2024-12-31')).toBe(120);
    expect(startOfMonth('2026-11-22', -11)).toBe('2025-12-01');
    expect(startOfMonth('2026-01-15', 1)).toBe('2026-02-01');
  });

  it('lists every period of a range, by day or by month', () => {
    expect(periodsOf('2025-12-30', '2026-01-02', 'day')).toEqual(['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
    expect(periodsOf('2025-11-30', '2026-02-01', 'month')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(periodsOf('2026-03-05', '2026-03-05', 'month')).toEqual(['2026-03']);
  });
});
