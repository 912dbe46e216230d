import { describe, expect, it } from 'vitest';
import { pendingReturn } from './pending-lines';

/** A sale kept on the device: 4 at ₱112 each, VAT included (₱100 net, ₱12 VAT), 1 of them already back. */
const sale = {
  id: 7,
  date: '2026-11-27',
  prices_include_vat: true,
  contact_id: 3,
  contact: { id: 3, display: 'Aling Nena' },
  branch_id: 2,
  branch: { id: 2, display: 'Makati' },
  warehouse_id: null,
  warehouse: null,
  deleted_at: null,
  version: 1,
  lines: [
    {
      id: 41,
      item_id: 9,
      item: { id: 9, display: 'Rice 5 kg', sku: 'RICE-5' },
      unit_of_measurement_id: 1,
      unit: 'pc',
      quantity: 4,
      unit_price: 112,
      discount_percent: 0,
      vat_category: 'vatable',
      sc_pwd: false,
      amount: 400,
      vat: 48,
      quantity_done: 1,
    },
  ],
};

const queued = (settlement: string, lines: unknown[]) => ({
  id: 'local-1',
  deleted_at: null,
  version: 0,
  invoice_id: 7,
  settlement,
  lines,
});

describe('a return queued on this device', () => {
  it('comes to its share of the sold line, with the customer, the place and the sale’s date', () => {
    const read = pendingReturn(
      queued('refund', [{ source_line_id: 41, quantity: 2, reason: 'damaged', note: null, disposition: 'restock' }]),
      sale,
      'invoice_id',
    );
    expect(read.lines).toEqual([
      expect.objectContaining({ item: sale.lines[0].item, quantity: 2, amount: 200, vat: 24, reason: 'damaged', disposition: 'restock' }),
    ]);
    expect(read).toMatchObject({
      total: 224,
      vat_total: 24,
      refunded: 224,
      amount: 0,
      unpriced: false,
      contact_id: 3,
      contact: { display: 'Aling Nena' },
      branch: { display: 'Makati' },
      invoice_date: '2026-11-27',
    });
  });

  it('credits what it comes to, and leaves a line naming no line of the sale to be priced when sent', () => {
    const read = pendingReturn(
      queued('credit', [
        { source_line_id: 41, quantity: 1, reason: 'expired', note: null, disposition: 'write_off' },
        { source_line_id: 99, quantity: 1, reason: 'other', note: 'not ours', disposition: 'restock' },
      ]),
      sale,
      'invoice_id',
    );
    expect(read).toMatchObject({ total: 112, amount: 112, refunded: 0, unpriced: true });
    expect(Number.isNaN((read.lines as { amount: number }[])[1].amount)).toBe(true);
  });

  it('is priced when sent while the device holds no sale', () => {
    const read = pendingReturn(
      queued('refund', [{ source_line_id: 41, quantity: 1, reason: 'damaged', note: null, disposition: 'restock' }]),
      undefined,
      'invoice_id',
    );
    expect(read).toMatchObject({ unpriced: true, total: 0 });
  });
});
