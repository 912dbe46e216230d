import { todayInManila } from '../../../domain/documents';

/** The periods the overview's sales charts offer; kept in the URL as `?period=`. */
export const PERIODS = [
  { name: '7d', label: 'Last 7 days' },
  { name: '30d', label: 'Last 30 days' },
  { name: 'month', label: 'This month' },
  { name: 'last-month', label: 'Last month' },
  { name: '12m', label: 'Last 12 months' },
] as const;

export type PeriodName = (typeof PERIODS)[number]['name'];

export const DEFAULT_PERIOD: PeriodName = '30d';

export type Interval = 'day' | 'month';

/** What the overview endpoints are asked: business days in Manila, both ends included. */
export interface PeriodRange {
  from: string;
  to: string;
  interval: Interval;
}

/** Reads `?period=` leniently: a stale or hand-edited link falls back to the default. */
export function readPeriod(raw: unknown): PeriodName {
  return PERIODS.find((period) => period.name === raw)?.name ?? DEFAULT_PERIOD;
}

export function periodLabel(name: PeriodName): string {
  return PERIODS.find((period) => period.name === name)?.label ?? '';
}

// Calendar arithmetic on `YYYY-MM-DD` in UTC, so no clock zone or daylight saving shifts a day.
const parse = (date: string) => new Date(`${date}T00:00:00Z`);
const print = (date: Date) => date.toISOString().slice(0, 10);

function addDays(date: string, days: number): string {
  const moved = parse(date);
  moved.setUTCDate(moved.getUTCDate() + days);
  return print(moved);
}

/** The first day of the month `months` before `date`'s month. */
function monthStart(date: string, months = 0): string {
  const start = parse(date);
  return print(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - months, 1)));
}

/** `periodRange('7d', '2026-11-22')` → `{ from: '2026-11-16', to: '2026-11-22', interval: 'day' }`. */
export function periodRange(name: PeriodName, today = todayInManila()): PeriodRange {
  switch (name) {
    case '7d':
      return { from: addDays(today, -6), to: today, interval: 'day' };
    case '30d':
      return { from: addDays(today, -29), to: today, interval: 'day' };
    case 'month':
      return { from: monthStart(today), to: today, interval: 'day' };
    case 'last-month':
      return { from: monthStart(today, 1), to: addDays(monthStart(today), -1), interval: 'day' };
    case '12m':
      return { from: monthStart(today, 11), to: today, interval: 'month' };
  }
}

/** Made when first used, and kept: `toLocaleDateString` with options makes a formatter on every call, most of a chart's drawing. */
let monthFormat: Intl.DateTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;

/** A chart's period as a person reads it: `2026-11-05` → "Nov 5", `2026-11` → "Nov 2026". */
export function formatPeriod(period: string): string {
  const [year, month, day] = period.split('-').map(Number);
  const date = new Date(year, month - 1, day ?? 1);
  if (day === undefined) return (monthFormat ??= new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric' })).format(date);
  return (dayFormat ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })).format(date);
}
