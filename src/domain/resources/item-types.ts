import { namedList } from './named-list';

export const itemTypes = namedList({
  name: 'item-types',
  singular: 'Item Type',
  plural: 'Item Types',
  menu: { group: 'Inventory', icon: 'tags' },
});
