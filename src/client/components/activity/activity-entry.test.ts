import { describe, expect, it } from 'vitest';
import { items } from '../../../domain/resources/items';
import { saleItemPrices } from '../../../domain/resources/sale-item-prices';
import { stockTransfers } from '../../../domain/resources/stock-transfers';
import { actionWords, actorName, changeLines, entryNote } from './activity-entry';

describe('activity entries in words', () => {
  it('names what happened, with the file for file actions', () => {
    expect(actionWords({ action: 'deleted', summary: null })).toBe('Moved to the trash');
    expect(actionWords({ action: 'voided', summary: null })).toBe('Voided');
    expect(actionWords({ action: 'file-attached', summary: 'receipt.jpg' })).toBe('Attached receipt.jpg');
    expect(actionWords({ action: 'file-deleted', summary: 'receipt.jpg' })).toBe('Removed receipt.jpg');
    expect(entryNote({ action: 'file-attached', summary: 'receipt.jpg' })).toBeNull();
    expect(entryNote({ action: 'assigned-roles', summary: 'Added: Viewer.' })).toBe('Added: Viewer.');
  });

  it('names who did it, the seed as System', () => {
    expect(actorName({ user_id: 1, user_name: 'Administrator' })).toBe('Administrator');
    expect(actorName({ user_id: 0, user_name: null })).toBe('System');
    expect(actorName({ user_id: 9, user_name: null })).toBe('User #9');
  });

  it('tells changes as the view screen shows values, in the fields order', () => {
    const lines = changeLines(items, {
      action: 'updated',
      changes: {
        vat_category: { from: 'vatable', to: 'zero_rated' },
        brand_id: { from: null, to: { id: 5, display: 'Century Tuna' } },
        name: { from: 'Tuna', to: 'Tuna Flakes' },
      },
    });
    expect(lines.map((line) => [line.label, line.from, line.to])).toEqual([
      ['Name', 'Tuna', 'Tuna Flakes'],
      ['Brand', '—', 'Century Tuna'],
      ['VAT', 'VATable', 'Zero-rated'],
    ]);
    const [price] = changeLines(saleItemPrices, { action: 'updated', changes: { price: { from: 12.5, to: 13.75 } } });
    expect([price.from, price.to]).toEqual(['₱12.50', '₱13.75']);
    const [created] = changeLines(saleItemPrices, { action: 'created', changes: { price: { from: null, to: 1250 } } });
    expect([created.from, created.to]).toEqual([null, '₱1,250.00']);
  });

  it('names a place given by its type and id, as it was called then', () => {
    const [from] = changeLines(stockTransfers, {
      action: 'created',
      changes: { from_location_id: { from: null, to: { id: 2, display: 'Valenzuela Central' } } },
    });
    expect(from.to).toBe('Valenzuela Central');
  });
});
