import { text, textarea } from '../fields';
import { defineResource } from '../resource';

/**
 * A list of names to classify other records by (brands, item types, contact types…): each a
 * name unique in its business, with an optional description.
 */
export function namedList({ name, singular, plural }: { name: string; singular: string; plural: string }) {
  return defineResource({
    name,
    singular,
    plural,
    display: 'name',
    fields: {
      name: text('Name', { required: true, unique: true }),
      description: textarea('Description'),
    },
    search: ['id', 'name', 'description'],
    sort: ['name'],
    columns: ['name', 'description'],
  });
}

/** A unit something is counted or weighed in: a name unique in its business, and its abbreviation. */
export function unitList({ name, singular, plural }: { name: string; singular: string; plural: string }) {
  return defineResource({
    name,
    singular,
    plural,
    display: 'name',
    fields: {
      name: text('Name', { required: true, unique: true }),
      abbreviation: text('Abbreviation', { required: true, max: 20 }),
    },
    search: ['id', 'name', 'abbreviation'],
    sort: ['name', 'abbreviation'],
    columns: ['name', 'abbreviation'],
  });
}
