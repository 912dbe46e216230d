import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, fieldCaption, nextColumnSort, pagerSort, sortWords } from './sorting';

describe('sort rules', () => {
  it('sorts a new column descending, then ascending, then back to id descending', () => {
    const first = nextColumnSort(DEFAULT_SORT, 'name');
    expect(first).toEqual({ field: 'name', order: 'desc' });
    const second = nextColumnSort(first, 'name');
    expect(second).toEqual({ field: 'name', order: 'asc' });
    expect(nextColumnSort(second, 'name')).toEqual({ field: 'id', order: 'desc' });
  });

  it('toggles the default id column to ascending and back', () => {
    const ascending = nextColumnSort(DEFAULT_SORT, 'id');
    expect(ascending).toEqual({ field: 'id', order: 'asc' });
    expect(nextColumnSort(ascending, 'id')).toEqual(DEFAULT_SORT);
  });

  it('returns the pager toggle to id when the chosen order is already in force', () => {
    expect(pagerSort({ field: 'name', order: 'desc' }, 'asc')).toEqual({ field: 'name', order: 'asc' });
    expect(pagerSort({ field: 'name', order: 'asc' }, 'asc')).toEqual({ field: 'id', order: 'asc' });
    expect(pagerSort({ field: 'name', order: 'desc' }, 'desc')).toEqual({ field: 'id', order: 'desc' });
  });

  it('words the toggle Newest/Oldest by id and Decending/Ascending otherwise', () => {
    expect(sortWords('id')).toEqual({ desc: 'Newest', asc: 'Oldest' });
    expect(sortWords('name')).toEqual({ desc: 'Decending', asc: 'Ascending' });
    expect(fieldCaption('created_at')).toBe('Created at');
    expect(fieldCaption('id')).toBe('Id');
  });
});
