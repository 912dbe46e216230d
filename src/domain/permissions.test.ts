import { describe, expect, it } from 'vitest';
import { allPermissions, holdsAny, MASTER_PERMISSION, PERMISSION_ACTIONS, PERMISSION_PREFIXES, permissionName } from './permissions';
import { registry } from './resources/registry';

describe('permissions', () => {
  it('seeds six actions per prefix, service-prices, view-activity, view-costs, override-credit-limits and the master permission, all distinct', () => {
    const names = allPermissions().map((p) => p.name);
    expect(names).toHaveLength(PERMISSION_PREFIXES.length * 6 + 5);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('force-delete-unit-of-measurements');
    expect(names).toContain('service-prices');
    expect(names).toContain('view-activity');
    expect(names).toContain('view-costs');
    expect(allPermissions().find((p) => p.name === 'override-credit-limits')?.group).toBe('invoices');
    expect(names).toContain('full-access-and-permssions');
  });

  it('derives the prefixes from the registry: every one of the hand list they replaced, and those of resources added since', () => {
    const handList = [
      'brands',
      'measuring-masses',
      'unit-of-measurements',
      'conversions',
      'item-classifications',
      'item-types',
      'items',
      'stocks',
      'purchase-item-prices',
      'purchase-orders',
      'receive-orders',
      'bills',
      'bill-payments',
      'sale-item-prices',
      'service-prices',
      'services',
      'quotations',
      'invoices',
      'invoice-payments',
      'credit-memoranda',
      'debit-memoranda',
      'stock-requests',
      'stock-transfers',
      'stock-receives',
      'stock-returns',
      'warehouses',
      'branches',
      'contacts',
      'contact-types',
      'businesses',
      'users',
      'roles',
      'permissions',
    ];
    expect(PERMISSION_PREFIXES).toEqual(expect.arrayContaining(handList));
    expect(new Set(PERMISSION_PREFIXES).size).toBe(PERMISSION_PREFIXES.length);
    const names = new Set(allPermissions().map((p) => p.name));
    for (const definition of registry) {
      for (const action of PERMISSION_ACTIONS) expect(names).toContain(permissionName(action, definition.permission));
    }
  });

  it('grants through any listed permission or the master one', () => {
    expect(holdsAny(['view-brands'], ['view-brands', 'view-items'])).toBe(true);
    expect(holdsAny(['view-items'], ['view-brands'])).toBe(false);
    expect(holdsAny(new Set([MASTER_PERMISSION]), ['delete-users'])).toBe(true);
    expect(holdsAny([], [])).toBe(false);
  });
});
