import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { brands } from '../../domain/resources/brands';
import { offlineDatabase, openOfflineStore, saveAnswer } from './offline-store';
import { listQuery, type ListAnswer } from './resource-queries';

/**
 * A list read back without a network (resource-queries.ts), against an in-memory IndexedDB: of a
 * resource the working set keeps whole, the list saved before is shown at once, and the kept
 * records' answer — current as of the sync — takes its place as soon as their index is made.
 */

const BUSINESS = 1;
const brand = (id: number, name: string) => ({ id, name, version: 1, deleted_at: null });

describe('a list read back offline', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { onLine: false });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the list saved before at once, then the working set’s records in its place', async () => {
    openOfflineStore(7);
    const db = await offlineDatabase()!;
    const page = { page: 1, per_page: 15 };
    const alaska = brand(2, 'Alaska');
    const saved = { data: [alaska], meta: { total: 1 }, links: {} };
    await saveAnswer(`${BUSINESS}|brands|list|?page=1&per_page=15`, BUSINESS, 'brands', saved, [alaska]);
    // The working set brought another brand since: the device keeps every brand.
    await saveAnswer(`${BUSINESS}|brands|list|?q=bear`, BUSINESS, 'brands', { data: [] }, [brand(5, 'Bear Brand')]);
    await db.syncState.put({
      businessId: BUSINESS,
      epochCursor: null,
      phase: 'ready',
      pending: [],
      resources: ['brands'],
      placesFingerprint: null,
      syncedAt: Date.now(),
      startedAt: Date.now(),
      totals: {},
      done: 2,
    });

    const client = new QueryClient();
    const query = listQuery(BUSINESS, brands, page);
    const first = await client.fetchQuery(query);
    expect(first.data.map((record) => record.name)).toEqual(['Alaska']);
    expect(first.savedOffline).toBeGreaterThan(0);
    await vi.waitFor(() => {
      const shown = client.getQueryData<ListAnswer>(query.queryKey);
      expect(shown?.data.map((record) => record.name).sort()).toEqual(['Alaska', 'Bear Brand']);
      expect(shown?.meta.total).toBe(2);
    });
  });
});
