import { describe, expect, it } from 'vitest';
import { addOne, basketRows, likelyNotes, NO_DISCOUNT, saleBody, settle, tendersBody, withQuantity, type Payment } from './sale';

const soap = { id: 7, name: 'Bath soap', unitId: 1 };
const rice = { id: 9, name: 'Rice 1 kg', unitId: 1 };

describe('the basket', () => {
  it('adds a line for a new item and one more for a repeated scan', () => {
    let basket = addOne([], soap);
    basket = addOne(basket, rice);
    basket = addOne(basket, soap);
    expect(basket).toEqual([
      { itemId: 7, name: 'Bath soap', unitId: 1, quantity: 2 },
      { itemId: 9, name: 'Rice 1 kg', unitId: 1, quantity: 1 },
    ]);
  });

  it('changes a quantity, and takes the line away at none', () => {
    const basket = addOne(addOne([], soap), rice);
    expect(withQuantity(basket, 1, 3)[1].quantity).toBe(3);
    expect(withQuantity(basket, 0, 0)).toEqual([{ itemId: 9, name: 'Rice 1 kg', unitId: 1, quantity: 1 }]);
  });

  it('is priced from the list: no price or discount typed', () => {
    expect(basketRows(addOne([], soap))).toEqual([
      { item_id: 7, item_name: 'Bath soap', unit_of_measurement_id: 1, quantity: '1', unit_price: '', discount_percent: '' },
    ]);
  });
});

describe('paying', () => {
  const cash = (received: string): Payment => ({ received, others: [] });

  it('gives change on cash received over the total', () => {
    expect(settle(14_480, cash('500'))).toMatchObject({ cash: 14_480, received: 50_000, change: 35_520, problem: null });
  });

  it('says how much more is due while the cash received is short', () => {
    expect(settle(14_480, cash('100')).problem).toBe('₱44.80 more is due (cash received ₱100.00).');
    expect(settle(14_480, cash('')).problem).toBe('₱144.80 more is due.');
    expect(settle(14_480, cash('1O0')).problem).toBe('The cash received must be an amount in pesos.');
  });

  it('splits: cash pays what the other tenders leave', () => {
    const payment: Payment = { received: '100', others: [{ method: 'gcash', amount: '44.80', reference: '1234567890123' }] };
    const settled = settle(14_480, payment);
    expect(settled).toMatchObject({ others: 4_480, cash: 10_000, change: 0, problem: null });
    expect(tendersBody(payment, settled)).toEqual([
      { method: 'gcash', amount: 44.8, reference: '1234567890123' },
      { method: 'cash', amount: 100, received: 100 },
    ]);
  });

  it('sends no cash tender when the other tenders pay it all', () => {
    const payment: Payment = { received: '', others: [{ method: 'maya', amount: '144.80', reference: '998877' }] };
    const settled = settle(14_480, payment);
    expect(settled.problem).toBeNull();
    expect(tendersBody(payment, settled)).toEqual([{ method: 'maya', amount: 144.8, reference: '998877' }]);
  });

  it('asks for the reference, and refuses tenders over the total', () => {
    expect(settle(14_480, { received: '', others: [{ method: 'gcash', amount: '144.80', reference: ' ' }] }).problem).toBe(
      'Enter the reference number of the GCash payment.',
    );
    expect(settle(14_480, { received: '', others: [{ method: 'card', amount: '144.80', reference: '' }] }).problem).toBe(
      'Enter the approval code of the card payment.',
    );
    expect(settle(14_480, { received: '', others: [{ method: 'gcash', amount: '200', reference: '1' }] }).problem).toBe(
      'The tenders come to ₱200.00, more than the total of ₱144.80.',
    );
    expect(settle(0, cash('')).problem).toBe('Scan or pick an item first.');
  });

  it('offers the notes a customer is likely to hand over', () => {
    expect(likelyNotes(14_480)).toEqual([15_000, 16_000, 20_000, 50_000]);
    expect(likelyNotes(50_000)).toEqual([100_000]);
  });
});

describe('the sale', () => {
  it('is an invoice of the basket at the branch with its payment', () => {
    const rows = basketRows(addOne(addOne([], soap), soap));
    const payment: Payment = { received: '200', others: [] };
    const body = saleBody({
      date: '2026-11-27',
      branchId: 3,
      contactId: 41,
      discount: { kind: 'senior', idNumber: ' SC-1 ', name: 'Lola Cora' },
      rows,
      payment,
      settlement: settle(14_480, payment),
    });
    expect(body).toEqual({
      date: '2026-11-27',
      branch_id: 3,
      contact_id: 41,
      buyer_discount: 'senior',
      buyer_discount_id_number: 'SC-1',
      buyer_discount_name: 'Lola Cora',
      lines: [{ item_id: 7, unit_of_measurement_id: 1, quantity: 2, unit_price: null, discount_percent: null }],
      payment: { tenders: [{ method: 'cash', amount: 144.8, received: 200 }] },
    });
    expect(
      saleBody({
        date: '2026-11-27',
        branchId: 3,
        contactId: 41,
        discount: NO_DISCOUNT,
        rows,
        payment,
        settlement: settle(14_480, payment),
      }),
    ).toMatchObject({ buyer_discount: null, buyer_discount_id_number: null, buyer_discount_name: null });
  });
});
