import { useCallback, useEffect, useRef, useState } from 'react';
import { activeBusinessId } from './api';
import { offlineDatabase, type KeptDraft, type OfflineDatabase } from './offline-store';
import { useActiveBusinessId } from './session';

export type { KeptDraft };

/**
 * Forms being filled, kept on the device as they are typed, so that nothing half-made is lost to
 * Back, a reload, a crash or a session the server ended: the screen that opens again finds its
 * draft and takes it back. A draft is kept in the signed-in user's own database (offline-store.ts),
 * never in localStorage, so a shared device never shows one user's draft to another; it is keyed
 * by business and by screen (`invoices/create`, `invoices/create/from/12`, `invoices/7/edit`).
 *
 * A sign-out deletes the user's database (session.ts, `useLogout`) and their drafts with it:
 * nothing of theirs stays on a shared device. A session the server ended keeps it, and the next
 * sign-in of the same user finds the drafts. Drafts not touched for 30 days are dropped the first
 * time this page reaches the user's store.
 *
 * A draft's value is plain data (what JSON holds): what is kept is compared by its JSON.
 */

/** How long a draft waits after the last change before it is written. */
export const KEEP_AFTER_MS = 300;
/** Drafts older than this are dropped. */
export const DRAFT_DAYS = 30;
const DRAFT_MS = DRAFT_DAYS * 24 * 60 * 60 * 1000;

const storedKey = (businessId: number | null, key: string) => `${businessId}|${key}`;

/** The stores whose old drafts were dropped in this page. */
const pruned = new WeakSet<OfflineDatabase>();

/** The signed-in user's store, its drafts older than 30 days dropped on first use; none before anyone signed in. */
async function store(): Promise<OfflineDatabase | null> {
  const database = await offlineDatabase();
  if (!database) return null;
  if (!pruned.has(database)) {
    pruned.add(database);
    const cutoff = Date.now() - DRAFT_MS;
    await database.drafts.filter((draft) => draft.savedAt < cutoff).delete();
  }
  return database;
}

const row = (businessId: number | null, key: string, value: unknown, label?: string): KeptDraft => ({
  key: storedKey(businessId, key),
  businessId,
  value,
  savedAt: Date.now(),
  ...(label !== undefined && { label }),
});

/** Keeps `value` as the draft of screen `key` in the active business, replacing the one before. */
export async function keepDraft(key: string, value: unknown, label?: string): Promise<void> {
  await (await store())?.drafts.put(row(activeBusinessId(), key, value, label));
}

/** The draft of screen `key` in the active business, if one is kept. */
export async function draftOf<T>(key: string): Promise<T | undefined> {
  const draft = await (await store())?.drafts.get(storedKey(activeBusinessId(), key));
  return draft?.value as T | undefined;
}

/** Drops the draft of screen `key` in the active business. */
export async function dropDraft(key: string): Promise<void> {
  await (await store())?.drafts.delete(storedKey(activeBusinessId(), key));
}

/**
 * Writes one screen's draft of one business as it changes: a change waits KEEP_AFTER_MS for the
 * next; a value like the one last kept (or restored) is not written again; a blank one drops it.
 * Failures are let go: a draft that could not be kept costs the form nothing.
 */
class Keeper<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The value waiting to be written, if any, and its JSON. */
  private pending: { value: T; json: string } | null = null;
  /** The JSON of the draft as kept now; null: none kept. */
  private kept: string | null = null;
  /** The store, once reached: a write then starts at once, within the event that asked for it (a page being hidden). */
  private database: OfflineDatabase | null = null;

  constructor(
    private readonly businessId: number | null,
    private readonly key: string,
    private readonly label: () => string | undefined,
  ) {}

  async read(): Promise<KeptDraft | undefined> {
    this.database = await store();
    const draft = await this.database?.drafts.get(storedKey(this.businessId, this.key));
    if (draft) this.kept = JSON.stringify(draft.value);
    return draft;
  }

  /** The draft read is taken back: it stays as it is until the value changes. */
  restored(value: T): void {
    this.kept = JSON.stringify(value);
  }

  changed(value: T, blank: boolean): void {
    const json = blank ? null : JSON.stringify(value);
    // The same value again (a screen that renders for other reasons) keeps its wait: it is no new change.
    if (json !== null && json === this.pending?.json) return;
    clearTimeout(this.timer);
    this.pending = null;
    if (json === null) {
      if (this.kept !== null) void this.drop();
      return;
    }
    if (json === this.kept) return;
    this.pending = { value, json };
    this.timer = setTimeout(() => this.flush(), KEEP_AFTER_MS);
  }

  /** Writes what waits, now. */
  flush(): void {
    clearTimeout(this.timer);
    const waiting = this.pending;
    this.pending = null;
    if (!waiting) return;
    this.kept = waiting.json;
    const kept = row(this.businessId, this.key, waiting.value, this.label());
    void this.write((drafts) => drafts.put(kept));
  }

  /** Drops the draft, and what waited to be written. */
  async drop(): Promise<void> {
    clearTimeout(this.timer);
    this.pending = null;
    this.kept = null;
    await this.write((drafts) => drafts.delete(storedKey(this.businessId, this.key)));
  }

  /** Once the store is reached, writes start in the order they are asked for. */
  private async write(change: (drafts: OfflineDatabase['drafts']) => Promise<unknown>): Promise<void> {
    try {
      const database = this.database ?? (await store());
      if (database) await change(database.drafts);
    } catch {
      // Not kept: the form goes on as it is.
    }
  }
}

/**
 * Keeps `value` as the draft of screen `key` (none: nothing yet) in the active business. When the
 * key is first given, the draft kept is read once and, unless `blank`, given to `restore`; one
 * `restore` answers `false` to (one made from a record since changed) is dropped. Then `value` is
 * kept while it is not blank, KEEP_AFTER_MS after it last changed, and at once when the page is
 * hidden or closed (a reload, a switch to another app) or the screen goes; a blank value drops the
 * draft. `restored`: a draft was taken back, kept at `savedAt`; `discard` drops it.
 */
export function useDraft<T>(
  key: string | null,
  value: T,
  options: { blank: (value: T) => boolean; restore: (value: T) => void | false; label?: string },
): { restored: boolean; savedAt: number | null; discard: () => Promise<void> } {
  const businessId = useActiveBusinessId();
  const identity = key === null ? null : storedKey(businessId, key);
  const latest = useRef({ value, options });
  useEffect(() => {
    latest.current = { value, options };
  });
  const keeper = useRef<Keeper<T> | null>(null);
  const [taken, setTaken] = useState<{ identity: string; savedAt: number } | null>(null);

  useEffect(() => {
    if (key === null) return;
    const reading = new Keeper<T>(businessId, key, () => latest.current.options.label);
    let current = true;
    void reading
      .read()
      .catch(() => undefined)
      .then(async (draft) => {
        if (!current) return;
        const { blank, restore } = latest.current.options;
        const value = draft?.value as T;
        const restoring = draft !== undefined && !blank(value) && restore(value) !== false;
        if (restoring) {
          reading.restored(value);
          setTaken({ identity: storedKey(businessId, key), savedAt: draft.savedAt });
        } else if (draft) await reading.drop();
        if (!current) return;
        keeper.current = reading;
        // What was typed while the draft was read, unless the draft replaced it.
        if (!restoring) reading.changed(latest.current.value, latest.current.options.blank(latest.current.value));
      });
    const hidden = () => {
      if (document.visibilityState === 'hidden') reading.flush();
    };
    const flush = () => reading.flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      current = false;
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', hidden);
      reading.flush();
      if (keeper.current === reading) keeper.current = null;
    };
    // Read once per screen and business; what is typed reaches the keeper by the effect below.
  }, [key, businessId]);

  useEffect(() => {
    keeper.current?.changed(value, latest.current.options.blank(value));
  }, [value]);

  const discard = useCallback(async () => {
    setTaken(null);
    await keeper.current?.drop();
  }, []);
  const restored = taken !== null && taken.identity === identity;
  return { restored, savedAt: restored ? taken.savedAt : null, discard };
}
