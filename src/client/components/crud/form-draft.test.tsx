// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createBrowserHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Link,
  Outlet,
  RouterProvider,
  useNavigate,
  type AnyRouter,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { setActiveBusinessId } from '../../lib/api';
import { offlineDatabase, openOfflineStore, type OfflineDatabase } from '../../lib/offline-store';
import type { ApiRecord } from '../../lib/resource-queries';
import { sameValues, withNames } from './form-draft';
import { RecordForm, startingValues } from './record-form';

/**
 * The generic form keeps what is typed as a draft and asks before it is left (form-draft.tsx):
 * in a router over the browser's history, with the user's store in an in-memory IndexedDB and
 * the outbox answering every save at once.
 */

const outbox = vi.hoisted(() => ({ submitChange: vi.fn() }));
vi.mock('../../lib/outbox', () => ({
  submitChange: outbox.submitChange,
  amendCreate: vi.fn(),
  clientKey: () => 'client-key',
  isClientKey: () => false,
}));
// No permissions nor places to ask the server for: brands have no picker, and no field naming a place.
vi.mock('../../lib/session', async (original) => ({
  ...(await original<object>()),
  usePermissions: () => new Set<string>(),
}));
vi.mock('../../lib/places', async (original) => ({
  ...(await original<object>()),
  usePlaces: () => ({ places: undefined, all: null, loading: false, complete: false }),
}));

const BUSINESS = 4;
const brands = getResource('brands');
let nextUser = 9000;
let db: OfflineDatabase;

beforeAll(() => {
  // Radix's dialog measures with ResizeObserver, and the router scrolls, which jsdom does not.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  window.scrollTo = () => undefined;
});

beforeEach(async () => {
  setActiveBusinessId(BUSINESS);
  openOfflineStore(nextUser++);
  db = (await offlineDatabase())!;
  outbox.submitChange.mockReset();
  window.history.replaceState(null, '', '/');
});

afterEach(cleanup);

/** The brand form at `/brands/create` (or editing `record` at `/brands/{id}/edit`), a link away from it, and a list to save to. */
function app(record?: ApiRecord) {
  const root = createRootRoute({
    component: () => (
      <>
        <nav>
          <Link to={'/elsewhere' as never}>Elsewhere</Link>
        </nav>
        <Outlet />
      </>
    ),
  });
  function Form() {
    const navigate = useNavigate();
    return (
      <RecordForm
        definition={brands}
        record={record}
        initial={startingValues(brands, record)}
        draftKey={record ? `brands/${record.id}/edit` : 'brands/create'}
        onSaved={() => void navigate({ to: '/saved' as never })}
      />
    );
  }
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/', component: () => <h1>Start</h1> }),
    createRoute({ getParentRoute: () => root, path: '/brands/create', component: Form }),
    createRoute({ getParentRoute: () => root, path: '/brands/$id/edit', component: Form }),
    createRoute({ getParentRoute: () => root, path: '/elsewhere', component: () => <h1>Elsewhere</h1> }),
    createRoute({ getParentRoute: () => root, path: '/saved', component: () => <h1>Saved</h1> }),
  ];
  const router: AnyRouter = createRouter({ routeTree: root.addChildren(routes), history: createBrowserHistory() });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** Opens `path` in the app, as a link within it would. */
async function open(router: AnyRouter, path: string) {
  await act(() => router.navigate({ to: path }));
}

const nameBox = () => screen.findByLabelText<HTMLInputElement>(/^Name/);
const type = async (text: string) => fireEvent.change(await nameBox(), { target: { value: text } });
const kept = () => db.drafts.get(`${BUSINESS}|brands/create`);
const leaveQuestion = () => screen.findByRole('alertdialog', { name: 'Leave this form?' });
/** Presses `button`, and lets what it started (the router's answer to a choice of the dialog) run its course. */
async function press(button: HTMLElement): Promise<void> {
  await act(async () => {
    fireEvent.click(button);
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
}
/** Until `check` holds, looked at between the in-memory IndexedDB's tasks. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
}

describe('a form with changes not saved', () => {
  it('asks before a link leaves it: Stay keeps it as it was, Leave keeps the draft, which the form takes back', async () => {
    const router = app();
    await open(router, '/brands/create');
    await type('Lucky Me');

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const question = await leaveQuestion();
    expect(within(question).getByText('Your changes are kept as a draft on this device.')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Stay');
    await press(within(question).getByRole('button', { name: 'Stay' }));
    await until(() => screen.queryByRole('alertdialog') === null);
    expect(router.state.location.pathname).toBe('/brands/create');
    expect((await nameBox()).value).toBe('Lucky Me');

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await press(within(await leaveQuestion()).getByRole('button', { name: 'Leave (keep draft)' }));
    await screen.findByRole('heading', { name: 'Elsewhere' });
    await until(async () => (await kept()) !== undefined);
    expect((await kept())?.value).toMatchObject({ values: { name: 'Lucky Me', description: '' } });

    await open(router, '/brands/create');
    await screen.findByText(/^Restored your unsaved draft from/);
    expect((await nameBox()).value).toBe('Lucky Me');
  });

  it('Discard changes leaves, and the form opens again empty', async () => {
    const router = app();
    await open(router, '/brands/create');
    await type('Lucky Me');
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await press(within(await leaveQuestion()).getByRole('button', { name: 'Discard changes' }));
    await screen.findByRole('heading', { name: 'Elsewhere' });
    await until(async () => (await kept()) === undefined);

    await open(router, '/brands/create');
    expect((await nameBox()).value).toBe('');
  });

  it('asks when its own Back is pressed, and Stay keeps it', async () => {
    const router = app();
    await open(router, '/brands/create');
    await type('Lucky Me');
    await press(screen.getByRole('button', { name: 'Back' }));
    await press(within(await leaveQuestion()).getByRole('button', { name: 'Stay' }));
    await until(() => screen.queryByRole('alertdialog') === null && window.location.pathname === '/brands/create');
    expect((await nameBox()).value).toBe('Lucky Me');

    await press(screen.getByRole('button', { name: 'Back' }));
    await press(within(await leaveQuestion()).getByRole('button', { name: 'Leave (keep draft)' }));
    await screen.findByRole('heading', { name: 'Start' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('has the browser ask before the tab closes or reloads, only while it holds changes', async () => {
    const router = app();
    await open(router, '/brands/create');
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await nameBox();
    expect(unload()).toBe(false);
    await type('Lucky Me');
    expect(unload()).toBe(true);
    // Typed back to how it started: nothing to lose.
    await type('');
    expect(unload()).toBe(false);
  });

  it('leaves without asking once saved (or queued), and its draft goes', async () => {
    outbox.submitChange.mockResolvedValue({ sent: false });
    const router = app();
    await open(router, '/brands/create');
    await type('Lucky Me');
    await until(async () => (await kept()) !== undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Save Brand' }));
    await screen.findByRole('heading', { name: 'Saved' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(outbox.submitChange).toHaveBeenCalledOnce();
    await until(async () => (await kept()) === undefined);
  });
});

describe('a draft taken back', () => {
  it('says when it was kept, and Discard clears the form to its start and drops it', async () => {
    const savedAt = Date.parse('2026-11-28T02:42:00Z');
    await db.drafts.put({
      key: `${BUSINESS}|brands/create`,
      businessId: BUSINESS,
      value: { values: { name: 'Lucky Me', description: 'Noodles' }, names: {} },
      savedAt,
    });
    const router = app();
    await open(router, '/brands/create');
    const line = await screen.findByRole('status');
    expect(line.textContent).toMatch(/^Restored your unsaved draft from .*10:42.*·Discard$/);
    expect((await nameBox()).value).toBe('Lucky Me');

    fireEvent.click(within(line).getByRole('button', { name: 'Discard' }));
    expect((await nameBox()).value).toBe('');
    expect(screen.queryByRole('status')).toBeNull();
    await until(async () => (await kept()) === undefined);
    // Back at its start, the form leaves without asking.
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await screen.findByRole('heading', { name: 'Elsewhere' });
  });

  it('of an edit is taken back while the record is at the version it began from, else dropped with a word', async () => {
    const record = { id: 7, name: 'Lucky Me', description: '', version: 3, deleted_at: null } as ApiRecord;
    const draft = (version: number) => ({
      key: `${BUSINESS}|brands/7/edit`,
      businessId: BUSINESS,
      value: { values: { name: 'Lucky Me!', description: 'Noodles' }, names: {}, version },
      savedAt: Date.now(),
    });
    await db.drafts.put(draft(3));
    const router = app(record);
    await open(router, '/brands/7/edit');
    await screen.findByText(/^Restored your unsaved draft from/);
    expect((await nameBox()).value).toBe('Lucky Me!');
    cleanup();

    await db.drafts.put(draft(2));
    const again = app(record);
    await open(again, '/brands/7/edit');
    await screen.findByText('Your unsaved draft of this form was dropped: this brand was changed since it was begun.');
    expect((await nameBox()).value).toBe('Lucky Me');
    await until(async () => (await db.drafts.get(`${BUSINESS}|brands/7/edit`)) === undefined);
  });
});

describe('sameValues and withNames', () => {
  it('compare plain data through, the order of keys aside', () => {
    expect(sameValues({ a: 1, lines: [{ item_id: 2, quantity: '1' }] }, { lines: [{ quantity: '1', item_id: 2 }], a: 1 })).toBe(true);
    expect(sameValues({ lines: [{ quantity: '1' }] }, { lines: [{ quantity: '2' }] })).toBe(false);
    expect(sameValues({ lines: [] }, { lines: {} })).toBe(false);
    expect(sameValues({ a: null }, { a: '' })).toBe(false);
  });

  it('name what was picked for the pickers, while the form still holds it', () => {
    const names = { contact_id: { id: 12, display: 'Carinderia ni Mang Tomas' } };
    expect(withNames({ contact_id: 3, contact: { id: 3, display: 'Walk-in' } }, names, { contact_id: 12 })).toEqual({
      contact_id: 12,
      contact: { id: 12, display: 'Carinderia ni Mang Tomas' },
    });
    const record = { contact_id: 3, contact: { id: 3, display: 'Walk-in' } };
    expect(withNames(record, names, { contact_id: 3 })).toBe(record);
  });
});
