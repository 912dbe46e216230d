import { queryOptions, useQuery } from '@tanstack/react-query';
import { reaches, type PlaceGrant, type PlaceLevel, type PlaceType } from '../../domain/places';
import type { ResourceDefinition } from '../../domain/resource';
import { api } from './api';
import { keptAnswer } from './kept-answer';
import type { ReadBack } from './resource-queries';
import { useActiveBusinessId, userQuery } from './session';

/**
 * The places of the active business as the signed-in user holds them (`GET /api/places`,
 * domain/places.ts), and what the forms offer of them: where a document is made, only the places
 * the user operates at; where goods are asked from or sent to, every place of the business.
 */

/** A branch or warehouse of the business, with the user's level there (null where they do not work). */
export interface Place {
  type: PlaceType;
  id: number;
  code: string;
  name: string;
  level: PlaceLevel | null;
}

export interface PlacesAnswer extends ReadBack {
  /** What the user holds at every place, new ones included; null when they hold single places only. */
  all: PlaceLevel | null;
  /** Branches, then warehouses, by name. */
  data: Place[];
}

/** The places, kept on this device like the overview's answers; without a network, the kept copy. */
export const placesQuery = (businessId: number | null) =>
  queryOptions({
    queryKey: [businessId, 'places'],
    queryFn: ({ signal }): Promise<PlacesAnswer> =>
      keptAnswer(businessId, 'places', `${businessId}|places`, 'the list of places', () =>
        api<PlacesAnswer>('GET', '/api/places', { signal }),
      ),
    networkMode: 'always',
    // A place added, or the user's own places changed, shows in the next form opened a minute on.
    staleTime: 60_000,
    retry: false,
    // Not kept and no network: the forms fall back to the profile's places. Asking again as each
    // form mounts would put the query back to loading, and a screen waiting on it would never open.
    retryOnMount: false,
  });

/** The places a signed-in user's profile names (`CurrentUser.places`). */
interface ProfilePlaces {
  all: PlaceLevel | null;
  grants: readonly (PlaceGrant & { name: string })[];
}

/**
 * The user's places when the server's list was never kept on this device: their single places,
 * named by their profile. Unknown for someone holding every place, whose places only the list names.
 */
export function placesOfProfile(user: { places?: ProfilePlaces | null } | undefined): Place[] | undefined {
  const held = user?.places;
  if (!held || held.all !== null) return undefined;
  return held.grants.map((grant) => ({ type: grant.type, id: grant.id, code: '', name: grant.name, level: grant.level }));
}

/**
 * The business's places with the user's level at each: undefined while loading, and when neither
 * the server nor this device can say (the forms then search places as any other record). Read
 * from the profile, only the user's own places are known: not `complete`.
 */
export function usePlaces(): { places: Place[] | undefined; all: PlaceLevel | null; loading: boolean; complete: boolean } {
  const businessId = useActiveBusinessId();
  const answer = useQuery(placesQuery(businessId));
  const user = useQuery(userQuery(businessId)).data;
  if (answer.data) return { places: answer.data.data, all: answer.data.all, loading: false, complete: true };
  return {
    places: placesOfProfile(user),
    all: user?.places?.all ?? null,
    loading: answer.isPending && answer.fetchStatus !== 'idle',
    complete: false,
  };
}

/** The places held at `level` or above, of one type or both. */
export function placesAt(places: readonly Place[], level: PlaceLevel, type?: PlaceType): Place[] {
  return places.filter((place) => reaches(place.level, level) && (type === undefined || place.type === type));
}

/** The one place the user operates at, when there is exactly one: they never have to pick it. */
export function soleOperatingPlace(places: readonly Place[]): Place | undefined {
  const operated = placesAt(places, 'operate');
  return operated.length === 1 ? operated[0] : undefined;
}

/**
 * A field of a form that names a place at one end of the record: `branch_id` or `warehouse_id`
 * of a document (`type` says which), or the type or id column of a transfer's end.
 */
export interface PlaceField {
  end: string;
  /** Making or changing the record needs `operate` at this end (a document's place, a request's requesting place). */
  operates: boolean;
  role: 'type' | 'id';
  /** The one type of place a column per type names. */
  type?: PlaceType;
  /** Of a type and id pair: the other column. */
  typeField?: string;
  idField?: string;
}

/** The form's fields that name places, by field name, from the definition's `places`. */
export function placeFieldsOf(definition: ResourceDefinition): Record<string, PlaceField> {
  const rule = definition.places;
  const fields: Record<string, PlaceField> = {};
  if (!rule) return fields;
  for (const [end, columns] of Object.entries(rule.ends)) {
    const operates = end === rule.operates;
    if ('type' in columns) {
      fields[columns.type] = { end, operates, role: 'type', idField: columns.id };
      fields[columns.id] = { end, operates, role: 'id', typeField: columns.type };
    } else {
      for (const [type, column] of Object.entries(columns) as [PlaceType, string][]) fields[column] = { end, operates, role: 'id', type };
    }
  }
  // A place's own id (a branch is itself a place) is no field of its form.
  for (const name of Object.keys(fields)) if (!(name in definition.fields)) delete fields[name];
  return fields;
}

/** The places a field offers: where the record is made, those the user operates at; another end, every place. */
export const offeredAt = (places: readonly Place[], field: PlaceField): Place[] =>
  field.operates ? placesAt(places, 'operate') : [...places];

/** How a form shows a place field, given what it holds now. */
export type PlaceInput =
  | { as: 'hidden' }
  /** The one place the user operates at, filled in: said, not asked. */
  | { as: 'text'; place: Place }
  /** A pick among these places (of the type the field or its type column says). */
  | { as: 'picker'; choices: Place[] }
  /** A type column: the types offered. */
  | { as: 'types'; types: PlaceType[] };

const present = (value: unknown) => value !== null && value !== undefined && value !== '';

/**
 * How `name` shows: a user operating at one place sees it filled in as text, and no field for the
 * other type of place; a field of a type they operate nowhere at is left out when they operate at
 * the other type (the document goes there). A value from elsewhere (a source document's place) is
 * kept and shown in its picker.
 */
export function placeInputOf(
  field: PlaceField,
  places: readonly Place[],
  values: Readonly<Record<string, unknown>>,
  name: string,
): PlaceInput {
  const offered = offeredAt(places, field);
  const sole = field.operates ? soleOperatingPlace(places) : undefined;
  const value = values[name];
  if (field.role === 'type') {
    const id = values[field.idField!];
    if (sole && value === sole.type && id === sole.id) return { as: 'hidden' };
    const types = [...new Set([...offered.map((place) => place.type), ...(present(value) ? [value as PlaceType] : [])])];
    return { as: 'types', types };
  }
  const type = field.type ?? (values[field.typeField!] as PlaceType | undefined);
  if (sole && sole.type === type && value === sole.id) return { as: 'text', place: sole };
  const choices = offered.filter((place) => place.type === type);
  if (field.type && !present(value) && choices.length === 0 && offered.length > 0) return { as: 'hidden' };
  return { as: 'picker', choices };
}
