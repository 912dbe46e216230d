import { afterEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import type { DocumentLine } from './line-rows';
import type { Place } from '../../lib/places';
import { atOwnPlace, documentStartingValues, type Workplace } from './prefill';
import { leavesRest, receivedAll, UNANSWERED, type ReceiveRows } from './receive-rows';

const line = (id: number, quantity: number, done: number): DocumentLine => ({
  id,
  item_id: 10 + id,
  item: { id: 10 + id, display: `Item ${id}`, sku: `SKU-${id}` },
  unit_of_measurement_id: 1,
  unit: 'pc',
  quantity,
  unit_price: 25,
  discount_percent: 0,
  vat_category: 'vatable',
  sc_pwd: false,
  amount: 25 * quantity,
  vat: 0,
  quantity_done: done,
});

const source = (extra: Record<string, unknown>) => ({ id: 7, contact_id: 3, branch_id: 2, warehouse_id: null, ...extra });
const quantities = (values: Record<string, unknown>) => (values.lines as { quantity: string }[]).map((row) => row.quantity);

describe('a document made from another starts with what the source kind’s lifecycle says', () => {
  it('a receive order takes what is still open of each purchase order line, and not the lines done', () => {
    const values = documentStartingValues(getResource('receive-orders'), source({ lines: [line(1, 10, 4), line(2, 5, 5)] }));
    expect(values.purchase_order_id).toBe(7);
    expect(values.contact_id).toBe(3);
    expect(quantities(values)).toEqual(['6']);
    expect((values.lines as { source_line_id: number }[])[0].source_line_id).toBe(1);
  });

  it('a stock receive starts at zero beside what is in transit, to be counted; "Receive all" fills every line with it', () => {
    const values = documentStartingValues(getResource('stock-receives'), source({ lines: [line(1, 42, 0), line(2, 5, 2), line(3, 4, 4)] }));
    const { rows, answer } = values.lines as ReceiveRows;
    expect(values.stock_transfer_id).toBe(7);
    // Nothing said yet of what may not arrive.
    expect(answer).toEqual(UNANSWERED);
    expect(rows.map((row) => [row.quantity, row.open, row.source_line_id])).toEqual([
      ['', 42, 1],
      ['', 3, 2],
    ]);
    expect(quantities({ lines: receivedAll(rows) })).toEqual(['42', '3']);
  });

  it('a receive counted short of what is in transit, or with a line taken off, leaves a rest to answer for', () => {
    const value = documentStartingValues(getResource('stock-receives'), source({ lines: [line(1, 42, 0), line(2, 5, 0)] }))
      .lines as ReceiveRows;
    expect(value.due).toEqual([
      { line: 1, open: 42, name: 'Item 1' },
      { line: 2, open: 5, name: 'Item 2' },
    ]);
    const counted = (...typed: string[]) => ({ ...value, rows: value.rows.map((row, index) => ({ ...row, quantity: typed[index] })) });
    expect(leavesRest(counted('40', '5'))).toBe(true);
    expect(leavesRest(counted('', '5'))).toBe(true);
    expect(leavesRest(counted('42', '5'))).toBe(false);
    expect(leavesRest({ ...value, rows: receivedAll(value.rows) })).toBe(false);
    // None of the second line came: the clerk took it off the receive.
    expect(leavesRest({ ...value, rows: receivedAll(value.rows).slice(0, 1) })).toBe(true);
  });

  it('a bill takes every line of its order as it is', () => {
    const values = documentStartingValues(getResource('bills'), source({ lines: [line(1, 10, 4), line(2, 5, 5)] }));
    expect(quantities(values)).toEqual(['10', '5']);
  });

  it('a stock return takes back what arrived of each transfer line', () => {
    const values = documentStartingValues(getResource('stock-returns'), source({ lines: [line(1, 10, 3), line(2, 5, 0)] }));
    expect(quantities(values)).toEqual(['3']);
  });

  it('a transfer made from a return (not its usual source) takes what is still to go back', () => {
    const link = { field: 'stock_return_id', resource: 'stock-returns' };
    const values = documentStartingValues(getResource('stock-transfers'), source({ lines: [line(1, 3, 1)] }), link);
    expect(values.stock_return_id).toBe(7);
    expect(values.stock_request_id).toBeNull();
    expect(quantities(values)).toEqual(['2']);
  });

  it('a payment starts with the balance of its bill', () => {
    const values = documentStartingValues(getResource('bill-payments'), source({ balance: 1234.5 }));
    expect(values.bill_id).toBe(7);
    expect(values.amount).toBe('1234.5');
    // In its first tender, cash until the cashier says otherwise.
    expect(values.tenders).toEqual([expect.objectContaining({ method: 'cash', amount: '1234.5' })]);
  });
});

describe('a new document starts at the user’s own place', () => {
  const place = (type: Place['type'], id: number, name: string, level: Place['level']): Place => ({ type, id, code: '', name, level });
  const makati = place('branch', 1, 'Makati', 'operate');
  const quezon = place('branch', 2, 'Quezon City', 'view');
  const valenzuela = place('warehouse', 4, 'Valenzuela Central', 'view');
  const start = (resource: string, places: Place[] | undefined, workplace?: Workplace) =>
    atOwnPlace(getResource(resource), documentStartingValues(getResource(resource)), places, workplace);

  it('the one place the user operates at: an invoice at the cashier’s branch, named for its field', () => {
    const { values, known } = start('invoices', [makati, quezon, valenzuela]);
    expect(values.branch_id).toBe(1);
    expect(values.warehouse_id).toBeNull();
    expect(known).toEqual({ branch_id: 1, branch: { id: 1, display: 'Makati' } });
  });

  it('a stock request asks for goods for its requesting place (to_), a transfer sends from its source (from_)', () => {
    const request = start('stock-requests', [makati, valenzuela]).values;
    expect([request.to_location_type, request.to_location_id, request.from_location_id]).toEqual(['branch', 1, null]);
    const operator = { ...valenzuela, level: 'operate' as const };
    const transfer = start('stock-transfers', [quezon, operator]);
    expect([transfer.values.from_location_type, transfer.values.from_location_id, transfer.values.to_location_id]).toEqual([
      'warehouse',
      4,
      null,
    ]);
    expect(transfer.known).toMatchObject({ from_location: { id: 4, display: 'Valenzuela Central' } });
  });

  it('among several places, where they work when they operate there, else none', () => {
    const several = [makati, { ...quezon, level: 'operate' as const }, valenzuela];
    expect(start('invoices', several, { type: 'branch', id: 2, name: 'Quezon City' }).values.branch_id).toBe(2);
    expect(start('invoices', several).values.branch_id).toBeNull();
    // Where they work, but only view: not where their documents are made.
    expect(start('invoices', several, { type: 'warehouse', id: 4, name: 'Valenzuela Central' }).values).toMatchObject({
      branch_id: null,
      warehouse_id: null,
    });
  });

  it('where they work when the places were never listed on this device', () => {
    expect(start('invoices', undefined, { type: 'warehouse', id: 4, name: 'Valenzuela Central' }).values.warehouse_id).toBe(4);
  });

  it('leaves documents whose place comes from their source, and one already placed', () => {
    expect(start('stock-receives', [makati]).known).toBeUndefined();
    const placed = atOwnPlace(
      getResource('invoices'),
      { ...documentStartingValues(getResource('invoices')), branch_id: 2 },
      [makati],
      undefined,
    );
    expect(placed.values.branch_id).toBe(2);
  });
});

describe('a new document’s date', () => {
  afterEach(() => vi.useRealTimers());

  it('is today in Manila, whatever the device’s clock zone: at 17:00 UTC it is already the next day', () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T17:00:00Z'), toFake: ['Date'] });
    expect(documentStartingValues(getResource('invoices')).date).toBe('2026-11-28');
  });
});
