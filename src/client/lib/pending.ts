import { numberOfQueued } from './queued-number';
import { useSyncExternalStore } from 'react';
import type { ResourceDefinition } from '../../domain/resource';
import { referenceKey } from '../../domain/resource';
import type { OutboxAction, OutboxEntry } from './outbox-queue';
import { outboxSnapshot, subscribeToOutbox, type OutboxSnapshot } from './outbox-snapshot';
import type { ApiRecord } from './resource-queries';

/**
 * How queued changes show on screens before they reach the server: created records as rows of
 * their own, updates laid over the record they change, and a mark saying the change is pending.
 */

export function useOutbox(): OutboxSnapshot {
  return useSyncExternalStore(subscribeToOutbox, outboxSnapshot);
}

/** The queued changes of one resource in one business. */
export function usePendingChanges(businessId: number | null, definition: ResourceDefinition): OutboxEntry[] {
  const { entries } = useOutbox();
  return entries.filter((entry) => entry.businessId === businessId && entry.resource === definition.name);
}

export const PENDING_WORDS: Record<OutboxAction, string> = {
  create: 'Pending create',
  update: 'Pending edit',
  delete: 'Pending delete',
  restore: 'Pending restore',
  'force-delete': 'Pending permanent delete',
  reset: 'Pending reset',
  assign: 'Pending assignment',
  void: 'Pending void',
  cancel: 'Pending cancel',
  close: 'Pending close',
  count: 'Pending count',
  post: 'Pending post',
  print: 'Pending print',
};

/** A record created on this device, as a row: its client key is its id until it syncs. */
export function pendingCreateRecord(entry: OutboxEntry): ApiRecord {
  const at = new Date(entry.createdAt).toISOString();
  const number = numberOfQueued(entry.resource, entry.body);
  return {
    ...(entry.body as Record<string, unknown>),
    ...(number ? { number } : {}),
    id: entry.key,
    deleted_at: null,
    version: 0,
    created_at: at,
    updated_at: at,
    pending: entry,
  };
}

/** `record` with the queued changes to it laid over, oldest first; the newest is its mark. */
export function withPending(definition: ResourceDefinition, record: ApiRecord, entries: OutboxEntry[]): ApiRecord {
  const mine = entries.filter((entry) => entry.resource === definition.name && entry.recordId === record.id && entry.action !== 'create');
  if (mine.length === 0) return record;
  let shown: ApiRecord = { ...record, pending: mine[mine.length - 1] };
  for (const entry of mine) {
    if (entry.action === 'update') {
      const body = entry.body as Record<string, unknown>;
      shown = { ...shown, ...body };
      // A changed reference is shown by id until the server names it.
      for (const [name, field] of Object.entries(definition.fields)) {
        if ((field.kind === 'reference' || field.referencesBy) && name in body && body[name] !== record[name]) {
          shown[referenceKey(name)] = null;
        }
      }
    }
    if (entry.action === 'restore') shown.deleted_at = null;
  }
  return shown;
}

/** The rows of a list page: creates made on this device first (on page 1), then the server's rows with their pending changes. */
export function rowsWithPending(
  definition: ResourceDefinition,
  rows: ApiRecord[],
  entries: OutboxEntry[],
  { firstPage, trashedOnly }: { firstPage: boolean; trashedOnly: boolean },
): ApiRecord[] {
  const created =
    firstPage && !trashedOnly
      ? entries.filter((entry) => entry.action === 'create').map((entry) => withPending(definition, pendingCreateRecord(entry), entries))
      : [];
  return [...created.reverse(), ...rows.map((row) => withPending(definition, row, entries))];
}
