import { higher, levelAt, PLACE_TYPES, type PlaceGrant, type PlaceLevel, type PlaceType } from '../../../domain/places';
import type { Place } from '../../lib/places';

/**
 * A user's places as their form holds them (domain/places.ts): every place at `all`, and single
 * places each at a level, named where the user's record named them. What the editor may change
 * is what the server lets them (src/server/services/user-places.ts): a single place only where
 * they operate themselves, "All places" only when they operate at every place.
 */

export interface UserPlaces {
  all: PlaceLevel | null;
  grants: (PlaceGrant & { name?: string })[];
}

/** The body's `places`: each single place by type, id and level. */
export interface PlacesBody {
  all: PlaceLevel | null;
  grants: PlaceGrant[];
}

/** What the form starts with: the record's places; null for a new user (see `defaultPlaces`). */
export function startingPlaces(record?: Record<string, unknown>): UserPlaces | null {
  const places = record?.places as UserPlaces | null | undefined;
  return places ? { all: places.all, grants: [...places.grants] } : null;
}

/**
 * A new user's places until the editor chooses: every place to operate, as the server gives when
 * nothing is said and as everyone held before places existed, from someone who may give it; from
 * anyone else none, for them to choose among their own.
 */
export const defaultPlaces = (editorAll: PlaceLevel | null): UserPlaces =>
  editorAll === 'operate' ? { all: 'operate', grants: [] } : { all: null, grants: [] };

/** The body sent; none while the form has not chosen (the server's default then holds). */
export function placesBody(value: UserPlaces | null): PlacesBody | undefined {
  if (!value) return undefined;
  return { all: value.all, grants: value.grants.map(({ type, id, level }) => ({ type, id, level })) };
}

/** `value` with the place at `level`, or without it (null). */
export function withLevel(value: UserPlaces, place: { type: PlaceType; id: number; name?: string }, level: PlaceLevel | null): UserPlaces {
  const others = value.grants.filter((grant) => grant.type !== place.type || grant.id !== place.id);
  if (level === null) return { ...value, grants: others };
  const at = value.grants.findIndex((grant) => grant.type === place.type && grant.id === place.id);
  const grant = { type: place.type, id: place.id, level, name: place.name };
  // In its place, so the list keeps its order.
  return { ...value, grants: at === -1 ? [...others, grant] : value.grants.map((other, index) => (index === at ? grant : other)) };
}

/** Only someone who operates at every place may give or take "All places". */
export const changesAll = (editorAll: PlaceLevel | null) => editorAll === 'operate';

/** A place as the editor shows it. */
export interface PlaceRow {
  type: PlaceType;
  id: number;
  name: string;
  code: string;
  /** The user's own grant there. */
  level: PlaceLevel | null;
  /** What "All places" gives them there beyond it, if anything. */
  throughAll: PlaceLevel | null;
  /** The editor operates there, so may give or take it. */
  changeable: boolean;
  /** The editor's own level there. */
  held: PlaceLevel | null;
  /** Not among the business's places now (trashed since it was given). */
  gone: boolean;
}

/**
 * Every place of the business, branches then warehouses, with the user's grant there and whether
 * the editor may change it; and any place the user holds that is no longer listed, changeable only
 * by someone operating everywhere.
 */
export function placeRows(value: UserPlaces, places: readonly Place[], editorAll: PlaceLevel | null): PlaceRow[] {
  const grantAt = (type: PlaceType, id: number) => value.grants.find((grant) => grant.type === type && grant.id === id);
  const row = (type: PlaceType, id: number, name: string, code: string, held: PlaceLevel | null, gone: boolean): PlaceRow => {
    const level = grantAt(type, id)?.level ?? null;
    const through = higher(value.all, level) === level ? null : value.all;
    return { type, id, name, code, level, throughAll: through, changeable: held === 'operate', held, gone };
  };
  const listed = places.map((place) => row(place.type, place.id, place.name, place.code, place.level, false));
  const gone = value.grants
    .filter((grant) => !places.some((place) => place.type === grant.type && place.id === grant.id))
    .map((grant) => row(grant.type, grant.id, grant.name ?? `#${grant.id}`, '', editorAll, true));
  return PLACE_TYPES.flatMap((type) => [...listed, ...gone].filter((place) => place.type === type));
}

/**
 * Where the user works must be one of their places (the server refuses it otherwise): what to say,
 * before the form is sent, when it is not.
 */
export function worksAtProblem(
  value: UserPlaces | null,
  values: Readonly<Record<string, unknown>>,
  places: readonly Place[],
): string | undefined {
  const type = values.userable_type;
  const id = values.userable_id;
  if (!value || (type !== 'branch' && type !== 'warehouse') || typeof id !== 'number') return undefined;
  if (levelAt(value, type, id) !== null) return undefined;
  const name =
    places.find((place) => place.type === type && place.id === id)?.name ??
    value.grants.find((grant) => grant.type === type && grant.id === id)?.name ??
    `this ${type}`;
  return `The user works at ${name}, which is not one of their places: give them ${name}, or change where they work.`;
}

/** "All places: operate" or each place with its level, for the user's details. */
export function describedPlaces(value: UserPlaces | null | undefined): string[] {
  if (!value) return [];
  const lines = value.all ? [`All places: ${value.all}`] : [];
  for (const grant of value.grants) lines.push(`${grant.name ?? `${grant.type} #${grant.id}`} (${grant.type}): ${grant.level}`);
  return lines;
}
