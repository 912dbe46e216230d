import { describe, expect, it } from 'vitest';
import { registry as resources } from '../../../domain/resources/registry';
import { quickSearchField, quickSearchReference } from './list-state';

describe('Quick Search', () => {
  const byName = (name: string) => resources.find((definition) => definition.name === name)!;

  it('searches a list by its display text when it has one', () => {
    expect(quickSearchField(byName('brands'))).toBe('name');
    expect(quickSearchReference(byName('brands'))).toBeUndefined();
  });

  it('searches prices, stocks and conversions by the item or service they are of', () => {
    for (const name of ['conversions', 'purchase-item-prices', 'sale-item-prices', 'stocks']) {
      expect(quickSearchField(byName(name))).toBeUndefined();
      expect(quickSearchReference(byName(name))).toBe('item_id');
    }
    expect(quickSearchReference(byName('service-prices'))).toBe('service_id');
  });

  it('gives every list a Quick Search', () => {
    const without = resources.filter((definition) => !quickSearchField(definition) && !quickSearchReference(definition));
    expect(without.map((definition) => definition.name)).toEqual([]);
  });
});
