import { text, textarea, type Field } from '../fields';
import type { MenuEntry } from '../menu';
import type { PlaceType } from '../places';
import { defineResource } from '../resource';

/**
 * A branch or a warehouse: a place stock is kept at and documents are made at, known by a code
 * unique in its business and a name, with the BIR branch code its printed documents show and
 * where to find it (`more`: what one kind of place adds). It is itself a place: a user sees the
 * ones they hold (`domain/places.ts`).
 */
export function placeResource(
  type: PlaceType,
  naming: { name: string; singular: string; plural: string; menu: MenuEntry },
  more: Record<string, Field> = {},
) {
  return defineResource({
    ...naming,
    display: 'name',
    attachments: true,
    places: { ends: { place: { [type]: 'id' } }, operates: 'place' },
    fields: {
      code: text('Code', { required: true, unique: true, max: 32 }),
      name: text('Name', { required: true }),
      branch_code: text('BIR branch code', { format: 'branch-code' }),
      address: textarea('Address'),
      phone: text('Phone', { max: 50 }),
      ...more,
    },
    search: ['id', 'code', 'name', 'address'],
    sort: ['code', 'name'],
    columns: ['code', 'name', 'address', 'phone'],
  });
}
