import { unitList } from './named-list';

export const measuringMasses = unitList({
  name: 'measuring-masses',
  singular: 'Measuring Mass',
  plural: 'Measuring Masses',
  menu: { group: 'Inventory', icon: 'scale' },
});
