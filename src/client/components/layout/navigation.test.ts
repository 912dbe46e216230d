import { describe, expect, it } from 'vitest';
import { NAVIGATION } from './navigation';

describe('navigation', () => {
  it('labels each resource link with its definition plural: the same sidebar as the hand-written labels', () => {
    expect(NAVIGATION.map((group) => [group.label, group.links.map((link) => link.label)])).toEqual([
      ['Dashboards', ['Overview']],
      [
        'Inventory',
        [
          'Brands',
          'Measuring Masses',
          'Unit of Measurements',
          'Item Classifications',
          'Item Types',
          'Items',
          'Stocks',
          'Stock Adjustments',
          'Stock Counts',
        ],
      ],
      ['Purchasing', ['Purchase Item Prices', 'Purchase Orders', 'Receive Orders', 'Bills', 'Bill Payments']],
      ['Sales & Services', ['Sale Item Prices', 'Service Prices', 'Services', 'Invoices', 'Invoice Payments']],
      ['Logistics', ['Stock Requests', 'Stock Transfers', 'Stock Receives', 'Stock Returns']],
      ['Management', ['Warehouses', 'Branches', 'Contacts', 'Users', 'Roles', 'Permissions', 'Activity', 'Import']],
    ]);
    expect(NAVIGATION.flatMap((group) => group.links).filter((link) => link.unavailable)).toEqual([]);
  });
});
