import { describe, expect, it } from 'vitest';
import { createSchema } from './resource-schemas';
import { items } from './resources/items';
import { fieldErrors, validationSummary } from './validation';

describe('validation messages', () => {
  it('keys messages by dotted path, nested ones included, as a 422 does', () => {
    const checked = createSchema(items).safeParse({ name: '', sale_discounts: [{ quantity: 'many', discount: 5 }] });
    expect(checked.success).toBe(false);
    const errors = fieldErrors(checked.error!.issues);
    expect(errors.name).toEqual(['The name field is required.']);
    expect(Object.keys(errors).some((key) => key.startsWith('sale_discounts.0.'))).toBe(true);
  });

  it('summarises as Laravel does: the first message and how many more', () => {
    expect(validationSummary({ name: ['The name field is required.'] })).toBe('The name field is required.');
    expect(validationSummary({ name: ['A.'], sku: ['B.', 'C.'] })).toBe('A. (and 2 more errors)');
    expect(validationSummary({ name: ['A.'], sku: ['B.'] })).toBe('A. (and 1 more error)');
    expect(validationSummary({})).toBe('The given data was invalid.');
  });
});
