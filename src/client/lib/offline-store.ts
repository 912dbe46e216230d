import Dexie, { type Table } from 'dexie';
import { toast } from 'sonner';
import { ApiError } from './api';

/**
 * What this device has seen, for reading back without a network: every successful list and
 * record answer, in one IndexedDB database per signed-in user, keyed by business so that one
 * business never shows another's rows. Records are also kept one by one, so a picker can search
 * them offline.
 */

interface SavedAnswer {
  /** `{businessId}|{resource}|{list|record}|{query or id}` */
  key: string;
  businessId: number;
  resource: string;
  savedAt: number;
  body: unknown;
}

interface SavedRecord {
  /** `{businessId}|{resource}|{id}` */
  key: string;
  businessId: number;
  resource: string;
  /** The record's display value, lower-cased, for searching. */
  text: string;
  record: Record<string, unknown>;
  savedAt: number;
}

class OfflineDatabase extends Dexie {
  answers!: Table<SavedAnswer, string>;
  records!: Table<SavedRecord, string>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ answers: 'key, [businessId+resource]', records: 'key, [businessId+resource]' });
  }
}

const databaseName = (userId: number) => `bodega-user-${userId}`;
let database: OfflineDatabase | null = null;
let quotaReported = false;

/** Opens the signed-in user's database (and asks the browser to keep it through storage pressure). */
export function openOfflineStore(userId: number): void {
  if (database?.name === databaseName(userId)) return;
  database?.close();
  database = new OfflineDatabase(databaseName(userId));
  void navigator.storage?.persist?.().catch(() => undefined);
}

/** Deletes the signed-in user's database: on logout nothing of theirs stays on the device. */
export async function deleteOfflineStore(): Promise<void> {
  if (!database) return;
  const { name } = database;
  database.close();
  database = null;
  await Dexie.delete(name);
}

function reportQuota(error: unknown): void {
  const name = (error as { name?: string; inner?: { name?: string } })?.inner?.name ?? (error as { name?: string })?.name;
  if (name !== 'QuotaExceededError' || quotaReported) return;
  quotaReported = true;
  toast.error('This device’s storage is full: what you open now will not be readable offline. Free some space on the device.');
}

export async function saveAnswer(
  key: string,
  businessId: number,
  resource: string,
  body: unknown,
  records: Record<string, unknown>[],
  display: string,
): Promise<void> {
  if (!database) return;
  const savedAt = Date.now();
  try {
    await database.transaction('rw', database.answers, database.records, async () => {
      await database?.answers.put({ key, businessId, resource, savedAt, body });
      await database?.records.bulkPut(
        records.map((record) => ({
          key: `${businessId}|${resource}|${String(record.id)}`,
          businessId,
          resource,
          text: String(record[display] ?? '').toLowerCase(),
          record,
          savedAt,
        })),
      );
    });
  } catch (error) {
    reportQuota(error);
  }
}

export async function readAnswer(key: string): Promise<{ body: unknown; savedAt: number } | undefined> {
  return database?.answers.get(key).catch(() => undefined);
}

/** One kept record, as it was last seen in a list or on its own. */
export async function readRecord(
  businessId: number,
  resource: string,
  id: number,
): Promise<{ record: Record<string, unknown>; savedAt: number } | undefined> {
  return database?.records.get(`${businessId}|${resource}|${id}`).catch(() => undefined);
}

/** Up to `limit` kept records of a resource whose display contains `term`. */
export async function searchRecords(businessId: number, resource: string, term: string, limit: number): Promise<Record<string, unknown>[]> {
  if (!database) return [];
  const folded = term.trim().toLowerCase();
  const rows = await database.records
    .where('[businessId+resource]')
    .equals([businessId, resource])
    .filter((row) => row.text.includes(folded) && !row.record.deleted_at)
    .limit(limit)
    .toArray();
  return rows.map((row) => row.record);
}

/** A failure that means "no network", as opposed to an answer from the server. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

export class NotAvailableOffline extends ApiError {
  constructor(what: string) {
    super(0, `You are offline, and ${what} has not been opened on this device yet, so it is not available offline.`);
  }
}
