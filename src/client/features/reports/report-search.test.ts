import { describe, expect, it } from 'vitest';
import { lastYearEnd, marginPeriod, placeQuery, quickPeriodOf, reportSearch, shownReport } from './report-search';

describe('the reports’ address', () => {
  it('keeps what names a report, a day, a period, a grouping, a place and a page', () => {
    expect(
      reportSearch({
        report: 'margins',
        date: '2025-12-31',
        from: '2026-11-01',
        to: '2026-11-30',
        by: 'item',
        place: 'warehouse:2',
        page: '3',
        per_page: '50',
      }),
    ).toEqual({
      report: 'margins',
      date: '2025-12-31',
      from: '2026-11-01',
      to: '2026-11-30',
      by: 'item',
      place: 'warehouse:2',
      page: 3,
      per_page: 50,
    });
    // The router hands numbers as numbers.
    expect(reportSearch({ page: 2, per_page: 25, place: 'branch:12' })).toMatchObject({ page: 2, per_page: 25, place: 'branch:12' });
  });

  it('drops what the defaults say anyway, so the address stays short: the stock value, by place, page 1 of 15', () => {
    expect(reportSearch({ report: 'stock-value', by: 'place', page: '1', per_page: '15' })).toEqual({
      report: undefined,
      date: undefined,
      from: undefined,
      to: undefined,
      by: undefined,
      place: undefined,
      page: undefined,
      per_page: undefined,
    });
  });

  it('reads a stale or hand-edited address leniently: what is not well formed names nothing', () => {
    const read = reportSearch({
      report: 'sales',
      date: '2026-02-30',
      by: 'supplier',
      place: 'shelf:1',
      page: '-2',
      per_page: '20',
    });
    expect(read).toEqual(reportSearch({}));
    expect(reportSearch({ date: '31/12/2025' }).date).toBeUndefined();
    expect(reportSearch({ place: 'branch:0' }).place).toBeUndefined();
    expect(reportSearch({ page: '1.5' }).page).toBeUndefined();
    // A backwards period names none; one end alone is kept.
    expect(reportSearch({ from: '2026-11-30', to: '2026-11-01' })).toMatchObject({ from: undefined, to: undefined });
    expect(reportSearch({ from: '2026-11-01' })).toMatchObject({ from: '2026-11-01', to: undefined });
  });

  it('asks for one branch or warehouse by its id, or for every place', () => {
    expect(placeQuery('branch:3')).toEqual({ branch_id: 3 });
    expect(placeQuery('warehouse:12')).toEqual({ warehouse_id: 12 });
    expect(placeQuery(undefined)).toEqual({});
    expect(placeQuery('shelf:1')).toEqual({});
  });

  it('shows the report asked for when the user reads it, else the first they read, else none', () => {
    const both = { 'stock-value': true, margins: true };
    expect(shownReport(undefined, both)).toBe('stock-value');
    expect(shownReport('margins', both)).toBe('margins');
    expect(shownReport(undefined, { 'stock-value': false, margins: true })).toBe('margins');
    expect(shownReport('margins', { 'stock-value': true, margins: false })).toBe('stock-value');
    expect(shownReport('margins', { 'stock-value': false, margins: false })).toBeUndefined();
  });

  it('takes the annual inventory list on December 31 of last year, whatever day of this one it is', () => {
    expect(lastYearEnd('2026-11-22')).toBe('2025-12-31');
    expect(lastYearEnd('2027-01-01')).toBe('2026-12-31');
    expect(lastYearEnd('2026-12-31')).toBe('2025-12-31');
  });

  it('takes the margin over the last 30 days by default, as the server does, up to the day the address names', () => {
    expect(marginPeriod({}, '2026-11-22')).toEqual({ from: '2026-10-24', to: '2026-11-22' });
    expect(marginPeriod({ to: '2026-03-01' }, '2026-11-22')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(marginPeriod({ from: '2026-11-01' }, '2026-11-22')).toEqual({ from: '2026-11-01', to: '2026-11-22' });
    expect(marginPeriod({ from: '2026-01-01', to: '2026-06-30' }, '2026-11-22')).toEqual({ from: '2026-01-01', to: '2026-06-30' });
  });

  it('knows the overview’s quick period a margin period is, so its toggle shows pressed', () => {
    expect(quickPeriodOf(marginPeriod({}, '2026-11-22'), '2026-11-22')).toBe('30d');
    expect(quickPeriodOf({ from: '2026-11-01', to: '2026-11-22' }, '2026-11-22')).toBe('month');
    expect(quickPeriodOf({ from: '2026-10-01', to: '2026-10-31' }, '2026-11-22')).toBe('last-month');
    expect(quickPeriodOf({ from: '2026-10-02', to: '2026-10-31' }, '2026-11-22')).toBeUndefined();
  });
});
