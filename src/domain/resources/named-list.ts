import { text, textarea, type Field } from '../fields';
import type { MenuEntry } from '../menu';
import { defineResource } from '../resource';

interface Naming {
  name: string;
  singular: string;
  plural: string;
  menu?: MenuEntry;
}

/** Records known by a name unique in their business, with one field more that lists show beside it. */
function byName({ name, singular, plural, menu }: Naming, [second, field]: [string, Field], sort: string[]) {
  return defineResource({
    name,
    singular,
    plural,
    menu,
    display: 'name',
    fields: { name: text('Name', { required: true, unique: true }), [second]: field },
    search: ['id', 'name', second],
    sort,
    columns: ['name', second],
  });
}

/**
 * A list of names to classify other records by (brands, item types, contact types…): each a
 * name unique in its business, with an optional description.
 */
export const namedList = (naming: Naming) => byName(naming, ['description', textarea('Description')], ['name']);

/** A unit something is counted or weighed in: a name unique in its business, and its abbreviation. */
export const unitList = (naming: Naming) =>
  byName(naming, ['abbreviation', text('Abbreviation', { required: true, max: 20 })], ['name', 'abbreviation']);
