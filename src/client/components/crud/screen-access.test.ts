import { describe, expect, it } from 'vitest';
import { MASTER_PERMISSION } from '../../../domain/permissions';
import { screenAllows } from './screen-access';

const held = (...names: string[]) => new Set(names);

describe("a screen's buttons", () => {
  it('show by default to whoever holds {action}-{prefix}, or the master permission', () => {
    expect(screenAllows(undefined, 'items', held('update-items'), 'update')).toBe(true);
    expect(screenAllows(undefined, 'items', held('view-items'), 'update')).toBe(false);
    expect(screenAllows(undefined, 'items', held(MASTER_PERMISSION), 'force-delete')).toBe(true);
  });

  it('show to whoever holds any one of the permissions a screen requires instead', () => {
    const access = { required: { delete: ['delete-items', 'update-stocks'] } };
    expect(screenAllows(access, 'items', held('update-stocks'), 'delete')).toBe(true);
    expect(screenAllows(access, 'items', held('delete-items'), 'delete')).toBe(true);
    expect(screenAllows(access, 'items', held('view-items'), 'delete')).toBe(false);
    // The default still holds for the actions the screen left alone.
    expect(screenAllows(access, 'items', held('update-stocks'), 'update')).toBe(false);
    expect(screenAllows(access, 'items', held('update-items'), 'update')).toBe(true);
  });

  it('all show when the screen turns checking off', () => {
    expect(screenAllows({ check: false }, 'items', held(), 'create')).toBe(true);
    expect(screenAllows({ check: false, required: { create: ['create-brands'] } }, 'items', held(), 'create')).toBe(true);
    expect(screenAllows({ check: true }, 'items', held(), 'create')).toBe(false);
  });
});
