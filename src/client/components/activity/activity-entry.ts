import type { ActivityEntry } from '../../../domain/activity';
import type { ListMeta } from '../../../domain/list-params';
import { referenceKey, type ResourceDefinition } from '../../../domain/resource';
import { api } from '../../lib/api';
import { displayValue } from '../../lib/format';

export interface ActivityPage {
  data: ActivityEntry[];
  meta: ListMeta;
}

export const TIMELINE_PAGE_SIZE = 10;

/** One page of a record's history; the key lets a sent change refresh every page of it. */
export const recordActivityQuery = (businessId: number | null, resource: string, recordId: number, page: number) => ({
  queryKey: [businessId, 'activity', resource, recordId, page],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<ActivityPage>('GET', `/api/${resource}/${recordId}/activity`, { query: { page, per_page: TIMELINE_PAGE_SIZE }, signal }),
});

const ACTIONS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Moved to the trash',
  restored: 'Restored',
  'force-deleted': 'Deleted permanently',
  voided: 'Voided',
  cancelled: 'Cancelled',
  'reset-password': 'Reset the password',
  'reset-security-pin': 'Reset the security pin',
  'assigned-roles': 'Assigned roles',
  'assigned-permissions': 'Assigned permissions',
};

/** File actions name the file (their summary): "Attached receipt.jpg". */
const FILE_ACTIONS: Record<string, string> = {
  'file-attached': 'Attached',
  'file-deleted': 'Removed',
  'file-restored': 'Restored',
  'file-force-deleted': 'Deleted permanently',
};

/** What happened, in words: "Moved to the trash", "Attached receipt.jpg". */
export function actionWords(entry: Pick<ActivityEntry, 'action' | 'summary'>): string {
  const file = FILE_ACTIONS[entry.action];
  if (file) return `${file} ${entry.summary ?? 'a file'}`;
  return ACTIONS[entry.action] ?? entry.action.replaceAll('-', ' ').replace(/^./, (first) => first.toUpperCase());
}

/** The summary shown under the words, when it says more than they do (file actions already name the file). */
export function entryNote(entry: Pick<ActivityEntry, 'action' | 'summary'>): string | null {
  return entry.action in FILE_ACTIONS ? null : entry.summary;
}

/** Who did it: a deleted user's entries stay, without a name; the demo seed's have no user. */
export function actorName(entry: Pick<ActivityEntry, 'user_id' | 'user_name'>): string {
  if (entry.user_name) return entry.user_name;
  return entry.user_id === 0 ? 'System' : `User #${entry.user_id}`;
}

/** A value of a change as the view screen shows it: pesos, Yes/No, names of referenced records. */
export function changeValue(definition: ResourceDefinition | undefined, name: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  const field = definition?.fields[name];
  if (!field) return typeof value === 'object' ? JSON.stringify(value) : String(value);
  if ((field.kind === 'reference' || field.referencesBy) && typeof value === 'object') {
    const reference = value as { id: unknown; display: unknown };
    return displayValue(name, field, { [name]: reference.id, [referenceKey(name)]: reference });
  }
  return displayValue(name, field, { [name]: value });
}

export interface ChangeLine {
  name: string;
  label: string;
  from: string | null;
  to: string;
}

/** "Price: ₱12.50 → ₱13.75"; a new record's values have no "from". Fields in the definition's order. */
export function changeLines(definition: ResourceDefinition | undefined, entry: Pick<ActivityEntry, 'action' | 'changes'>): ChangeLine[] {
  if (!entry.changes) return [];
  const order = Object.keys(definition?.fields ?? {});
  const position = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.entries(entry.changes)
    .sort(([a], [b]) => position(a) - position(b))
    .map(([name, change]) => ({
      name,
      label: definition?.fields[name]?.label ?? name.replaceAll('_', ' ').replace(/^./, (first) => first.toUpperCase()),
      from: entry.action === 'created' ? null : changeValue(definition, name, change.from),
      to: changeValue(definition, name, change.to),
    }));
}
