/**
 * Places: the branches and warehouses of a business, and where each user may work. In each
 * business a user holds a set of places, each at a level — `view` (see its stock, documents and
 * figures) or `operate` (also make and change documents there) — and may hold every place at a
 * level ("All places", which takes in places added later). The master permission holds every
 * place to operate.
 *
 * A resource whose records belong to a place says so in its definition (`places`): which
 * columns name the place (its ends: one for most documents, two for goods moving between
 * places), and at which end a change needs `operate`. Both ends read it: the server confines
 * every read and write by it, the client offers only the places a user may use.
 */

export type PlaceType = 'branch' | 'warehouse';
export type PlaceLevel = 'view' | 'operate';

export const PLACE_TYPES: readonly PlaceType[] = ['branch', 'warehouse'];
export const PLACE_LEVELS: readonly PlaceLevel[] = ['view', 'operate'];

/** The resource (table and route) of each type of place. */
export const PLACE_RESOURCES: Readonly<Record<PlaceType, 'branches' | 'warehouses'>> = { branch: 'branches', warehouse: 'warehouses' };

export interface PlaceGrant {
  type: PlaceType;
  id: number;
  level: PlaceLevel;
}

/** What a user holds in one business: every place at `all` (none when null), and each of `grants`. */
export interface PlaceAccess {
  all: PlaceLevel | null;
  grants: readonly PlaceGrant[];
}

/** Every place, to operate: a master's, the system's own work (the seeder), and every user's before places existed. */
export const EVERY_PLACE: PlaceAccess = { all: 'operate', grants: [] };

const RANK: Readonly<Record<PlaceLevel, number>> = { view: 1, operate: 2 };

/** Whether `held` reaches `needed` (operate includes view). */
export function reaches(held: PlaceLevel | null | undefined, needed: PlaceLevel): boolean {
  return held != null && RANK[held] >= RANK[needed];
}

/** The higher of two levels. */
export function higher(a: PlaceLevel | null, b: PlaceLevel | null): PlaceLevel | null {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** The level `access` holds at one place: its all-places level or its grant there, the higher. */
export function levelAt(access: PlaceAccess, type: PlaceType, id: number): PlaceLevel | null {
  const grant = access.grants.find((candidate) => candidate.type === type && candidate.id === id);
  return higher(access.all, grant?.level ?? null);
}

/** The ids of the places of `type` that `access` holds at `level` or above, or `'all'` when it holds them all. */
export function idsAt(access: PlaceAccess, type: PlaceType, level: PlaceLevel): number[] | 'all' {
  if (reaches(access.all, level)) return 'all';
  return access.grants.filter((grant) => grant.type === type && reaches(grant.level, level)).map((grant) => grant.id);
}

export const isPlaceType = (value: unknown): value is PlaceType => value === 'branch' || value === 'warehouse';

/**
 * One end of a record's place: the columns naming it. A document names its place by a branch
 * column or a warehouse column (one of them set); a stock or a transfer's end by a type column
 * (`branch` / `warehouse`) and an id column; a place itself by its own id.
 */
export type PlaceEnd = { branch?: string; warehouse?: string } | { type: string; id: string };

/** How a resource's records belong to places (see the module's comment). */
export interface PlaceRule {
  /** The ends a record is at: anyone who views one of them sees it. */
  ends: Readonly<Record<string, PlaceEnd>>;
  /** The end at which creating or changing a record needs `operate`. */
  operates: string;
  /** A record naming no place (a price for every branch) is seen by all, and changed only by someone operating at every place. */
  optional?: boolean;
  /** In words, for whom the operating end is: "the requesting place". */
  operatesLabel?: string;
}

/** A document at its branch or warehouse (`branch_id` / `warehouse_id`): changed by someone operating there. */
export const AT_ITS_PLACE: PlaceRule = { ends: { place: { branch: 'branch_id', warehouse: 'warehouse_id' } }, operates: 'place' };

/**
 * A record at its branch (`branch_id`), or for every branch when it names none (a sale's or a
 * service's price): one at a branch is seen and set by those who work there, one for every branch
 * by those who work everywhere.
 */
export const AT_A_BRANCH_OR_ALL: PlaceRule = { ends: { place: { branch: 'branch_id' } }, operates: 'place', optional: true };

/** Goods between two places (`from_location_*`, `to_location_*`): both sides view it; `operates` says which side acts. */
export function betweenPlaces(operates: 'from' | 'to', operatesLabel: string): PlaceRule {
  return {
    ends: {
      from: { type: 'from_location_type', id: 'from_location_id' },
      to: { type: 'to_location_type', id: 'to_location_id' },
    },
    operates,
    operatesLabel,
  };
}

/** The place a record names at one end, if any. */
export function placeAtEnd(end: PlaceEnd, record: Readonly<Record<string, unknown>>): { type: PlaceType; id: number } | null {
  if ('type' in end) {
    const type = record[end.type];
    const id = record[end.id];
    return isPlaceType(type) && typeof id === 'number' ? { type, id } : null;
  }
  for (const type of PLACE_TYPES) {
    const column = end[type];
    const id = column === undefined ? undefined : record[column];
    if (typeof id === 'number') return { type, id };
  }
  return null;
}

/** The level `access` holds at the record's end `name` (an end naming no place: the all-places level). */
export function levelAtEnd(access: PlaceAccess, rule: PlaceRule, name: string, record: Readonly<Record<string, unknown>>) {
  const place = placeAtEnd(rule.ends[name], record);
  return place ? levelAt(access, place.type, place.id) : access.all;
}

/** Whether `access` may see the record: it views one of its ends (or, for an optional place, the record names none). */
export function viewsRecord(access: PlaceAccess, rule: PlaceRule, record: Readonly<Record<string, unknown>>): boolean {
  const places = Object.values(rule.ends).map((end) => placeAtEnd(end, record));
  if (rule.optional && places.every((place) => place === null)) return true;
  return places.some((place) => place !== null && reaches(levelAt(access, place.type, place.id), 'view'));
}

/** Whether `access` may make or change the record: it operates at its operating end. */
export function operatesRecord(access: PlaceAccess, rule: PlaceRule, record: Readonly<Record<string, unknown>>): boolean {
  return reaches(levelAtEnd(access, rule, rule.operates, record), 'operate');
}
