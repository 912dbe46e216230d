import { boolean, email, integer, money, reference, text, textarea } from '../fields';
import { defineResource } from '../resource';

export const contacts = defineResource({
  name: 'contacts',
  singular: 'Contact',
  plural: 'Contacts',
  display: 'name',
  menu: { group: 'Management', icon: 'contact' },
  attachments: true,
  fields: {
    contact_type_id: reference('Contact type', 'contact-types', { required: true }),
    name: text('Name', { required: true, fullText: true }),
    company_name: text('Company name'),
    tin: text('TIN', { format: 'tin' }),
    vat_registered: boolean('VAT registered'),
    email: email('Email'),
    phone: text('Phone', { max: 50 }),
    mobile: text('Mobile', { max: 50 }),
    address: textarea('Address'),
    payment_terms_days: integer('Payment terms (days)', { max: 365 }),
    credit_limit: money('Credit limit'),
    // Goods returned and credited to the account, less what "Account credit" tenders used of it.
    credit_balance: money('Credit on account', { computed: true }),
  },
  search: ['id', 'contact_type_id', 'name', 'company_name', 'tin', 'email', 'mobile'],
  // A supplier is as often known by its company as by its contact person.
  pickerSearch: () => ({ field: 'q', strict: false }),
  pickerFields: ['name', 'company_name'],
  sort: ['name', 'company_name'],
  columns: ['name', 'contact_type_id', 'company_name', 'mobile', 'email'],
});
