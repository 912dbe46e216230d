import { describe, expect, it } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import { NAVIGATION, visibleNavigation } from './navigation';

describe('navigation', () => {
  it('labels each resource link with its definition plural: the same sidebar as the hand-written labels', () => {
    expect(NAVIGATION.map((group) => [group.label, group.links.map((link) => link.label)])).toEqual([
      ['Dashboards', ['Overview']],
      [
        'Inventory',
        [
          'Brands',
          'Measuring Masses',
          'Units of Measurement',
          'Item Classifications',
          'Item Types',
          'Items',
          'Stocks',
          'Stock Adjustments',
          'Stock Counts',
        ],
      ],
      ['Purchasing', ['Purchase Item Prices', 'Purchase Orders', 'Receive Orders', 'Bills', 'Bill Payments']],
      ['Sales & Services', ['Counter', 'Sale Item Prices', 'Invoices', 'Invoice Payments']],
      ['Logistics', ['Stock Requests', 'Stock Transfers', 'Stock Receives', 'Stock Returns']],
      ['Management', ['Warehouses', 'Branches', 'Contacts', 'Users', 'Roles', 'Permissions', 'Activity', 'Import']],
    ]);
  });

  it('offers no screen that is not built, to anyone: services and their prices keep their routes but have no link', () => {
    // Whoever holds every permission sees every link there is.
    const everything = visibleNavigation(() => true);
    const linked = everything.flatMap((group) => group.links.map((link) => link.resource));
    expect(linked).not.toContain('services');
    expect(linked).not.toContain('service-prices');
    // The routes are still there for who types them: the registry keeps both resources.
    expect(getResource('services').plural).toBe('Services');
    expect(getResource('service-prices').plural).toBe('Service Prices');
  });

  it('names the units in the plural of a unit of measurement, under the route the product has always had', () => {
    const units = getResource('unit-of-measurements');
    expect([units.singular, units.plural, units.name]).toEqual(['Unit of Measurement', 'Units of Measurement', 'unit-of-measurements']);
  });
});
