import type { Page } from 'playwright-core';

/** A record the device keeps, as a row of its own or in a page of its working set (src/client/lib/kept-records.ts). */
export interface KeptRecord {
  key: string;
  businessId: number;
  resource: string;
  record: Record<string, unknown>;
}

export interface Kept {
  /** Keys of the answers (lists and records) kept as screens read them. */
  answers: string[];
  /** Every kept record once: of a record held in a page and a row, the newer copy (by version, then when saved). */
  records: KeptRecord[];
  /** The working set's state per business (offline-store.ts `SyncState`), as far as a test reads it. */
  syncStates: { businessId: number; phase: string }[];
  /** The blocks of document numbers the device holds (src/client/lib/number-blocks.ts). */
  numberBlocks: {
    id: number;
    businessId: number;
    resource: string;
    location: { type: 'branch' | 'warehouse'; id: number };
    first: number;
    last: number;
    next: number;
  }[];
}

/** What the user's database on the device holds, read with IndexedDB itself (not the app's code). */
export function keptOnDevice(page: Page, userId: number): Promise<Kept> {
  return page.evaluate(async (name) => {
    type Row = Record<string, unknown>;
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const stores = database.objectStoreNames;
    const all = <T>(store: string, read: (objects: IDBObjectStore) => IDBRequest<T>, none: T) =>
      !stores.contains(store)
        ? Promise.resolve(none)
        : new Promise<T>((resolve, reject) => {
            const request = read(database.transaction(store).objectStore(store));
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
    try {
      const answers = (await all('answers', (store) => store.getAllKeys(), [] as IDBValidKey[])).map(String);
      const rows = await all(
        'records',
        (store) => store.getAll(),
        [] as { key: string; businessId: number; resource: string; record: Row; savedAt: number }[],
      );
      const pages = await all(
        'pages',
        (store) => store.getAll(),
        [] as { businessId: number; resource: string; records: Row[]; savedAt: number }[],
      );
      const syncStates = await all('syncState', (store) => store.getAll(), [] as Kept['syncStates']);
      const numberBlocks = await all('numberBlocks', (store) => store.getAll(), [] as Kept['numberBlocks']);
      const kept = new Map<string, KeptRecord & { savedAt: number }>();
      const version = (record: Row) => (typeof record.version === 'number' ? record.version : Number.NEGATIVE_INFINITY);
      const take = (copy: KeptRecord & { savedAt: number }) => {
        const held = kept.get(copy.key);
        const newer =
          !held ||
          version(copy.record) > version(held.record) ||
          (version(copy.record) === version(held.record) && copy.savedAt > held.savedAt);
        if (newer) kept.set(copy.key, copy);
      };
      for (const page of pages) {
        for (const record of page.records) {
          const key = `${page.businessId}|${page.resource}|${String(record.id)}`;
          take({ key, businessId: page.businessId, resource: page.resource, record, savedAt: page.savedAt });
        }
      }
      for (const row of rows) take(row);
      return {
        answers,
        records: [...kept.values()].map(({ key, businessId, resource, record }) => ({ key, businessId, resource, record })),
        syncStates,
        numberBlocks,
      };
    } finally {
      database.close();
    }
  }, `bodega-user-${userId}`);
}
