import { useQueries, useQuery } from '@tanstack/react-query';
import { referenceKey, type ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
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

  const pendingCreate = create ? withPending(definition, pendingCreateRecord(create), outbox.entries) : undefined;
  const shown = query.data ? withPending(definition, query.data, outbox.entries) : undefined;
  const named = useKeptNames(definition, pendingCreate ?? shown);

  if (local) {
    if (create) return { status: 'shown', record: named(pendingCreate!) };
    if (!outbox.loaded || synced.isPending) return { status: 'loading' };
    return synced.data ? { status: 'moved', id: synced.data.id } : { status: 'not-found' };
  }
  if (!serverId) return { status: 'not-found' };
  if (query.error) return { status: 'failed', error: query.error };
  if (!query.data) return { status: 'loading' };
  return { status: 'shown', record: named(shown!) };
}

/**
 * The records a queued change names only by id (the customer and branch of an invoice made
 * offline), named as this device last saw them — online from the server, offline from what is
 * kept — so a pending record reads like a synced one.
 */
function useKeptNames(definition: ResourceDefinition, record: ApiRecord | undefined) {
  const businessId = useActiveBusinessId();
  const unnamed = Object.entries(definition.fields).flatMap(([name, field]) => {
    const target = field.references ?? field.referencesBy?.resources[String(record?.[field.referencesBy.field])];
    const id = Number(record?.[name]);
    const known = record?.[referenceKey(name)] as { display?: unknown } | null | undefined;
    if (!record?.pending || !target || field.author || !Number.isInteger(id) || id <= 0 || known?.display) return [];
    return [{ name, target, id }];
  });
  const kept = useQueries({ queries: unnamed.map(({ target, id }) => recordQuery(businessId, getResource(target), id)) });
  return (shown: ApiRecord): ApiRecord => {
    const names: Record<string, unknown> = {};
    unnamed.forEach(({ name, target, id }, at) => {
      const found = kept[at]?.data;
      if (found) names[referenceKey(name)] = { id, display: String(found[getResource(target).display] ?? `#${id}`) };
    });
    return { ...shown, ...names };
  };
}
