import type { Dexie, Table } from 'dexie';
import { toast } from 'sonner';
import { ApiError } from './api';

/**
 * What this device has seen, for reading back without a network: every successful list and
 * record answer, in one IndexedDB database per signed-in user, keyed by business so that one
 * business never shows another's rows. Records are also kept one by one, so a picker can search
 * them offline. Dexie loads on demand, so the first screen does not wait for it.
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

type OfflineDatabase = Dexie & {
  answers: Table<SavedAnswer, string>;
  records: Table<SavedRecord, string>;
};

const databaseName = (userId: number) => `bodega-user-${userId}`;
const loadDexie = () => import('dexie').then((module) => module.default);

let openName: string | null = null;
let opening: Promise<OfflineDatabase> | null = null;
let quotaReported = false;

/** Opens the signed-in user's database (and asks the browser to keep it through storage pressure). */
export function openOfflineStore(userId: number): void {
  const name = databaseName(userId);
  if (openName === name) return;
  const previous = opening;
  openName = name;
  opening = loadDexie().then(async (DexieClass) => {
    (await previous)?.close();
    const database = new DexieClass(name) as OfflineDatabase;
    database.version(1).stores({ answers: 'key, [businessId+resource]', records: 'key, [businessId+resource]' });
    return database;
  });
  void navigator.storage?.persist?.().catch(() => undefined);
}

/** Deletes the signed-in user's database: on logout nothing of theirs stays on the device. */
export async function deleteOfflineStore(): Promise<void> {
  if (!opening || !openName) return;
  const name = openName;
  (await opening).close();
  opening = null;
  openName = null;
  await (await loadDexie()).delete(name);
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
  if (!opening) return;
  const savedAt = Date.now();
  try {
    const database = await opening;
    await database.transaction('rw', database.answers, database.records, async () => {
      await database.answers.put({ key, businessId, resource, savedAt, body });
      await database.records.bulkPut(
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
  return opening?.then((database) => database.answers.get(key)).catch(() => undefined);
}

/** One kept record, as it was last seen in a list or on its own. */
export async function readRecord(
  businessId: number,
  resource: string,
  id: number,
): Promise<{ record: Record<string, unknown>; savedAt: number } | undefined> {
  return opening?.then((database) => database.records.get(`${businessId}|${resource}|${id}`)).catch(() => undefined);
}

/** Up to `limit` kept records of a resource whose display contains `term`. */
export async function searchRecords(businessId: number, resource: string, term: string, limit: number): Promise<Record<string, unknown>[]> {
  if (!opening) return [];
  const folded = term.trim().toLowerCase();
  const rows = await (
    await opening
  ).records
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
