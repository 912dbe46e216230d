import { email } from '../fields';
import { placeResource } from './place-resource';

export const branches = placeResource(
  'branch',
  { name: 'branches', singular: 'Branch', plural: 'Branches', menu: { group: 'Management', icon: 'building-2' } },
  { email: email('Email') },
);
