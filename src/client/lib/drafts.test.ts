// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setActiveBusinessId } from './api';
import { DRAFT_DAYS, draftOf, dropDraft, keepDraft, KEEP_AFTER_MS, useDraft } from './drafts';
import { offlineDatabase, openOfflineStore, type OfflineDatabase } from './offline-store';

/**
 * Drafts against an in-memory IndexedDB: kept per user and per business, old ones dropped, and
 * the hook a form keeps its draft with — read once and taken back, written a moment after the
 * last change or at once when the page is hidden, dropped when blank or discarded.
 */

const BUSINESS = 4;
const DAY = 24 * 60 * 60 * 1000;
let nextUser = 7000;
let db: OfflineDatabase;

interface Sale {
  customer: string;
  lines: string[];
}
const blank = (sale: Sale) => sale.customer === '' && sale.lines.length === 0;
const empty: Sale = { customer: '', lines: [] };
const halfMade: Sale = { customer: 'Carinderia ni Mang Tomas', lines: ['Beef Noodles'] };

async function signIn(userId = nextUser++): Promise<OfflineDatabase> {
  openOfflineStore(userId);
  db = (await offlineDatabase())!;
  return db;
}

beforeEach(async () => {
  setActiveBusinessId(BUSINESS);
  await signIn();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('keepDraft, draftOf and dropDraft', () => {
  it('keep a draft per screen in the active business, replaced by the next and gone when dropped', async () => {
    await keepDraft('invoices/create', halfMade, 'Create Invoice');
    await keepDraft('invoices/7/edit', { note: 'other' });
    expect(await draftOf('invoices/create')).toEqual(halfMade);
    const row = await db.drafts.get(`${BUSINESS}|invoices/create`);
    expect(row).toMatchObject({ businessId: BUSINESS, label: 'Create Invoice', value: halfMade });

    await keepDraft('invoices/create', { ...halfMade, lines: [] });
    expect(await draftOf('invoices/create')).toEqual({ ...halfMade, lines: [] });
    await dropDraft('invoices/create');
    expect(await draftOf('invoices/create')).toBeUndefined();
    expect(await draftOf('invoices/7/edit')).toEqual({ note: 'other' });
  });

  it('never shows one business’s draft in another', async () => {
    await keepDraft('invoices/create', halfMade);
    setActiveBusinessId(5);
    expect(await draftOf('invoices/create')).toBeUndefined();
    await dropDraft('invoices/create');
    setActiveBusinessId(BUSINESS);
    expect(await draftOf('invoices/create')).toEqual(halfMade);
  });

  it('never shows one user’s draft to another on the same device', async () => {
    const first = nextUser++;
    await signIn(first);
    await keepDraft('invoices/create', halfMade);
    await signIn();
    expect(await draftOf('invoices/create')).toBeUndefined();
    await signIn(first);
    expect(await draftOf('invoices/create')).toEqual(halfMade);
  });

  it('drops drafts older than 30 days when the store is first reached', async () => {
    // Written before anything of drafts.ts reached this store.
    const fresh = await signIn();
    const at = (days: number) => Date.now() - days * DAY;
    await fresh.drafts.bulkPut([
      { key: `${BUSINESS}|old`, businessId: BUSINESS, value: 'old', savedAt: at(DRAFT_DAYS + 1) },
      { key: `${BUSINESS}|recent`, businessId: BUSINESS, value: 'recent', savedAt: at(DRAFT_DAYS - 1) },
    ]);
    expect(await draftOf('recent')).toBe('recent');
    expect(await draftOf('old')).toBeUndefined();
    expect(await fresh.drafts.count()).toBe(1);
  });
});

/** A form's sale held in state, as a screen holds it, with its draft. */
function renderSale(key: string | null, start: Sale, restore = (_sale: Sale): void | false => undefined) {
  return renderHook(({ sale }: { sale: Sale }) => useDraft(key, sale, { blank, restore, label: 'Counter sale' }), {
    initialProps: { sale: start },
  });
}

const kept = () => db.drafts.get(`${BUSINESS}|counter`);

describe('useDraft', () => {
  it('reads the draft once and gives it to restore, saying when it was kept', async () => {
    await keepDraft('counter', halfMade);
    const savedAt = (await kept())!.savedAt;
    const restore = vi.fn();
    const { result, rerender } = renderSale('counter', empty, restore);
    await until(() => result.current.restored);
    expect(restore).toHaveBeenCalledExactlyOnceWith(halfMade);
    expect(result.current.savedAt).toBe(savedAt);

    // The restored value, as the screen then holds it, is not written again.
    rerender({ sale: halfMade });
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect((await kept())!.savedAt).toBe(savedAt);
    expect(restore).toHaveBeenCalledOnce();
  });

  it('gives no blank draft to restore, and drops it', async () => {
    await keepDraft('counter', empty);
    const restore = vi.fn();
    const { result } = renderSale('counter', empty, restore);
    await until(async () => (await kept()) === undefined);
    expect(restore).not.toHaveBeenCalled();
    expect(result.current.restored).toBe(false);
  });

  it('drops a draft restore refuses (an edit of a record changed since)', async () => {
    await keepDraft('counter', halfMade);
    const restore = vi.fn((): false => false);
    const { result } = renderSale('counter', empty, restore);
    await until(async () => (await kept()) === undefined);
    expect(restore).toHaveBeenCalledOnce();
    expect(result.current).toMatchObject({ restored: false, savedAt: null });
  });

  it('reads nothing until the key is given', async () => {
    await keepDraft('counter', halfMade);
    const restore = vi.fn();
    const { result, rerender } = renderHook(({ key }: { key: string | null }) => useDraft(key, empty, { blank, restore }), {
      initialProps: { key: null as string | null },
    });
    // A read of another draft, done after any the hook would have started.
    await draftOf('counter');
    expect(restore).not.toHaveBeenCalled();
    rerender({ key: 'counter' });
    await until(() => result.current.restored);
    expect(restore).toHaveBeenCalledExactlyOnceWith(halfMade);
  });

  it('keeps the value a moment after it last changed, and a blank value drops it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { result, rerender } = renderSale('counter', { customer: 'Carinderia', lines: [] });
    await waiting();
    vi.advanceTimersByTime(KEEP_AFTER_MS - 1);
    rerender({ sale: halfMade });
    vi.advanceTimersByTime(KEEP_AFTER_MS - 1);
    expect(await kept()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(await kept()).toMatchObject({ value: halfMade, label: 'Counter sale', businessId: BUSINESS });
    expect(result.current.restored).toBe(false);

    rerender({ sale: empty });
    expect(vi.getTimerCount()).toBe(0);
    await until(async () => (await kept()) === undefined);
  });

  it('is not held back by a screen that renders again with the same value', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { rerender } = renderSale('counter', halfMade);
    await waiting();
    // Prices and stock arriving render the screen again and again, each time with an equal new object.
    for (let render = 0; render < 5; render += 1) {
      vi.advanceTimersByTime(KEEP_AFTER_MS / 2);
      rerender({ sale: structuredClone(halfMade) });
    }
    expect(await kept()).toMatchObject({ value: halfMade });
  });

  it('keeps what waits at once when the page is hidden, or the screen goes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { rerender, unmount } = renderSale('counter', halfMade);
    await waiting();
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect((await kept())?.value).toEqual(halfMade);

    const more = { ...halfMade, lines: ['Beef Noodles', 'Pancit Canton'] };
    rerender({ sale: more });
    setVisibility('hidden');
    expect((await kept())?.value).toEqual(more);
    setVisibility('visible');

    const last = { ...more, customer: 'Walk-in' };
    rerender({ sale: last });
    unmount();
    expect((await kept())?.value).toEqual(last);
  });

  it('writes under the business the screen opened in, though another is chosen before it is written', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { unmount } = renderSale('counter', halfMade);
    await waiting();
    // The switch reads the user again: the screen goes, and its draft is written as it goes.
    act(() => setActiveBusinessId(5));
    unmount();
    expect((await kept())?.value).toEqual(halfMade);
    expect(await draftOf('counter')).toBeUndefined();
  });

  it('discard drops the draft taken back, and keeps nothing of it as the screen goes', async () => {
    await keepDraft('counter', halfMade);
    const { result, rerender, unmount } = renderSale('counter', empty);
    await until(() => result.current.restored);
    rerender({ sale: { ...halfMade, customer: 'Walk-in' } });
    await act(() => result.current.discard());
    expect(result.current).toMatchObject({ restored: false, savedAt: null });
    expect(await kept()).toBeUndefined();
    unmount();
    expect(await kept()).toBeUndefined();
  });
});

/** Until `check` holds, looked at between tasks that the fake timers leave alone (the in-memory IndexedDB's own). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
}

/** Until the hook, its draft read (none), waits to keep what the screen holds: its one timer set. */
const waiting = () => until(() => vi.getTimerCount() > 0);

function setVisibility(state: DocumentVisibilityState): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => void document.dispatchEvent(new Event('visibilitychange')));
}
