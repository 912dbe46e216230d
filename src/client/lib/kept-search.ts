import type { ResourceDefinition } from '../../domain/resource';

const TEXTUAL = new Set(['text', 'textarea', 'email']);
const flag = (value: unknown) => value === 1 || value === '1' || value === true || value === 'true';

/**
 * A list's query answered from the records kept on this device, as the server would answer it:
 * the resource's own search fields (text contains, case-insensitive; others, and everything when
 * `is_strict`, equal), a picker's `q` (any of its fields by any part), the trash flags, its sort
 * and its page. What was never kept is not found.
 */
export function searchKept(definition: ResourceDefinition, params: Record<string, unknown>, kept: readonly Record<string, unknown>[]) {
  const strict = flag(params.is_strict);
  const searches = definition.search.flatMap((name) => {
    const value = params[name];
    return value === undefined || value === null || String(value).trim() === ''
      ? []
      : [[name, String(value).trim().toLowerCase()] as const];
  });
  const anyPart = typeof params.q === 'string' ? params.q.trim().toLowerCase() : '';
  const pickerMatch = (record: Record<string, unknown>) =>
    anyPart === '' ||
    (definition.pickerFields ?? []).some((name) =>
      String(record[name] ?? '')
        .toLowerCase()
        .includes(anyPart),
    );
  const trashed = (record: Record<string, unknown>) => Boolean(record.deleted_at);
  const matches = (record: Record<string, unknown>) =>
    (flag(params.only_trashed) ? trashed(record) : flag(params.with_trashed) || !trashed(record)) &&
    pickerMatch(record) &&
    searches.every(([name, value]) => {
      const stored = record[name];
      if (stored === null || stored === undefined) return false;
      const text = String(stored).toLowerCase();
      return !strict && TEXTUAL.has(definition.fields[name]?.kind ?? '') ? text.includes(value) : text === value;
    });
  const field = typeof params.order_by_field_name === 'string' ? params.order_by_field_name : 'id';
  const direction = params.order_by === 'asc' ? 1 : -1;
  const ordered = kept.filter(matches).sort((a, b) => {
    const [x, y] = [a[field], b[field]];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * direction;
  });
  const perPage = Number(params.limit ?? params.per_page ?? 15);
  const page = params.limit === undefined ? Math.max(1, Number(params.page ?? 1)) : 1;
  return { rows: ordered.slice((page - 1) * perPage, page * perPage), total: ordered.length, page, perPage };
}
