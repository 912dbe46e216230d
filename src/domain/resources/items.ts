import { VAT_CATEGORIES } from '../documents';
import { boolean, discounts, quantity, reference, select, text, textarea } from '../fields';
import { defineResource } from '../resource';

export const items = defineResource({
  name: 'items',
  singular: 'Item',
  plural: 'Items',
  display: 'name',
  menu: { group: 'Inventory', icon: 'package' },
  attachments: true,
  fields: {
    sku: text('SKU', { required: true, unique: true, max: 64 }),
    barcode: text('Barcode', { unique: true, max: 64 }),
    name: text('Name', { required: true, fullText: true }),
    description: textarea('Description'),
    brand_id: reference('Brand', 'brands'),
    item_type_id: reference('Item type', 'item-types'),
    item_classification_id: reference('Item classification', 'item-classifications'),
    unit_of_measurement_id: reference('Unit of measurement', 'unit-of-measurements', { required: true }),
    measuring_mass_id: reference('Measuring mass', 'measuring-masses'),
    mass_value: quantity('Mass value'),
    reorder_level: quantity('Reorder level'),
    vat_category: select('VAT', VAT_CATEGORIES, { whenBlank: 'vatable' }),
    sc_pwd_discount: boolean('Senior citizen / PWD discount'),
    purchase_discounts: discounts('Purchase discounts'),
    sale_discounts: discounts('Sale discounts'),
  },
  search: ['id', 'sku', 'barcode', 'name', 'brand_id', 'item_type_id', 'item_classification_id', 'vat_category', 'sc_pwd_discount'],
  // A scanner types a whole barcode (all digits), looked up as it is; anything else is found in the
  // name, the SKU or the barcode by any part ("BLG" finds LM-BLG).
  pickerSearch: (typed) => (/^\d{8,14}$/.test(typed.trim()) ? { field: 'barcode', strict: true } : { field: 'q', strict: false }),
  pickerFields: ['name', 'sku', 'barcode'],
  sort: ['sku', 'name', 'reorder_level'],
  columns: ['sku', 'name', 'brand_id', 'unit_of_measurement_id', 'reorder_level', 'vat_category'],
});
