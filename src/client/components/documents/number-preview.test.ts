import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { nextNumber, nextReferenceNumber, numberCountBody, numberingInputs, referenceCountBody } from './number-preview';

describe('the numbers a new document will probably get', () => {
  it('are figured from its date, its branch or warehouse, and its contact', () => {
    const purchaseOrders = getResource('purchase-orders');
    const inputs = numberingInputs(purchaseOrders, { date: '2026-11-03', warehouse_id: 1, branch_id: null, contact_id: 7 });
    expect(inputs).toEqual({ date: '2026-11-03', location: { type: 'warehouse', id: 1 }, contactId: 7 });
    expect(numberCountBody('purchase-order', inputs.location!)).toEqual({
      document_name: 'purchase-order',
      branch_id: null,
      warehouse_id: 1,
    });
    expect(referenceCountBody('purchase-order', 7)).toEqual({ document_name: 'purchase-order', contact_id: 7 });
    // The series has given 11: the next is the 12th.
    expect(nextNumber('PO', { ...inputs, location: inputs.location! }, 11)).toBe('PO-20261103-W00001-00000012');
    expect(nextReferenceNumber({ ...inputs, contactId: 7 }, 0)).toBe('RN-700000008-20261103-0001');
  });

  it('take the branch when both are picked, as the server does', () => {
    const invoices = getResource('invoices');
    expect(numberingInputs(invoices, { date: '2026-01-02', branch_id: 3, warehouse_id: 1 }).location).toEqual({ type: 'branch', id: 3 });
  });

  it('wait for what is not picked yet, and use today while no date is typed', () => {
    const inputs = numberingInputs(getResource('purchase-orders'), { date: '', branch_id: null, warehouse_id: null, contact_id: null });
    expect(inputs.location).toBeUndefined();
    expect(inputs.contactId).toBeUndefined();
    expect(inputs.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('number a transfer at its from-location, and give it no reference number', () => {
    const transfers = getResource('stock-transfers');
    const inputs = numberingInputs(transfers, {
      date: '2026-11-03',
      from_location_type: 'warehouse',
      from_location_id: 2,
      to_location_type: 'branch',
      to_location_id: 5,
    });
    expect(inputs.location).toEqual({ type: 'warehouse', id: 2 });
    expect(inputs.contactId).toBeUndefined();
  });

  it("take a payment's party and place from its bill, and a return's from where its transfer went", () => {
    const bill = { contact_id: 4, branch_id: null, warehouse_id: 2 };
    expect(numberingInputs(getResource('bill-payments'), { date: '2026-11-03', bill_id: 9 }, bill)).toEqual({
      date: '2026-11-03',
      location: { type: 'warehouse', id: 2 },
      contactId: 4,
    });
    const transfer = { from_location_type: 'warehouse', from_location_id: 1, to_location_type: 'branch', to_location_id: 6 };
    expect(numberingInputs(getResource('stock-receives'), { date: '2026-11-03' }, transfer).location).toEqual({ type: 'warehouse', id: 1 });
    expect(numberingInputs(getResource('stock-returns'), { date: '2026-11-03' }, transfer).location).toEqual({ type: 'branch', id: 6 });
  });
});
