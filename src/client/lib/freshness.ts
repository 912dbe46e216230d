import { useSyncExternalStore } from 'react';
import { loadAhead } from './load-ahead';
import type * as WorkingSet from './working-set';
import type { WorkingSetStatus } from './working-set';

/**
 * How fresh what a screen shows is, in words: the header's sync indicator ("Online · live
 * updates", "Offline since 10:42", "Getting 48,210 items ready for offline use — 62 %") and the
 * age of stock read from this device ("12 on hand as of 10:42").
 *
 * The words are made from the working set's status (lib/working-set.ts). The header reads it
 * through `useSyncStatus`, which loads the sync engine's module after the first screen instead of
 * with it: until then the status is the browser's own online flag.
 */

// As lib/format.ts writes moments (not imported from there: the header, on every first screen, needs only this).
// Made when first used: the first formatter in Manila's time zone loads the browser's zone data,
// a sixth of a second of the entry's start on a phone, for words a first start does not show.
const manila = (options: Intl.DateTimeFormatOptions, locale?: string) => {
  let made: Intl.DateTimeFormat | undefined;
  return () => (made ??= new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Manila', ...options }));
};
const manilaClock = manila({ timeStyle: 'short' });
const manilaDateAndClock = manila({ dateStyle: 'medium', timeStyle: 'short' });
const manilaDayAndClock = manila({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const manilaDay = manila({ year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA');
const countFormat = new Intl.NumberFormat('en-PH');

/**
 * A moment as the clock in Manila showed it ("10:42 AM"), as lib/format.ts writes times; another
 * day than `now` adds its date ("Nov 27, 10:42 AM"), and another year the year too.
 */
export function clockTime(at: number, now = Date.now()): string {
  const [day, today] = [manilaDay().format(at), manilaDay().format(now)];
  if (day === today) return manilaClock().format(at);
  return day.slice(0, 4) === today.slice(0, 4) ? manilaDayAndClock().format(at) : manilaDateAndClock().format(at);
}

/** How much of the first download is done, rounded down: 99 % until the last record is in. */
export function progressPercent(progress: NonNullable<WorkingSetStatus['progress']>): number {
  if (progress.total <= 0) return 0;
  return Math.min(100, Math.floor((progress.done / progress.total) * 100));
}

/** "Getting 48,210 items ready for offline use — 62 %" */
export function progressSentence(progress: NonNullable<WorkingSetStatus['progress']>): string {
  return `Getting ${countFormat.format(progress.total)} ${progress.label} ready for offline use — ${progressPercent(progress)} %`;
}

/** What the indicator looks like: which icon and colour. */
export type SyncTone = 'live' | 'connecting' | 'online' | 'downloading' | 'offline' | 'problem';

/** The indicator's words for one status. */
export interface SyncWords {
  tone: SyncTone;
  /** The title and accessible name of the indicator, and the heading of its popover. */
  headline: string;
  /** A few words beside the icon on wider screens; none where the icon says it all. */
  short: string | null;
  /** The rest, in sentences, for the popover. */
  details: string[];
  /** The first download's percentage, for its bar; null when none runs. */
  percent: number | null;
}

/**
 * The indicator's words. What matters most leads: being offline (what is shown is as old as the
 * time it says), then a problem keeping the working set, then the first download, then whether
 * other devices' changes arrive live.
 */
export function syncWords(status: WorkingSetStatus, now = Date.now()): SyncWords {
  const progress = status.phase === 'downloading' ? status.progress : null;
  const percent = progress ? progressPercent(progress) : null;
  const synced = status.syncedAt === null ? null : clockTime(status.syncedAt, now);
  const details: string[] = [];

  if (!status.online) {
    const since = status.offlineSince === null ? null : clockTime(status.offlineSince, now);
    if (synced) details.push(`What this device kept was last brought up to date at ${synced}.`);
    if (progress) details.push(`Getting ready for offline use stopped at ${percent} %; it goes on when the connection is back.`);
    if (status.problem) details.push(status.problem);
    details.push('Changes you make wait in Pending changes and are sent when the connection is back.');
    return {
      tone: 'offline',
      headline: since ? `Offline since ${since}` : 'Offline',
      short: since ? `Offline since ${since}` : 'Offline',
      details,
      percent,
    };
  }
  if (status.problem) {
    return { tone: 'problem', headline: status.problem, short: 'Not kept offline', details, percent: null };
  }
  if (status.phase === 'downloading') {
    details.push('You can keep working meanwhile: once it is done, every item can be scanned, priced and counted with no connection.');
    if (progress) return { tone: 'downloading', headline: progressSentence(progress), short: `${percent} %`, details, percent };
    return { tone: 'downloading', headline: 'Getting this device ready for offline use', short: 'Getting ready', details, percent: null };
  }
  if (status.phase === 'following' && status.live) {
    details.push('Changes made on other devices show here within seconds.');
    return {
      tone: 'live',
      headline: synced ? `Online · live updates. Up to date at ${synced}` : 'Online · live updates',
      short: null,
      details,
      percent: null,
    };
  }
  if (status.phase === 'following') {
    details.push('Live updates from other devices are reconnecting; screens read the server when they open.');
    if (synced) details.push(`Last brought up to date at ${synced}.`);
    return { tone: 'connecting', headline: 'Online · reconnecting live updates', short: 'Reconnecting', details, percent: null };
  }
  return { tone: 'online', headline: 'Online', short: null, details, percent: null };
}

/** What `shownAsOf` reads of the working set's status. */
export type AsOfStatus = Pick<WorkingSetStatus, 'phase' | 'online' | 'syncedAt'>;

/** What was read, as far as its freshness goes. */
export interface ReadCopy {
  /** Set when the answer is the copy kept on this device (resource-queries.ts): when it was saved. */
  savedOffline?: number;
  /** When the answer was read (TanStack Query's `dataUpdatedAt`). */
  fetchedAt?: number;
  /** The records are of a resource the working set keeps (domain/working-set.ts `inWorkingSet`). */
  workingSet?: boolean;
}

/**
 * Since when what `read` shows is known to be true, when it may be older than what the server
 * holds; undefined when it was read from the server and nothing says it is out of date.
 *
 * A copy kept on this device is as old as it was saved, or, for a resource of a working set that
 * is being kept current, as old as the working set's last update if that is older (a search of
 * the kept records answers with the time of the search). An answer read from the server and still
 * on screen after the connection went is as old as its reading.
 */
export function shownAsOf(read: ReadCopy, status: AsOfStatus): number | undefined {
  const kept = read.workingSet && status.phase === 'following' ? status.syncedAt : null;
  if (read.savedOffline !== undefined) return kept === null ? read.savedOffline : Math.min(read.savedOffline, kept);
  if (status.online) return undefined;
  return read.fetchedAt || (kept ?? undefined);
}

/** " as of 10:42 AM" after a figure whose copy is `asOf` old; nothing when it is current. */
export function asOfWords(asOf: number | undefined, now = Date.now()): string {
  return asOf === undefined ? '' : ` as of ${clockTime(asOf, now)}`;
}

/** "12 on hand", or "12 on hand as of 10:42 AM" when the figure comes from an older copy. */
export function onHandWords(quantity: number | string, asOf: number | undefined, now = Date.now()): string {
  return `${quantity} on hand${asOfWords(asOf, now)}`;
}

// The status, read without loading the engine with the first screen.

let engine: typeof WorkingSet | undefined;
const loadEngine = loadAhead(() => import('./working-set'));

const browserOnly: Record<'online' | 'offline', WorkingSetStatus> = {
  online: { phase: 'off', live: false, online: true, offlineSince: null, syncedAt: null, progress: null, problem: null },
  offline: { phase: 'off', live: false, online: false, offlineSince: null, syncedAt: null, progress: null, problem: null },
};

function subscribe(listener: () => void): () => void {
  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  // Not loaded (offline with no service worker to hold it): the browser's flag still tells online from offline.
  loadEngine().then(
    (module) => {
      engine = module;
      if (stopped) return;
      unsubscribe = module.subscribeToWorkingSet(listener);
      listener();
    },
    () => undefined,
  );
  return () => {
    stopped = true;
    unsubscribe?.();
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const snapshot = (): WorkingSetStatus => engine?.workingSetStatus() ?? browserOnly[navigator.onLine ? 'online' : 'offline'];

/** The working set's status, re-rendering as it changes; the browser's online flag until the engine's module has loaded. */
export function useSyncStatus(): WorkingSetStatus {
  return useSyncExternalStore(subscribe, snapshot);
}

let asOfHeld: AsOfStatus = browserOnly.online;
/** The status's part `shownAsOf` reads, the same object while that part stays the same. */
const asOfSnapshot = (): AsOfStatus => {
  const { phase, online, syncedAt } = snapshot();
  if (phase !== asOfHeld.phase || online !== asOfHeld.online || syncedAt !== asOfHeld.syncedAt) asOfHeld = { phase, online, syncedAt };
  return asOfHeld;
};

/**
 * The part of the status `shownAsOf` reads, re-rendering only as it changes: not at each step of
 * a first download, which a screen showing how old its figures are has nothing to redraw for.
 */
export function useAsOfStatus(): AsOfStatus {
  return useSyncExternalStore(subscribe, asOfSnapshot);
}
