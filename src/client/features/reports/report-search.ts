import { todayInManila } from '../../../domain/documents';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../domain/list-params';
import type { PlaceType } from '../../../domain/places';
import { MARGIN_GROUPS, type MarginGroup } from '../../../domain/reports';
import { PERIODS, periodRange, type PeriodName } from '../overview/period';

/** The reports of `/reports`, in the order the screen offers them. */
export const REPORTS = [
  { name: 'stock-value', label: 'Stock value' },
  { name: 'margins', label: 'Gross margin' },
] as const;

export type ReportName = (typeof REPORTS)[number]['name'];

/**
 * What `/reports` shows, kept in the URL so a report can be shared and survives a reload:
 * `?report=margins&from=2026-11-01&to=2026-11-30&by=item&place=branch:3&page=2&per_page=25`.
 * `date` is the stock value's day; `from`, `to` and `by` the margin's period and grouping; `place`
 * one branch or warehouse (`branch:3`, `warehouse:1`), or every place the user views when absent.
 * A value left out is the default: the stock value, today, the last 30 days, by place, page 1 of 15.
 */
export interface ReportSearch {
  report?: ReportName;
  date?: string;
  from?: string;
  to?: string;
  by?: MarginGroup;
  place?: string;
  page?: number;
  per_page?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PLACE = /^(branch|warehouse):[1-9]\d{0,8}$/;
/** A day of the calendar: not February 30th. */
const realDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};

/** Reads the address leniently: a stale or hand-edited value is dropped and its default stands, so the API never answers 422 for it. */
export function reportSearch(search: Record<string, unknown>): ReportSearch {
  const text = (value: unknown) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined);
  const day = (value: unknown) => {
    const raw = text(value);
    return raw !== undefined && DAY.test(raw) && realDay(raw) ? raw : undefined;
  };
  const report = REPORTS.find((entry) => entry.name === search.report)?.name;
  const by = MARGIN_GROUPS.find((group) => group === search.by);
  const place = text(search.place);
  let from = day(search.from);
  let to = day(search.to);
  // A backwards period names none: the default period stands.
  if (from !== undefined && to !== undefined && from > to) from = to = undefined;
  const page = Number(search.page);
  const perPage = Number(search.per_page);
  return {
    report: report === 'stock-value' ? undefined : report,
    date: day(search.date),
    from,
    to,
    by: by === 'place' ? undefined : by,
    place: place !== undefined && PLACE.test(place) ? place : undefined,
    page: Number.isInteger(page) && page > 1 && page < 10_000_000 ? page : undefined,
    per_page: PAGE_SIZES.some((size) => size === perPage) && perPage !== DEFAULT_PAGE_SIZE ? perPage : undefined,
  };
}

/** The query that keeps a report to one place (`{ branch_id: 3 }`), or to none. */
export function placeQuery(place: string | undefined): { branch_id?: number; warehouse_id?: number } {
  if (place === undefined || !PLACE.test(place)) return {};
  const [type, id] = place.split(':') as [PlaceType, string];
  return { [`${type}_id`]: Number(id) };
}

/** The report to show: the one the address asks for when the user may read it, else the first they may; none when they may read neither. */
export function shownReport(asked: ReportName | undefined, reads: Record<ReportName, boolean>): ReportName | undefined {
  if (asked !== undefined && reads[asked]) return asked;
  return REPORTS.find((report) => reads[report.name])?.name;
}

/** December 31 of the year before `today`'s: the day of the last annual inventory list (`2026-11-22` → `2025-12-31`). */
export function lastYearEnd(today = todayInManila()): string {
  return `${Number(today.slice(0, 4)) - 1}-12-31`;
}

/** The margin report's period: as the address names it, else the last 30 days up to `to` (today by default), as the server takes it. */
export function marginPeriod(search: Pick<ReportSearch, 'from' | 'to'>, today = todayInManila()): { from: string; to: string } {
  const to = search.to ?? today;
  if (search.from !== undefined) return { from: search.from, to };
  const start = new Date(`${to}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - 29);
  return { from: start.toISOString().slice(0, 10), to };
}

/** The overview's quick period a margin period is, if it is one (so its toggle shows pressed). */
export function quickPeriodOf(period: { from: string; to: string }, today = todayInManila()): PeriodName | undefined {
  return PERIODS.find(({ name }) => {
    const range = periodRange(name, today);
    return range.from === period.from && range.to === period.to;
  })?.name;
}
