import { FileUp, History, LayoutDashboard, Store } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../../../domain/imports';
import type { IconKey } from '../../../domain/menu';
import { getResource } from '../../../domain/resources/registry';
import { ICONS } from './icons';
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

  it('links each screen with its icon and permission, in its group: what each resource declares draws the same sidebar', () => {
    // A resource's list, drawn with the icon of its key and shown with `view-{resource}`.
    const list = (group: string, resource: string, icon: IconKey) => [group, resource, ICONS[icon], `view-${resource}`];
    expect(NAVIGATION.flatMap((group) => group.links.map((link) => [group.label, link.resource, link.icon, link.permission]))).toEqual([
      ['Dashboards', undefined, LayoutDashboard, undefined],
      list('Inventory', 'brands', 'tag'),
      list('Inventory', 'measuring-masses', 'scale'),
      list('Inventory', 'unit-of-measurements', 'ruler'),
      list('Inventory', 'item-classifications', 'layers'),
      list('Inventory', 'item-types', 'tags'),
      list('Inventory', 'items', 'package'),
      list('Inventory', 'stocks', 'boxes'),
      list('Inventory', 'stock-adjustments', 'sliders-horizontal'),
      list('Inventory', 'stock-counts', 'clipboard-check'),
      list('Purchasing', 'purchase-item-prices', 'hand-coins'),
      list('Purchasing', 'purchase-orders', 'shopping-cart'),
      list('Purchasing', 'receive-orders', 'arrow-down-to-line'),
      list('Purchasing', 'bills', 'receipt'),
      list('Purchasing', 'bill-payments', 'banknote'),
      ['Sales & Services', 'counter', Store, 'create-invoices'],
      list('Sales & Services', 'sale-item-prices', 'tags'),
      list('Sales & Services', 'invoices', 'receipt-text'),
      list('Sales & Services', 'invoice-payments', 'banknote'),
      list('Logistics', 'stock-requests', 'clipboard-list'),
      list('Logistics', 'stock-transfers', 'truck'),
      list('Logistics', 'stock-receives', 'package-check'),
      list('Logistics', 'stock-returns', 'undo-2'),
      list('Management', 'warehouses', 'warehouse'),
      list('Management', 'branches', 'building-2'),
      list('Management', 'contacts', 'contact'),
      list('Management', 'users', 'users'),
      list('Management', 'roles', 'shield-check'),
      list('Management', 'permissions', 'key-round'),
      ['Management', 'activity', History, 'view-activity'],
      ['Management', 'imports', FileUp, IMPORT_KINDS.map((kind) => `create-${getResource(kind.resource).permission}`)],
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
