import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../../domain/resource';
import { invoicePayments } from '../../domain/resources/invoice-payments';
import { invoices } from '../../domain/resources/invoices';
import { paymentStore, paymentVoid } from './payments';

/** A payment kind declaring that it settles `resource`, as `document.effects.settles` would. */
const settling = (resource: string): ResourceDefinition => ({
  ...invoicePayments,
  name: 'odd-payments',
  document: { ...invoicePayments.document!, effects: { settles: { resource, field: 'invoice_id', into: 'amount_paid' } } },
});

describe('what a payment or a memorandum settles', () => {
  it('is read from the kind: one that declares nothing it settles makes no store and no void', () => {
    expect(() => paymentStore(invoices)).toThrow('invoices does not declare what it settles.');
    expect(() => paymentVoid(invoices)).toThrow('invoices does not declare what it settles.');
  });

  it('must be a kind of document that is owed, and one the registry knows', () => {
    expect(() => paymentStore(settling('quotations'))).toThrow(
      'odd-payments settles quotations, which is not a kind of document that is owed.',
    );
    expect(() => paymentVoid(settling('nothing-of-the-kind'))).toThrow('Unknown resource "nothing-of-the-kind"');
    expect(() => paymentStore(settling('invoices'))).not.toThrow();
  });
});
