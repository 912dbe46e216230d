import { describe, expect, it } from 'vitest';
import { periodRange, readPeriod } from './period';

describe('overview periods', () => {
  it('counts the last 7 and 30 days back from today, today included, over month ends and leap days', () => {
    expect(periodRange('7d', '2026-11-22')).toEqual({ from: '2026-11-16', to: '2026-11-22', interval: 'day' });
    expect(periodRange('30d', '2026-11-22')).toEqual({ from: '2026-10-24', to: '2026-11-22', interval: 'day' });
    expect(periodRange('7d', '2026-03-03')).toEqual({ from: '2026-02-25', to: '2026-03-03', interval: 'day' });
    expect(periodRange('30d', '2028-03-01')).toEqual({ from: '2028-02-01', to: '2028-03-01', interval: 'day' });
  });

  it('starts this month on its first day', () => {
    expect(periodRange('month', '2026-11-22')).toEqual({ from: '2026-11-01', to: '2026-11-22', interval: 'day' });
    expect(periodRange('month', '2026-11-01')).toEqual({ from: '2026-11-01', to: '2026-11-01', interval: 'day' });
  });

  it('takes the last 12 months by month, this one included, across the new year', () => {
    expect(periodRange('last-month', '2026-11-22')).toEqual({ from: '2026-10-01', to: '2026-10-31', interval: 'day' });
    expect(periodRange('last-month', '2026-03-01')).toEqual({ from: '2026-02-01', to: '2026-02-28', interval: 'day' });
    expect(periodRange('12m', '2026-11-22')).toEqual({ from: '2025-12-01', to: '2026-11-22', interval: 'month' });
    expect(periodRange('12m', '2026-01-31')).toEqual({ from: '2025-02-01', to: '2026-01-31', interval: 'month' });
  });

  it('reads an unknown period from the URL as the last 30 days', () => {
    expect(readPeriod('12m')).toBe('12m');
    expect(readPeriod('year')).toBe('30d');
    expect(readPeriod(undefined)).toBe('30d');
  });
});
