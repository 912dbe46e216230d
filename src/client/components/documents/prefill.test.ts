import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import type { DocumentLine } from './line-rows';
import { documentStartingValues } from './prefill';

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
