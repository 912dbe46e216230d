import type { Dexie } from 'dexie';
import { summaryOf } from './kept-records';
import type { KeptPage, KeptPageSummary } from './offline-store';

/**
 * The versions of a user's offline database (offline-store.ts): declared once here, where the
 * working set's download worker (working-set-worker.ts) opens the same database too.
 */
export function declareOfflineSchema(database: Dexie): void {
  database.version(1).stores({ answers: 'key, [businessId+resource]', records: 'key, [businessId+resource]' });
  database.version(2).stores({ outbox: '++seq, &key, target', synced: 'key' });
  database.version(3).stores({ places: 'businessId' });
  // Where the working set of each business stands (working-set.ts).
  database.version(4).stores({ syncState: 'businessId' });
  // The working set kept a page of records to a row (kept-records.ts): what was kept a record to
  // a row stays readable, and each working set downloads again into pages, replacing it.
  database
    .version(5)
    .stores({ pages: '[businessId+resource+after+last]' })
    .upgrade((transaction) => transaction.table('syncState').clear());
  // The blocks of document numbers the device holds (number-blocks.ts).
  database.version(6).stores({ numberBlocks: 'id, businessId' });
  // The drafts of forms being filled (drafts.ts).
  database.version(7).stores({ drafts: 'key, businessId' });
  // The rows in the trash, by business and resource (kept-id-order.ts): a row whose record has no
  // `deleted_at` holds no key there, so the index lists only those. IndexedDB makes it from the
  // rows already kept as the database opens at this version; nothing else changes.
  database.version(8).stores({ records: 'key, [businessId+resource], [businessId+resource+record.deleted_at]' });
  // Each page's ids and those in the trash (kept-records.ts `summaryOf`), under the page's key: the
  // first page of a list offline is found by them, not by reading every page. Made here from the
  // pages already kept, a page at a time; from then on written with their pages.
  database
    .version(9)
    .stores({ pageSummaries: '[businessId+resource+after+last]' })
    .upgrade(async (transaction) => {
      const summaries: KeptPageSummary[] = [];
      await transaction.table<KeptPage>('pages').each((page) => summaries.push(summaryOf(page)));
      await transaction.table<KeptPageSummary>('pageSummaries').bulkPut(summaries);
    });
}
