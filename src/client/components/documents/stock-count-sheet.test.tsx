// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import type { ApiRecord } from '../../lib/resource-queries';
import type { CountLine } from './stock-count-sheet';

// The server, as the sheet asks it for a page of lines.
const server = vi.hoisted(() => ({ lines: [] as unknown[] }));
vi.mock('../../lib/api', async (original) => ({
  ...(await original<object>()),
  api: async () => ({
    data: server.lines,
    meta: { total: server.lines.length, per_page: 100, current_page: 1, last_page: 1, from: 1, to: server.lines.length },
  }),
}));
vi.mock('../../lib/offline-store', () => ({
  isNetworkFailure: () => false,
  NotAvailableOffline: class extends Error {},
  readAnswer: async () => undefined,
  saveAnswer: async () => undefined,
}));
const outbox = vi.hoisted(() => ({ submitChange: vi.fn(async () => ({ sent: true, data: {} })) }));
vi.mock('../../lib/outbox', () => ({
  isClientKey: (id: unknown) => typeof id === 'string',
  submitChange: outbox.submitChange,
}));
vi.mock('../../lib/pending', () => ({ useOutbox: () => ({ loaded: true, entries: [] }) }));
vi.mock('../../lib/session', () => ({
  useActiveBusinessId: () => 1,
  // A warehouse clerk: counts, and may post.
  usePermissions: () => new Set(['view-stock-counts', 'update-stock-counts', 'create-stock-adjustments']),
}));
vi.mock('../../lib/resource-queries', () => ({
  listQuery: () => ({ queryKey: ['items'], queryFn: async () => ({ data: [] }) }),
  recordQuery: () => ({ queryKey: ['item'], queryFn: async () => ({}) }),
}));
vi.mock('../../lib/notify', () => ({ toast: { success: vi.fn(), info: vi.fn(), error: vi.fn() } }));
vi.mock('../scan/camera-scanner', () => ({ CameraScanButton: () => null }));
vi.mock('../scan/barcode-reader', () => ({ signalRead: () => undefined }));
// Scanned, the soy sauce's SKU finds it; any other code, nothing.
vi.mock('../scan/item-by-code', () => ({
  useItemByCode: () => async (code: string) => (code === 'DP-SOY' ? { id: 11, name: 'Datu Puti Soy Sauce 1L', sku: 'DP-SOY' } : undefined),
}));

const { StockCountSheet } = await import('./stock-count-sheet');

const definition = getResource('stock-counts');
const count = (changes: Record<string, unknown>): ApiRecord => ({
  id: 7,
  number: 'SC-20261129-W00001-00000001',
  status: 'open',
  blind: false,
  scope: 'all',
  lines_total: 2,
  lines_counted: 1,
  lines_differing: 1,
  difference_value: 96,
  deleted_at: null,
  version: 1,
  ...changes,
});
const line = (changes: Partial<CountLine>): CountLine => ({
  id: 1,
  item_id: 11,
  item: { id: 11, display: 'Datu Puti Soy Sauce 1L', sku: 'DP-SOY', barcode: null },
  unit: 'pc',
  counted: 15,
  entries: 2,
  unit_cost: 48,
  ...changes,
});
// What the server adds to a line of a count that is not blind, or no longer being counted.
const FIGURES = { expected: 987, on_hand: 987, moved: 0, difference: -972, difference_value: -46656 };

function showSheet(record: ApiRecord) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StockCountSheet definition={definition} record={record} />
    </QueryClientProvider>,
  );
}

const headings = () => screen.getAllByRole('columnheader').map((heading) => heading.textContent);
const filters = () =>
  within(screen.getByLabelText('Show'))
    .getAllByRole('option')
    .map((option) => option.textContent);

beforeEach(() => outbox.submitChange.mockClear());
afterEach(cleanup);

describe('StockCountSheet', () => {
  it('shows a blind count being counted without what is expected or what differs, whatever its lines carry', async () => {
    server.lines = [
      line({ ...FIGURES }),
      line({ id: 2, item_id: 12, item: { id: 12, display: 'Century Tuna', sku: 'CT', barcode: null }, counted: null, entries: 0 }),
    ];
    showSheet(count({ blind: true, lines_differing: undefined, difference_value: undefined }));
    await screen.findByText('Datu Puti Soy Sauce 1L');
    expect(headings()).toEqual(['Item', 'Counted', 'Take off']);
    expect(document.body.textContent).not.toMatch(/987|972|46,656/);
    expect(screen.getByText(/^1 of 2 items counted/).textContent).toBe(
      '1 of 2 items counted · a blind count: what is expected and what differs show once counting is finished',
    );
    // Which items differ would tell what is expected of them.
    expect(filters()).toEqual(['Every item', 'Not counted yet', 'Counted']);
    expect(screen.queryByRole('button', { name: /Post count/ })).toBeNull();
    // Counting goes on.
    expect(screen.getByLabelText('How many')).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Finish counting' })));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/Are you sure you want to finish counting Stock Count SC-20261129-W00001-00000001\?/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Finish Counting' })));
    expect(outbox.submitChange).toHaveBeenCalledTimes(1);
    expect(outbox.submitChange).toHaveBeenCalledWith(
      expect.objectContaining({
        resource: 'stock-counts',
        action: 'count',
        method: 'PATCH',
        path: '/api/stock-counts/7/finish',
        recordId: 7,
      }),
    );
  });

  it('shows a blind count once counted with its differences, to be posted, and no more counting', async () => {
    server.lines = [line({ ...FIGURES })];
    showSheet(count({ blind: true, status: 'counted' }));
    await screen.findByText('Datu Puti Soy Sauce 1L');
    expect(headings()).toEqual(['Item', 'Expected', 'Moved since', 'On hand', 'Counted', 'Difference', 'Value']);
    expect(screen.getByText('-972')).toBeTruthy();
    expect(filters()).toContain('Differences');
    expect(screen.getByRole('button', { name: /Post count/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Finish counting' })).toBeNull();
    expect(screen.queryByLabelText('How many')).toBeNull();
  });

  it('shows a count that is not blind with what is expected while it is counted, and posts it from there', async () => {
    server.lines = [line({ ...FIGURES })];
    showSheet(count({}));
    await screen.findByText('Datu Puti Soy Sauce 1L');
    expect(headings()).toEqual(['Item', 'Expected', 'Moved since', 'On hand', 'Counted', 'Difference', 'Value', 'Take off']);
    expect(screen.getByRole('button', { name: /Post count/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Finish counting' })).toBeNull();
  });

  it('takes how many on the numeric keypad, its ± key making an entry that takes back a miscount', async () => {
    server.lines = [line({ ...FIGURES })];
    showSheet(count({}));
    await screen.findByText('Datu Puti Soy Sauce 1L');
    const howMany = screen.getByLabelText<HTMLInputElement>('How many');
    expect(howMany.getAttribute('inputmode')).toBe('decimal');
    fireEvent.change(howMany, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change sign' }));
    expect(howMany.value).toBe('2');
    const item = screen.getByRole('combobox', { name: 'Scan or search an item' });
    fireEvent.change(item, { target: { value: 'DP-SOY' } });
    await act(async () => fireEvent.keyDown(item, { key: 'Enter' }));
    expect(outbox.submitChange).toHaveBeenCalledWith(
      expect.objectContaining({ method: 'POST', path: '/api/stock-counts/7/entries', body: { item_id: 11, quantity: -2 } }),
    );
    // The next read counts one again, above zero.
    expect(howMany.value).toBe('1');
    expect(screen.getByText('Above zero')).toBeTruthy();
  });
});
