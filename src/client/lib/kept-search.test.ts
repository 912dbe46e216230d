import { describe, expect, it } from 'vitest';
import { getResource } from '../../domain/resources/registry';
import { answeredByWorkingSet, searchKept } from './kept-search';

const contacts = getResource('contacts');
const kept = [
  { id: 1, name: 'Juan dela Cruz', company_name: 'Luzon Grocery Distributors Inc.', contact_type_id: 2, deleted_at: null },
  { id: 2, name: 'Maria Santos', company_name: 'Visayas Foods Trading', contact_type_id: 2, deleted_at: null },
  { id: 3, name: 'Sari-Sari ni Aling Rosa', company_name: null, contact_type_id: 1, deleted_at: null },
  { id: 4, name: 'Old Supplier', company_name: 'Gone Trading', contact_type_id: 2, deleted_at: '2026-11-01T00:00:00Z' },
];

describe('searchKept', () => {
  it("searches a list's own fields: text by any part, references by id", () => {
    expect(searchKept(contacts, { company_name: 'trading' }, kept).rows.map((row) => row.id)).toEqual([2]);
    expect(searchKept(contacts, { contact_type_id: '2', per_page: 15 }, kept).rows.map((row) => row.id)).toEqual([2, 1]);
    expect(searchKept(contacts, { name: 'rosa', contact_type_id: 1 }, kept).rows.map((row) => row.id)).toEqual([3]);
  });

  it('matches whole values when strict, and keeps the trash apart unless asked', () => {
    expect(searchKept(contacts, { name: 'juan', is_strict: 1 }, kept).total).toBe(0);
    expect(searchKept(contacts, { name: 'Juan dela Cruz', is_strict: '1' }, kept).total).toBe(1);
    expect(searchKept(contacts, { company_name: 'gone' }, kept).total).toBe(0);
    expect(searchKept(contacts, { company_name: 'gone', with_trashed: '1' }, kept).total).toBe(1);
    expect(searchKept(contacts, { only_trashed: '1' }, kept).rows.map((row) => row.id)).toEqual([4]);
  });

  it("finds a picker's term in any of its fields, by any part", () => {
    expect(searchKept(contacts, { q: 'visayas' }, kept).rows.map((row) => row.id)).toEqual([2]);
    expect(searchKept(contacts, { q: 'SANTOS', contact_type_id: 2 }, kept).rows.map((row) => row.id)).toEqual([2]);
  });

  it('sorts and pages as the list asks', () => {
    const page = searchKept(contacts, { order_by_field_name: 'name', order_by: 'asc', per_page: 2, page: 2 }, kept);
    expect(page.rows.map((row) => row.name)).toEqual(['Sari-Sari ni Aling Rosa']);
    expect(page.total).toBe(3);
  });
});

describe('answeredByWorkingSet', () => {
  const items = getResource('items');
  const invoices = getResource('invoices');

  it('answers from the working set what its records hold whole', () => {
    expect(answeredByWorkingSet(items, { q: 'alaska', limit: 15, order_by_field_name: 'name', order_by: 'asc' })).toBe(true);
    expect(answeredByWorkingSet(items, { barcode: '4800016000019', is_strict: 1, limit: 1, with_trashed: 0 })).toBe(true);
    expect(answeredByWorkingSet(invoices, { status: 'unpaid', per_page: 15, page: 2 })).toBe(true);
  });

  it('leaves to a list saved before what the working set does not keep, or what it cannot search', () => {
    // The trash, documents no longer worked on, every status of documents.
    expect(answeredByWorkingSet(items, { with_trashed: 1 })).toBe(false);
    expect(answeredByWorkingSet(items, { only_trashed: '1' })).toBe(false);
    expect(answeredByWorkingSet(invoices, { status: 'paid' })).toBe(false);
    expect(answeredByWorkingSet(invoices, { per_page: 15 })).toBe(false);
    // A filter that is not one of the list's search fields, and a picker's term where the resource has no picker fields.
    expect(answeredByWorkingSet(items, { unknown_filter: 3 })).toBe(false);
    expect(answeredByWorkingSet(getResource('brands'), { q: 'alaska' })).toBe(false);
  });
});
