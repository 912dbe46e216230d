import { describe, expect, it } from 'vitest';
import { allPermissions, holdsAny, MASTER_PERMISSION, PERMISSION_PREFIXES } from './permissions';

describe('permissions', () => {
  it('seeds six actions per prefix, service-prices, view-activity and the master permission, all distinct', () => {
    const names = allPermissions().map((p) => p.name);
    expect(names).toHaveLength(PERMISSION_PREFIXES.length * 6 + 3);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('force-delete-unit-of-measurements');
    expect(names).toContain('service-prices');
    expect(names).toContain('view-activity');
    expect(names).toContain('full-access-and-permssions');
  });

  it('grants through any listed permission or the master one', () => {
    expect(holdsAny(['view-brands'], ['view-brands', 'view-items'])).toBe(true);
    expect(holdsAny(['view-items'], ['view-brands'])).toBe(false);
    expect(holdsAny(new Set([MASTER_PERMISSION]), ['delete-users'])).toBe(true);
    expect(holdsAny([], [])).toBe(false);
  });
});
