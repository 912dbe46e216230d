import { namedList } from './named-list';

export const itemClassifications = namedList({
  name: 'item-classifications',
  singular: 'Item Classification',
  plural: 'Item Classifications',
  menu: { group: 'Inventory', icon: 'layers' },
});
