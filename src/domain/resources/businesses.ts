import { boolean, email, text, textarea } from '../fields';
import { defineResource } from '../resource';

/** Global records; a user sees and changes only the businesses they are a member of. */
export const businesses = defineResource({
  name: 'businesses',
  singular: 'Business',
  plural: 'Businesses',
  display: 'name',
  tenancy: 'membership',
  fields: {
    name: text('Name', { required: true }),
    // As registered with the BIR, for the sales invoice: the registered name, the trade name it does business as.
    registered_name: text('Registered name'),
    trade_name: text('Trade name'),
    tin: text('TIN', { format: 'tin' }),
    address: textarea('Registered address'),
    phone: text('Phone', { max: 50 }),
    email: email('Email'),
    vat_registered: boolean('VAT registered'),
    // Shelf prices in the Philippines usually include VAT; a document keeps the choice it was priced on.
    prices_include_vat: boolean('Prices include VAT'),
  },
  search: ['id', 'name', 'tin'],
  sort: ['name'],
  columns: ['name', 'tin', 'phone', 'vat_registered'],
});
