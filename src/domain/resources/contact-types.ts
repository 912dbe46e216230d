import { namedList } from './named-list';

export const contactTypes = namedList({ name: 'contact-types', singular: 'Contact Type', plural: 'Contact Types' });
