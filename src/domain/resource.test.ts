import { describe, expect, it } from 'vitest';
import { formatDiscounts } from './fields';
import { createSchema, updateSchema } from './resource-schemas';
import { contacts } from './resources/contacts';
import { items } from './resources/items';
import { users } from './resources/users';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('resource input schemas', () => {
  it('says "field is required" for missing, null and blank required fields', () => {
    const result = createSchema(items).safeParse({ sku: '   ', name: null });
    expect(messages(result)).toEqual({
      sku: 'The sku field is required.',
      name: 'The name field is required.',
      unit_of_measurement_id: 'The unit of measurement field is required.',
    });
  });

  it('reads numbers from form strings (never ids) and checks ranges and kinds', () => {
    const ok = createSchema(items).safeParse({
      sku: 'A-1',
      name: 'Rice',
      unit_of_measurement_id: 3,
      reorder_level: '12.5',
      sc_pwd_discount: '1',
      vat_category: 'zero_rated',
    });
    expect(ok.data).toMatchObject({ unit_of_measurement_id: 3, reorder_level: 12.5, sc_pwd_discount: true, vat_category: 'zero_rated' });
    expect(ok.data).not.toHaveProperty('description');
    const bad = createSchema(items).safeParse({
      sku: 'A-1',
      name: 'Rice',
      unit_of_measurement_id: '3',
      reorder_level: -1,
      sc_pwd_discount: 'maybe',
      vat_category: 'sometimes',
    });
    expect(messages(bad)).toEqual({
      unit_of_measurement_id: 'The unit of measurement field must be a whole number.',
      reorder_level: 'The reorder level field must be at least 0.',
      sc_pwd_discount: 'The senior citizen / pwd discount field must be true or false.',
      vat_category: 'The selected vat is invalid.',
    });
  });

  it('checks discount lists entry by entry and refuses a quantity given twice', () => {
    const base = { sku: 'A-1', name: 'Rice', unit_of_measurement_id: 1 };
    const bad = createSchema(items).safeParse({ ...base, sale_discounts: [{ quantity: 0, discount_percent: 120 }] });
    expect(messages(bad)).toEqual({
      'sale_discounts.0.quantity': 'The quantity field must be greater than 0.',
      'sale_discounts.0.discount_percent': 'The discount percent field must not be greater than 100.',
    });
    const twice = createSchema(items).safeParse({
      ...base,
      sale_discounts: [
        { quantity: 10, discount_percent: 5 },
        { quantity: 10, discount_percent: 8 },
      ],
    });
    expect(messages(twice)).toEqual({ sale_discounts: 'The sale discounts field has the same quantity twice.' });
    expect(
      formatDiscounts([
        { quantity: 10, discount_percent: 5 },
        { quantity: 50, discount_percent: 8 },
      ]),
    ).toBe('10:5%, 50:8%');
  });

  it('validates emails (lower-cased), pins and passwords', () => {
    const result = createSchema(users).safeParse({ name: 'Ana', email: 'not-an-email', password: 'short', security_pin: '12a4' });
    expect(messages(result)).toEqual({
      email: 'The email field must be a valid email address.',
      password: 'The password field must be at least 8 characters.',
      security_pin: 'The security pin field must be 4 to 6 digits.',
    });
    const ok = createSchema(users).safeParse({ name: 'Ana', email: ' Ana@Example.COM ', password: 'long-enough', security_pin: 123456 });
    expect(ok.data).toMatchObject({ email: 'ana@example.com', security_pin: '123456' });
  });

  it('lets an update leave out anything, clear optional fields, but not blank required ones', () => {
    expect(updateSchema(contacts).safeParse({}).success).toBe(true);
    expect(updateSchema(contacts).safeParse({ company_name: '' }).data).toEqual({ company_name: null });
    expect(messages(updateSchema(contacts).safeParse({ name: '' }))).toEqual({ name: 'The name field is required.' });
  });
});

describe('the item picker', () => {
  it('looks a scanned barcode up strictly, and anything else in the name, SKU or barcode by any part', () => {
    expect(items.pickerSearch?.('4800100000013')).toEqual({ field: 'barcode', strict: true });
    expect(items.pickerSearch?.(' CT-155 ')).toEqual({ field: 'q', strict: false });
    expect(items.pickerSearch?.('BLG')).toEqual({ field: 'q', strict: false });
    expect(items.pickerFields).toEqual(['name', 'sku', 'barcode']);
  });
});
