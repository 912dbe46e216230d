/** The period of `/contacts/$id/statement`, kept in the URL: `?from=2026-08-01&to=2026-11-28`. */
export interface StatementSearch {
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the address leniently: anything but a `YYYY-MM-DD` day names no bound, and the default stands. */
export function statementSearch(search: Record<string, unknown>): StatementSearch {
  const day = (value: unknown) => (typeof value === 'string' && DAY.test(value) ? value : undefined);
  return { from: day(search.from), to: day(search.to) };
}
