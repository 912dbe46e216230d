import { date, money, reference } from '../fields';
import { AT_A_BRANCH_OR_ALL } from '../places';
import { defineResource } from '../resource';

/** branch_id empty: the price holds for every branch. */
export const servicePrices = defineResource({
  name: 'service-prices',
  singular: 'Service Price',
  plural: 'Service Prices',
  display: 'id',
  places: AT_A_BRANCH_OR_ALL,
  fields: {
    service_id: reference('Service', 'services', { required: true }),
    branch_id: reference('Branch', 'branches'),
    price: money('Price', { required: true }),
    effective_date: date('Effective date', { required: true }),
  },
  search: ['id', 'service_id', 'branch_id', 'effective_date'],
  sort: ['price', 'effective_date'],
  columns: ['service_id', 'branch_id', 'price', 'effective_date'],
});
