// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxSnapshot } from '../../lib/outbox-snapshot';
import type { WorkingSetStatus } from '../../lib/working-set';
import { at1042, now, status } from '../../../../tests/support/working-set-status';

// The engine's status, as the test sets it; the header reads it through lib/freshness.ts.
const engine = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  return {
    status: undefined as unknown as WorkingSetStatus,
    listeners,
    syncNow: vi.fn(),
    set(next: WorkingSetStatus) {
      this.status = next;
      for (const listener of listeners) listener();
    },
  };
});
vi.mock('../../lib/working-set', () => ({
  workingSetStatus: () => engine.status,
  subscribeToWorkingSet: (listener: () => void) => {
    engine.listeners.add(listener);
    return () => engine.listeners.delete(listener);
  },
  useWorkingSetStatus: () => engine.status,
  syncNow: engine.syncNow,
}));

const outbox = vi.hoisted(() => ({ snapshot: { loaded: true, entries: [] } as OutboxSnapshot }));
vi.mock('../../lib/pending', () => ({ useOutbox: () => outbox.snapshot }));

// The popover's link, outside a router: a plain link to the same place.
vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, ...props }: { to: string; children: ReactNode }) => (
    <a href={to} {...props}>
      {children}
    </a>
  ),
}));

const { SyncIndicator } = await import('./sync-indicator');

const indicator = () => screen.getByTestId('sync-indicator');

beforeAll(() => {
  // Radix positions the popover with ResizeObserver, which jsdom lacks.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  engine.status = status({});
  outbox.snapshot = { loaded: true, entries: [] };
  engine.syncNow.mockClear();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

afterAll(() => vi.resetModules());

/** Renders the indicator once the engine's module has loaded and it shows the engine's status. */
async function renderIndicator() {
  render(<SyncIndicator />);
  await act(() => vi.waitFor(() => expect(engine.listeners.size).toBeGreaterThan(0)));
}

describe('the sync indicator in the header', () => {
  it('online and live: a green mark, "Online · live updates" and when it was last up to date', async () => {
    await renderIndicator();
    expect(indicator().dataset.tone).toBe('live');
    expect(indicator().getAttribute('aria-label')).toMatch(/^Online · live updates\. Up to date at 10:42 AM$/);
    expect(indicator().title).toBe(indicator().getAttribute('aria-label'));
    expect(indicator().querySelector('.bg-emerald-500')).not.toBeNull();
    // Live needs no words beside the icon.
    expect(indicator().textContent).toBe('');
  });

  it('the first download: the exact sentence, its percentage beside the icon and a thin bar', async () => {
    engine.status = status({
      phase: 'downloading',
      live: false,
      syncedAt: null,
      progress: { resource: 'items', label: 'items', done: 29_990, total: 48_210 },
    });
    await renderIndicator();
    expect(indicator().dataset.tone).toBe('downloading');
    expect(indicator().getAttribute('aria-label')).toBe('Getting 48,210 items ready for offline use — 62 %');
    // Wider screens show the percentage, and the widest the sentence.
    expect(indicator().textContent).toBe('62 %Getting 48,210 items ready for offline use — 62 %');
    expect(indicator().querySelector<HTMLElement>('[style]')?.style.width).toBe('62%');

    // It follows the engine as the download goes on.
    act(() =>
      engine.set(
        status({ phase: 'downloading', live: false, progress: { resource: 'items', label: 'items', done: 48_209, total: 48_210 } }),
      ),
    );
    expect(indicator().getAttribute('aria-label')).toBe('Getting 48,210 items ready for offline use — 99 %');
    act(() => engine.set(status({})));
    expect(indicator().dataset.tone).toBe('live');
  });

  it('online without the live stream: says it is reconnecting, not live', async () => {
    engine.status = status({ live: false });
    await renderIndicator();
    expect(indicator().dataset.tone).toBe('connecting');
    expect(indicator().getAttribute('aria-label')).toBe('Online · reconnecting live updates');
    expect(indicator().querySelector('.bg-emerald-500')).toBeNull();
  });

  it('offline: since when, in the words of its title and beside the icon on wider screens', async () => {
    engine.status = status({ online: false, live: false, offlineSince: at1042 });
    await renderIndicator();
    expect(indicator().dataset.tone).toBe('offline');
    expect(indicator().getAttribute('aria-label')).toBe('Offline since 10:42 AM');
    expect(indicator().textContent).toBe('Offline since 10:42 AM');
    // Since yesterday: the date too.
    act(() => engine.set(status({ online: false, live: false, offlineSince: Date.parse('2026-11-27T02:42:00Z') })));
    expect(indicator().getAttribute('aria-label')).toBe('Offline since Nov 27, 10:42 AM');
  });

  it('a problem: its sentence, in a warning tone', async () => {
    const problem = 'This device has no room to keep the catalogue offline: what you open still reads back offline, as before.';
    engine.status = status({ phase: 'unavailable', live: false, syncedAt: null, problem });
    await renderIndicator();
    expect(indicator().dataset.tone).toBe('problem');
    expect(indicator().getAttribute('aria-label')).toBe(problem);
    expect(indicator().querySelector('.bg-warning')).not.toBeNull();
    // Its popover offers to try again, as the sentence asks.
    fireEvent.click(indicator());
    const popover = await screen.findByRole('dialog', { name: problem });
    fireEvent.click(within(popover).getByRole('button', { name: 'Retry' }));
    expect(engine.syncNow).toHaveBeenCalledOnce();
  });

  it('pressed, opens a popover saying it all, with Sync now and the pending changes', async () => {
    engine.status = status({ phase: 'downloading', live: false, progress: { resource: 'items', label: 'items', done: 1, total: 4 } });
    outbox.snapshot = {
      loaded: true,
      entries: [{ state: 'queued' }, { state: 'queued' }, { state: 'needs-attention' }] as OutboxSnapshot['entries'],
    };
    await renderIndicator();
    expect(indicator().getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(indicator());

    const popover = await screen.findByRole('dialog', { name: 'Getting 4 items ready for offline use — 25 %' });
    expect(indicator().getAttribute('aria-expanded')).toBe('true');
    expect(within(popover).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(within(popover).getByText('3 changes wait to be sent; 1 needs attention.')).toBeTruthy();
    expect(within(popover).getByRole('link', { name: 'Pending changes (3)' }).getAttribute('href')).toBe('/pending-changes');

    fireEvent.click(within(popover).getByRole('button', { name: 'Sync now' }));
    expect(engine.syncNow).toHaveBeenCalledOnce();

    // The popover follows the status while open; offline, Sync now waits for a connection.
    act(() => engine.set(status({ online: false, live: false, offlineSince: at1042 })));
    const offline = screen.getByRole('dialog', { name: 'Offline since 10:42 AM' });
    expect(within(offline).getByText('What this device kept was last brought up to date at 10:42 AM.')).toBeTruthy();
    expect(within(offline).getByRole('button', { name: 'Sync now' }).hasAttribute('disabled')).toBe(true);
  });
});
