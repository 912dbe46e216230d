import { describe, expect, it } from 'vitest';
import { forgetKeptAccess, keepAccessOnRetrieval, userRetrieved, USER_RETRIEVED } from './kept-access';

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    items,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
};

describe('the permissions and roles kept in local storage', () => {
  it('are written, and rewritten, each time User-Retrieved fires', () => {
    const target = new EventTarget();
    const storage = memoryStorage();
    keepAccessOnRetrieval(target, storage);
    expect(storage.items.size).toBe(0);

    target.dispatchEvent(userRetrieved({ permission_names: ['view-items', 'create-items'], role_names: ['Warehouse Staff'] }));
    expect(JSON.parse(storage.items.get('permissions')!)).toEqual(['view-items', 'create-items']);
    expect(JSON.parse(storage.items.get('roles')!)).toEqual(['Warehouse Staff']);

    // A role lost since: the next retrieval says so.
    target.dispatchEvent(userRetrieved({ permission_names: ['view-items'], role_names: [] }));
    expect(JSON.parse(storage.items.get('permissions')!)).toEqual(['view-items']);
    expect(JSON.parse(storage.items.get('roles')!)).toEqual([]);
  });

  it('stop following once the listener is removed, and go when the session ends', () => {
    const target = new EventTarget();
    const storage = memoryStorage();
    const stop = keepAccessOnRetrieval(target, storage);
    target.dispatchEvent(userRetrieved({ permission_names: ['view-items'], role_names: ['Viewer'] }));
    stop();
    target.dispatchEvent(userRetrieved({ permission_names: [], role_names: [] }));
    expect(JSON.parse(storage.items.get('permissions')!)).toEqual(['view-items']);

    forgetKeptAccess(storage);
    expect(storage.items.size).toBe(0);
  });

  it('fires under the name other code listens for', () => {
    expect(USER_RETRIEVED).toBe('User-Retrieved');
    expect(userRetrieved({ permission_names: [], role_names: [] }).type).toBe('User-Retrieved');
  });
});
