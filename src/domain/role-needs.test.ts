import { describe, expect, it } from 'vitest';
import { getResource } from './resources/registry';
import { formReads, jobPermissions } from './role-needs';

describe('formReads', () => {
  it("reads what an invoice's form looks up: its pickers, the line editor's and the stock where its goods leave", () => {
    expect(formReads(getResource('invoices'))).toEqual([
      'branches',
      'contact-types',
      'contacts',
      'conversions',
      'items',
      'quotations',
      'sale-item-prices',
      'stocks',
      'unit-of-measurements',
      'warehouses',
    ]);
  });

  it('reads both kinds of place a transfer names by type, and no price list', () => {
    const reads = formReads(getResource('stock-transfers'));
    expect(reads).toEqual(expect.arrayContaining(['branches', 'warehouses', 'stocks', 'stock-requests', 'stock-returns']));
    expect(reads.some((name) => name.endsWith('-prices'))).toBe(false);
  });

  it("does not open every document kind to whoever writes a memo: a memo's documents are the role's own", () => {
    expect(formReads(getResource('document-memoranda')).filter((name) => getResource(name).document)).toEqual([]);
  });
});

describe('jobPermissions', () => {
  it('makes, and reads what the forms need, nothing more', () => {
    const permissions = jobPermissions(['invoice-payments']);
    expect(permissions).toEqual(expect.arrayContaining(['create-invoice-payments', 'update-invoice-payments', 'view-invoices']));
    expect(permissions).not.toContain('create-invoices');
    expect(permissions.some((name) => name.includes('purchase'))).toBe(false);
  });
});
