import { describe, expect, it } from 'vitest';
import { activeSearches, listMeta } from './list-params';
import { listParamsSchema } from './list-params-schema';
import { brands } from './resources/brands';
import { items } from './resources/items';

describe('list params', () => {
  const parse = (query: Record<string, string>) => listParamsSchema(items).safeParse(query);

  it('fills the defaults: page 1, 15 per page, newest first by id, loose search', () => {
    expect(parse({}).data).toEqual({
      page: 1,
      per_page: 15,
      order_by: 'desc',
      order_by_field_name: 'id',
      with_trashed: false,
      only_trashed: false,
      is_strict: false,
    });
  });

  it('reads flags as 0/1 or true/false', () => {
    expect(parse({ with_trashed: '1', only_trashed: 'false', is_strict: 'true' }).data).toMatchObject({
      with_trashed: true,
      only_trashed: false,
      is_strict: true,
    });
  });

  it('allows only the page sizes 15, 25, 50, 75 and 100', () => {
    for (const size of ['15', '25', '50', '75', '100']) expect(parse({ per_page: size }).success).toBe(true);
    for (const size of ['10', '20', '1000', 'all']) expect(parse({ per_page: size }).success).toBe(false);
  });

  it('sorts only by whitelisted fields, never by secrets or arbitrary SQL', () => {
    expect(parse({ order_by_field_name: 'name' }).success).toBe(true);
    expect(parse({ order_by_field_name: 'created_at' }).success).toBe(true);
    for (const field of ['description', 'business_id', 'name; drop table items', 'deleted_at']) {
      expect(parse({ order_by_field_name: field }).success, field).toBe(false);
    }
  });

  it('keeps search fields and ignores reserved or unknown names', () => {
    const params = { ...parse({ name: ' rice ', sku: '', page: '2', secret: 'x' }).data };
    expect(activeSearches(items, params as Record<string, unknown>)).toEqual([['name', 'rice']]);
    expect(params).not.toHaveProperty('secret');
    expect(activeSearches(brands, { per_page: 25, order_by: 'asc' })).toEqual([]);
  });

  it('computes meta like Laravel: from/to on the page, last page at least 1', () => {
    expect(listMeta(47, 2, 15, 15)).toEqual({
      total: 47,
      total_exact: true,
      per_page: 15,
      current_page: 2,
      last_page: 4,
      from: 16,
      to: 30,
    });
    expect(listMeta(47, 4, 15, 2)).toMatchObject({ from: 46, to: 47 });
    expect(listMeta(0, 1, 15, 0)).toEqual({
      total: 0,
      total_exact: true,
      per_page: 15,
      current_page: 1,
      last_page: 1,
      from: null,
      to: null,
    });
  });

  it('of a count that stopped, names as last the page that holds the row past it', () => {
    expect(listMeta(45, 1, 15, 15, false)).toMatchObject({ total: 45, total_exact: false, last_page: 4 });
    expect(listMeta(44, 1, 15, 15, false)).toMatchObject({ last_page: 3 });
  });
});
