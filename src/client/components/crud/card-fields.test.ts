import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { cardFields } from './card-fields';

describe('cardFields', () => {
  it('shows a document by its number, party, date, status and what is still owed', () => {
    expect(cardFields(getResource('invoices'))).toEqual({
      title: 'number',
      party: 'contact_id',
      date: 'date',
      status: 'status',
      amount: 'balance',
    });
  });

  it('shows a transfer by where its goods come from, without money', () => {
    const card = cardFields(getResource('stock-transfers'));
    expect(card).toMatchObject({ title: 'number', status: 'status', amount: undefined });
    expect(card.party).toMatch(/location/);
  });

  it('shows a plain record by its name alone', () => {
    expect(cardFields(getResource('brands'))).toEqual({
      title: 'name',
      party: undefined,
      date: undefined,
      status: undefined,
      amount: undefined,
    });
  });

  it('gives every resource a title', () => {
    for (const name of ['items', 'contacts', 'stocks', 'invoice-payments']) expect(cardFields(getResource(name)).title).toBeTruthy();
  });
});
