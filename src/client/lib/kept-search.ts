import type { ResourceDefinition } from '../../domain/resource';
import { workingStatuses } from '../../domain/working-set';
import { compareIds, compareValues, KeptIndex, SEPARATOR, TEXTUAL, type Entry } from './kept-index';

type Row = Readonly<Record<string, unknown>>;

const flag = (value: unknown) => value === 1 || value === '1' || value === true || value === 'true';

/** What a list's query may ask besides its search fields, all of which searchKept answers. */
const LIST_PARAMS = new Set([
  'q',
  'is_strict',
  'with_trashed',
  'only_trashed',
  'order_by_field_name',
  'order_by',
  'page',
  'per_page',
  'limit',
]);

/**
 * Whether a list's query is answered whole by the records of a resource the device keeps whole
 * (its working set, working-set.ts): it asks nothing searchKept does not understand, nothing of
 * the trash (the working set keeps none) and, of documents, only a status still worked on (the
 * working set keeps only those). Otherwise a list saved before says more.
 */
export function answeredByWorkingSet(definition: ResourceDefinition, params: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (name === 'q' ? !definition.pickerFields : !LIST_PARAMS.has(name) && !definition.search.includes(name)) return false;
  }
  if (flag(params.with_trashed) || flag(params.only_trashed)) return false;
  const statuses = workingStatuses(definition);
  return (
    statuses === undefined || (params.status !== undefined && params.status !== null && statuses.includes(String(params.status).trim()))
  );
}

export interface KeptAnswer {
  rows: Record<string, unknown>[];
  total: number;
  page: number;
  perPage: number;
}

/**
 * A list's query answered from the records kept on this device, as the server would answer it:
 * the resource's own search fields (text contains, case-insensitive; others, and everything when
 * `is_strict`, equal), a picker's `q` (any of its fields by any part), the trash flags, its sort
 * (its field, then id, both in its direction; records without a value last) and its page. What
 * was never kept is not found. `kept`: the records, or their index (kept-index.ts), which answers
 * a search typed offline over tens of thousands of records while typing.
 */
export function searchKept(definition: ResourceDefinition, params: Record<string, unknown>, kept: readonly Row[] | KeptIndex): KeptAnswer {
  const index = kept instanceof KeptIndex ? kept : new KeptIndex(definition, kept);
  const strict = flag(params.is_strict);
  const searches = definition.search.flatMap((name) => {
    const value = params[name];
    return value === undefined || value === null || String(value).trim() === ''
      ? []
      : [{ name, value: String(value).trim().toLowerCase(), contains: !strict && TEXTUAL.has(definition.fields[name]?.kind ?? '') }];
  });

  const checks: ((entry: Entry) => boolean)[] = [];
  const onlyTrashed = flag(params.only_trashed);
  const withTrashed = flag(params.with_trashed);
  if (onlyTrashed) checks.push((entry) => entry.trashed);
  else if (!withTrashed) checks.push((entry) => !entry.trashed);
  // A search of a whole value starts from the records holding it: a scanned barcode looks at one.
  // A picker's term, otherwise, starts from the records its trigrams find, each tested for it already.
  const whole = searches.find(({ contains }) => !contains);
  const anyPart = typeof params.q === 'string' ? params.q.trim().toLowerCase() : '';
  const holding = anyPart !== '' && !whole ? index.pickerHolding(anyPart) : null;
  if (anyPart !== '' && !holding) {
    const pickers = definition.pickerFields ?? [];
    checks.push(
      anyPart.includes(SEPARATOR)
        ? ({ record }) =>
            pickers.some((name) =>
              String(record[name] ?? '')
                .toLowerCase()
                .includes(anyPart),
            )
        : ({ picker }) => pickers.length > 0 && picker.includes(anyPart),
    );
  }
  for (const { name, value, contains } of searches) {
    const at = index.textIndexOf(name);
    if (at !== undefined) checks.push(contains ? ({ text }) => text[at]?.includes(value) === true : ({ text }) => text[at] === value);
    else
      checks.push(({ record }) => {
        const stored = record[name];
        return stored !== null && stored !== undefined && String(stored).toLowerCase() === value;
      });
  }
  const matches = (entry: Entry) => checks.every((check) => check(entry));
  const candidates = whole ? index.equalTo(whole.name, whole.value) : (holding ?? index.all());

  const field = typeof params.order_by_field_name === 'string' ? params.order_by_field_name : 'id';
  const direction = params.order_by === 'asc' ? 1 : -1;
  const perPage = Number(params.limit ?? params.per_page ?? 15);
  const page = params.limit === undefined ? Math.max(1, Number(params.page ?? 1)) : 1;
  const [first, last] = [(page - 1) * perPage, page * perPage];

  const rows: Record<string, unknown>[] = [];
  let total = 0;
  const visit = (entry: Entry) => {
    if (!matches(entry)) return;
    if (total >= first && total < last) rows.push(entry.record as Record<string, unknown>);
    total += 1;
  };
  /** Visits `entries[from, to)`, forwards or backwards. */
  const walk = (entries: readonly Entry[], from: number, to: number, forwards: boolean) => {
    if (forwards) for (let at = from; at < to; at += 1) visit(entries[at]);
    else for (let at = to - 1; at >= from; at -= 1) visit(entries[at]);
  };

  if (field === 'id') walk(candidates, 0, candidates.length, direction > 0);
  else if (whole) {
    const value = (entry: Entry) => entry.record[field];
    const missing = (entry: Entry) => value(entry) === null || value(entry) === undefined;
    const ordered = candidates.filter(matches).sort((a, b) => {
      if (missing(a) !== missing(b)) return missing(a) ? 1 : -1;
      return ((!missing(a) && compareValues(value(a), value(b))) || compareIds(a.id, b.id)) * direction;
    });
    walk(ordered, 0, ordered.length, true);
  } else {
    // Each candidate gone through in id order, each match marked at its place in the field's order
    // (made on first use), then the page read off in the list's direction: those with a value, then those without.
    const { entries, withValue, place } = index.sortedBy(field);
    const marked = new Uint8Array(entries.length);
    for (const entry of candidates) if (matches(entry)) marked[place[entry.slot]] = 1;
    const take = (from: number, to: number) => {
      const step = direction > 0 ? 1 : -1;
      for (let at = direction > 0 ? from : to - 1; at >= from && at < to; at += step) {
        if (marked[at] === 0) continue;
        if (total >= first && total < last) rows.push(entries[at].record as Record<string, unknown>);
        total += 1;
      }
    };
    take(0, withValue);
    take(withValue, entries.length);
  }
  return { rows, total, page, perPage };
}
