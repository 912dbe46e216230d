/**
 * Day arithmetic on `YYYY-MM-DD` business days (Manila's, see `todayInManila`), done in UTC so
 * that no clock zone or daylight saving shifts a day.
 */

const DAY_MS = 86_400_000;

const toUtc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `addDays('2026-03-01', -1)` → `'2026-02-28'`. */
export function addDays(day: string, days: number): string {
  return fromUtc(toUtc(day) + days * DAY_MS);
}

/** Whole days from `from` to `to`: `daysBetween('2026-01-01', '2026-01-31')` → 30. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

/** `YYYY-MM` of a day. */
export const monthOf = (day: string) => day.slice(0, 7);

/** Months from `from`'s to `to`'s, both counted: `monthsBetween('2026-01-31', '2026-02-01')` → 2. */
export function monthsSpanned(from: string, to: string): number {
  const index = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
  return index(to) - index(from) + 1;
}

/** The first day of the month `months` after `day`'s (before, when negative). */
export function startOfMonth(day: string, months = 0): string {
  return fromUtc(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1 + months, 1));
}

export type Interval = 'day' | 'month';

/** Every period label from `from` to `to`: days (`YYYY-MM-DD`) or months (`YYYY-MM`), in order. */
export function periodsOf(from: string, to: string, interval: Interval): string[] {
  if (interval === 'day') return Array.from({ length: daysBetween(from, to) + 1 }, (_, offset) => addDays(from, offset));
  return Array.from({ length: monthsSpanned(from, to) }, (_, offset) => monthOf(startOfMonth(from, offset)));
}
