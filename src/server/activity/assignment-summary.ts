/**
 * How a history entry tells a replaced assignment (a user's roles, a role's permissions):
 * what was added and what was removed, by name — "Added: Cashier. Removed: Viewer."
 */
export function assignmentSummary(before: unknown, after: unknown): string {
  const had = new Set(names(before));
  const has = new Set(names(after));
  const added = [...has].filter((name) => !had.has(name));
  const removed = [...had].filter((name) => !has.has(name));
  const parts = [];
  if (added.length > 0) parts.push(`Added: ${added.join(', ')}.`);
  if (removed.length > 0) parts.push(`Removed: ${removed.join(', ')}.`);
  return parts.length > 0 ? parts.join(' ') : 'No change.';
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
