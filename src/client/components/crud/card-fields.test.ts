import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { cardFields } from './card-fields';

describe('cardFields', () => {
  it('shows a document by its number, party, date, status and what is still owed', () => {
    expect(cardFields(getResource('invoices'))).toEqual({
      title: 'number',
      party: 'contact_id',
      route: undefined,
      date: 'date',
      status: 'status',
      amount: 'balance',
    });
  });

  it('shows goods between two places by where they come from and where they go, without money', () => {
    for (const name of ['stock-requests', 'stock-transfers', 'stock-receives', 'stock-returns']) {
      expect(cardFields(getResource(name)), name).toEqual({
        title: 'number',
        party: undefined,
        route: { from: 'from_location_id', to: 'to_location_id' },
        date: 'date',
        status: 'status',
        amount: undefined,
      });
    }
  });

  it('shows a plain record by its name alone', () => {
    expect(cardFields(getResource('brands'))).toEqual({
      title: 'name',
      party: undefined,
      route: undefined,
      date: undefined,
      status: undefined,
      amount: undefined,
    });
  });

  it('gives every resource a title', () => {
    for (const name of ['items', 'contacts', 'stocks', 'invoice-payments']) expect(cardFields(getResource(name)).title).toBeTruthy();
  });
});
