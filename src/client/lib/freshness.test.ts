import { describe, expect, it } from 'vitest';
import { asOfWords, clockTime, onHandWords, progressSentence, shownAsOf, syncWords } from './freshness';
import { at1042, now, status } from '../../../tests/support/working-set-status';

describe('times on the clock of Manila', () => {
  it('says the time alone on the same day, the date too on another, and the year in another year', () => {
    expect(clockTime(at1042, now)).toMatch(/^10:42\b/);
    expect(clockTime(at1042, now)).not.toMatch(/28|Nov/);
    // 23:30 on the 27th in UTC is already 07:30 on the 28th in Manila: the same day there.
    expect(clockTime(Date.parse('2026-11-27T23:30:00Z'), now)).toMatch(/^7:30\b/);
    const yesterday = clockTime(Date.parse('2026-11-27T02:42:00Z'), now);
    expect(yesterday).toMatch(/27/);
    expect(yesterday).toMatch(/10:42/);
    expect(yesterday).not.toMatch(/2026/);
    expect(clockTime(Date.parse('2025-12-31T02:42:00Z'), now)).toMatch(/2025/);
  });
});

describe('the first download in words', () => {
  it('counts every record with thousands separators and rounds the percentage down', () => {
    expect(progressSentence({ resource: 'items', label: 'items', done: 29_999, total: 48_210 })).toBe(
      'Getting 48,210 items ready for offline use — 62 %',
    );
    expect(progressSentence({ resource: 'items', label: 'items', done: 48_209, total: 48_210 })).toBe(
      'Getting 48,210 items ready for offline use — 99 %',
    );
    expect(progressSentence({ resource: 'stocks', label: 'stocks', done: 0, total: 0 })).toBe(
      'Getting 0 stocks ready for offline use — 0 %',
    );
  });
});

describe("the sync indicator's words", () => {
  it('online and live: says so, and when it was last up to date', () => {
    const words = syncWords(status({}), now);
    expect(words.tone).toBe('live');
    expect(words.headline).toMatch(/^Online · live updates\. Up to date at 10:42\b/);
    expect(syncWords(status({ syncedAt: null }), now).headline).toBe('Online · live updates');
  });

  it('downloading: the exact progress sentence, and a short percentage', () => {
    const words = syncWords(
      status({ phase: 'downloading', live: false, progress: { resource: 'items', label: 'items', done: 31_000, total: 48_210 } }),
      now,
    );
    expect(words).toMatchObject({
      tone: 'downloading',
      headline: 'Getting 48,210 items ready for offline use — 64 %',
      short: '64 %',
      percent: 64,
    });
    // Before the manifest says how much there is.
    expect(syncWords(status({ phase: 'downloading', progress: null }), now)).toMatchObject({
      tone: 'downloading',
      headline: 'Getting this device ready for offline use',
      percent: null,
    });
  });

  it('online without the live stream: says it is reconnecting, not that it is live', () => {
    const words = syncWords(status({ live: false }), now);
    expect(words.tone).toBe('connecting');
    expect(words.headline).toBe('Online · reconnecting live updates');
    expect(words.headline).not.toMatch(/live updates\./);
  });

  it('offline: since when, with the date when that was another day', () => {
    const words = syncWords(status({ online: false, live: false, offlineSince: at1042 }), now);
    expect(words.tone).toBe('offline');
    expect(words.headline).toMatch(/^Offline since 10:42\b/);
    expect(syncWords(status({ online: false, live: false, offlineSince: Date.parse('2026-11-26T02:42:00Z') }), now).headline).toMatch(
      /^Offline since .*26.*10:42/,
    );
    expect(syncWords(status({ online: false, live: false, offlineSince: null }), now).headline).toBe('Offline');
    // A first download cut short by the connection says how far it got.
    const cut = syncWords(
      status({
        online: false,
        live: false,
        phase: 'downloading',
        offlineSince: at1042,
        progress: { resource: 'items', label: 'items', done: 1, total: 4 },
      }),
      now,
    );
    expect(cut.details).toContain('Getting ready for offline use stopped at 25 %; it goes on when the connection is back.');
  });

  it('a problem keeping the working set: its sentence, in a warning tone', () => {
    const problem = 'This device has no room to keep the catalogue offline: what you open still reads back offline, as before.';
    const words = syncWords(status({ phase: 'unavailable', live: false, syncedAt: null, problem }), now);
    expect(words).toMatchObject({ tone: 'problem', headline: problem });
    // Offline, being offline leads and the problem is still told.
    const offline = syncWords(status({ phase: 'unavailable', online: false, live: false, problem, offlineSince: at1042 }), now);
    expect(offline.tone).toBe('offline');
    expect(offline.details).toContain(problem);
  });

  it('with no working set running, only online or offline', () => {
    expect(syncWords(status({ phase: 'off', live: false, syncedAt: null }), now)).toMatchObject({ tone: 'online', headline: 'Online' });
  });
});

describe('how old a figure shown is', () => {
  it('online and read from the server: no "as of"', () => {
    expect(shownAsOf({ fetchedAt: at1042, workingSet: true }, status({}))).toBeUndefined();
    expect(shownAsOf({ fetchedAt: at1042, workingSet: true }, status({ live: false }))).toBeUndefined();
  });

  it('a copy kept on this device: the time it was saved', () => {
    const saved = Date.parse('2026-11-28T01:00:00Z');
    expect(shownAsOf({ savedOffline: saved, workingSet: false }, status({ online: false }))).toBe(saved);
    // A copy is a copy even if the connection is back.
    expect(shownAsOf({ savedOffline: saved, workingSet: true }, status({}))).toBe(saved);
  });

  it("a copy of the working set: no newer than the working set's last update", () => {
    // A search of the kept records is stamped with the time of the search; the records are as old as the last sync.
    const offline = status({ online: false, live: false, offlineSince: at1042 });
    expect(shownAsOf({ savedOffline: now, workingSet: true }, offline)).toBe(at1042);
    const older = Date.parse('2026-11-28T00:00:00Z');
    expect(shownAsOf({ savedOffline: older, workingSet: true }, offline)).toBe(older);
    // Not yet downloaded whole: only the copy's own time.
    expect(shownAsOf({ savedOffline: now, workingSet: true }, status({ ...offline, phase: 'downloading' }))).toBe(now);
  });

  it('read from the server and still on screen after the connection went: the time it was read', () => {
    const offline = status({ online: false, live: false, offlineSince: now });
    expect(shownAsOf({ fetchedAt: at1042, workingSet: true }, offline)).toBe(at1042);
    expect(shownAsOf({ workingSet: true }, offline)).toBe(at1042);
  });

  it('says it in words after the figure', () => {
    expect(onHandWords(12, undefined, now)).toBe('12 on hand');
    expect(onHandWords(12, at1042, now)).toMatch(/^12 on hand as of 10:42\b/);
    expect(asOfWords(undefined, now)).toBe('');
    expect(asOfWords(at1042, now)).toMatch(/^ as of 10:42\b/);
  });
});
