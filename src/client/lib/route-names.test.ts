import { describe, expect, it } from 'vitest';
import { redirectTarget, routePath } from './route-names';

describe('route names', () => {
  it('lead to the screens of each resource of the registry', () => {
    expect(routePath('purchase-orders.index')).toBe('/purchase-orders');
    expect(routePath('purchase-orders.create')).toBe('/purchase-orders/create');
    expect(routePath('purchase-orders.view', { id: 12 })).toBe('/purchase-orders/12');
    expect(routePath('items.edit', { id: '7' })).toBe('/items/7/edit');
    expect(routePath('items.files.view', { recordId: 7, fileId: 3 })).toBe('/items/7/files/3');
  });

  it('need their params: view and edit an id, a file recordId and fileId', () => {
    expect(routePath('purchase-orders.view')).toBeUndefined();
    expect(routePath('items.files.view', { id: 7 })).toBeUndefined();
    expect(routePath('items.view', { id: '../x' })).toBe('/items/..%2Fx');
  });

  it('name no route a resource does not have', () => {
    expect(routePath('nothing.index')).toBeUndefined();
    expect(routePath('items.delete', { id: 1 })).toBeUndefined();
    expect(routePath('items')).toBeUndefined();
    // Permissions are read-only, bills cannot be edited, brands take no files.
    expect(routePath('permissions.create')).toBeUndefined();
    expect(routePath('bills.edit', { id: 1 })).toBeUndefined();
    expect(routePath('brands.files.view', { recordId: 1, fileId: 1 })).toBeUndefined();
  });
});

describe('redirect_to', () => {
  it('takes a path of this app as it is', () => {
    expect(redirectTarget('/purchase-orders/12')).toBe('/purchase-orders/12');
    expect(redirectTarget('/items?page=2')).toBe('/items?page=2');
  });

  it('takes a route name, with its params as a query', () => {
    expect(redirectTarget('purchase-orders.index')).toBe('/purchase-orders');
    expect(redirectTarget('purchase-orders.view?id=12')).toBe('/purchase-orders/12');
    expect(redirectTarget('items.files.view?recordId=4&fileId=9')).toBe('/items/4/files/9');
  });

  it('refuses anything off this site, and names of no route', () => {
    for (const value of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'purchase-orders.view',
      'nothing.index',
      '',
      42,
      undefined,
    ]) {
      expect(redirectTarget(value), String(value)).toBeUndefined();
    }
  });
});
