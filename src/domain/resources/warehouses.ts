import { placeResource } from './place-resource';

export const warehouses = placeResource('warehouse', {
  name: 'warehouses',
  singular: 'Warehouse',
  plural: 'Warehouses',
  menu: { group: 'Management', icon: 'warehouse' },
});
