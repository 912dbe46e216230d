import { useQuery } from '@tanstack/react-query';
import type { ResourceDefinition } from '../../../domain/resource';
import { isClientKey, syncedId } from '../../lib/outbox';
import { pendingCreateRecord, useOutbox, withPending } from '../../lib/pending';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';

export type ShownRecord =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | { status: 'not-found' }
  /** A record created on this device has synced since: its page is now under its server id. */
  | { status: 'moved'; id: number }
  | { status: 'shown'; record: ApiRecord };

/**
 * The record a view or edit screen shows, with its queued changes laid over: one from the
 * server (or as last kept here), or — for a client key in the URL — one created on this device
 * that has not synced yet.
 */
export function useShownRecord(definition: ResourceDefinition, id: string): ShownRecord {
  const businessId = useActiveBusinessId();
  const outbox = useOutbox();
  const local = isClientKey(id);
  const serverId = /^\d{1,9}$/.test(id) ? Number(id) : 0;
  const query = useQuery({ ...recordQuery(businessId, definition, serverId), enabled: serverId > 0 });
  const create = local ? outbox.entries.find((entry) => entry.key === id && entry.action === 'create') : undefined;
  const synced = useQuery({
    queryKey: ['synced', id],
    queryFn: async () => (await syncedId(id)) ?? null,
    enabled: local && outbox.loaded && !create,
  });

  if (local) {
    if (create) return { status: 'shown', record: withPending(definition, pendingCreateRecord(create), outbox.entries) };
    if (!outbox.loaded || synced.isPending) return { status: 'loading' };
    return synced.data ? { status: 'moved', id: synced.data.id } : { status: 'not-found' };
  }
  if (!serverId) return { status: 'not-found' };
  if (query.error) return { status: 'failed', error: query.error };
  if (!query.data) return { status: 'loading' };
  return { status: 'shown', record: withPending(definition, query.data, outbox.entries) };
}
