import { namedList } from './named-list';

export const brands = namedList({ name: 'brands', singular: 'Brand', plural: 'Brands', menu: { group: 'Inventory', icon: 'tag' } });
