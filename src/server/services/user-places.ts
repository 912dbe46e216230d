import { z } from 'zod';
import {
  levelAt,
  PLACE_RESOURCES,
  PLACE_TYPES,
  reaches,
  type PlaceAccess,
  type PlaceGrant,
  type PlaceLevel,
  type PlaceType,
} from '../../domain/places';
import { recordActivity } from '../activity/activity-log';
import { nowIso } from '../db/dialect';
import { forbidden, validationError } from '../errors';
import { placeAccessOf } from '../resources/places';
import type { Db, Scope, Trx } from '../db/scope';

/**
 * A user's places in a business (`domain/places.ts`): read with their names, and replaced — by
 * someone who operates at every place the change gives, takes or moves (every place, for the
 * all-places grant), so nobody grants what they do not hold. Each change is in the user's history.
 */

const level = z.enum(['view', 'operate'], { error: 'The level must be view or operate.' });

/** The body field `places` of a user's create or update. */
export const placesInput = z.object(
  {
    all: level.nullable(),
    grants: z
      .array(
        z.object({
          type: z.enum(['branch', 'warehouse'], { error: 'Each place is a branch or a warehouse.' }),
          id: z.number({ error: 'Each place id must be a whole number.' }).int().positive().max(2_147_483_647),
          level,
        }),
        { error: 'The places field must be a list.' },
      )
      .max(1000, 'A user holds at most 1,000 single places.'),
  },
  { error: 'The places field must say all and grants.' },
);
export type PlacesInput = z.infer<typeof placesInput>;

/** A user's places as a read shows them: each grant with its place's name. */
export interface UserPlaces {
  all: PlaceLevel | null;
  grants: (PlaceGrant & { name: string })[];
}

const asLevel = (value: unknown): PlaceLevel | null => (value === 'view' || value === 'operate' ? value : null);

/** The places of each of `userIds` in the scope's business. */
export async function placesOfUsers(db: Db, scope: Scope, userIds: readonly number[]): Promise<Map<number, UserPlaces>> {
  const result = new Map<number, UserPlaces>();
  if (userIds.length === 0) return result;
  const members = await db
    .selectFrom('memberships')
    .select(['user_id', 'all_places'])
    .where('business_id', '=', scope.businessId)
    .where('user_id', 'in', userIds)
    .execute();
  for (const member of members) result.set(Number(member.user_id), { all: asLevel(member.all_places), grants: [] });
  for (const type of PLACE_TYPES) {
    // Branches and warehouses have the same columns: either is joined as `place`.
    const place = `${PLACE_RESOURCES[type]} as place` as 'branches as place';
    const rows = await db
      .selectFrom('user_places')
      .innerJoin(place, 'place.id', 'user_places.place_id')
      .select(['user_places.user_id', 'user_places.place_id', 'user_places.level', 'place.name'])
      .where('user_places.business_id', '=', scope.businessId)
      .where('user_places.place_type', '=', type)
      .where('user_places.user_id', 'in', userIds)
      .where('place.business_id', '=', scope.businessId)
      .orderBy('place.name')
      .orderBy('place.id')
      .execute();
    for (const row of rows) {
      const places = result.get(Number(row.user_id));
      const grantLevel = asLevel(row.level);
      if (places && grantLevel) places.grants.push({ type, id: Number(row.place_id), level: grantLevel, name: row.name });
    }
  }
  return result;
}

/**
 * "All places: operate; Makati Branch: view" — how the history says a user's places: branches,
 * then warehouses, each by name, whatever order they were given in.
 */
function described(places: UserPlaces): string {
  const grants = [...places.grants].sort(
    (a, b) => PLACE_TYPES.indexOf(a.type) - PLACE_TYPES.indexOf(b.type) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id),
  );
  const parts = [...(places.all ? [`All places: ${places.all}`] : []), ...grants.map((grant) => `${grant.name}: ${grant.level}`)];
  return parts.length > 0 ? parts.join('; ') : 'No places';
}

const keyOf = (type: PlaceType, id: number) => `${type}:${id}`;

/** Whether two sets of places are the same, whatever order their grants were given in. */
function samePlaces(a: UserPlaces, b: UserPlaces): boolean {
  const rows = (places: UserPlaces) =>
    places.grants
      .map((grant) => `${keyOf(grant.type, grant.id)}:${grant.level}`)
      .sort()
      .join(',');
  return a.all === b.all && rows(a) === rows(b);
}

/**
 * The places given by `input`, each a live place of the business, with its name; refused (422)
 * otherwise. A trashed place the user already holds may be kept as it is (a form sends back every
 * grant it read), so that a restored place is theirs again; it is not given anew.
 */
async function namedGrants(db: Db, scope: Scope, input: PlacesInput, before: UserPlaces): Promise<UserPlaces> {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  const grants: UserPlaces['grants'] = [];
  for (const type of PLACE_TYPES) {
    const ids = input.grants.filter((grant) => grant.type === type).map((grant) => grant.id);
    if (ids.length === 0) continue;
    const table = PLACE_RESOURCES[type];
    const rows = await db
      .selectFrom(table)
      .select(['id', 'name', 'deleted_at'])
      .where('business_id', '=', scope.businessId)
      .where('id', 'in', ids)
      .execute();
    const places = new Map(rows.map((row) => [Number(row.id), row]));
    const kept = (grant: PlaceGrant) =>
      before.grants.some((held) => held.type === grant.type && held.id === grant.id && held.level === grant.level);
    input.grants.forEach((grant, index) => {
      if (grant.type !== type) return;
      const place = places.get(grant.id);
      const name = place && (place.deleted_at === null || kept(grant)) ? place.name : undefined;
      if (name === undefined) errors[`places.grants.${index}.id`] = [`The selected ${type} is invalid.`];
      else if (seen.has(keyOf(type, grant.id))) errors[`places.grants.${index}.id`] = [`${name} is given twice.`];
      else grants.push({ type, id: grant.id, level: grant.level, name });
      seen.add(keyOf(type, grant.id));
    });
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { all: input.all, grants };
}

/** The user's grants as `access`, for reading a level at a place. */
const asAccess = (places: UserPlaces): PlaceAccess => places;

/** What a new user holds when their creator says nothing: every place to operate (which only someone holding that may give). */
export const EVERY_PLACE_INPUT: PlacesInput = { all: 'operate', grants: [] };

/**
 * Refuses (403) a change of places the editor does not hold themselves: the all-places grant
 * needs every place to operate; a single place given, taken or moved, to operate there.
 * `saidNothing`: a new user's creator named no places (so the change is to EVERY_PLACE_INPUT).
 */
function assertChangesOnlyHeld(scope: Scope, before: UserPlaces, after: UserPlaces, saidNothing: boolean): void {
  const editor = placeAccessOf(scope);
  if (before.all !== after.all && !reaches(editor.all, 'operate')) {
    throw forbidden(
      saidNothing
        ? 'Say which places the new user works at: a user made without them holds every place, which only someone who operates at every place can give.'
        : 'Only someone who operates at every place can give or take "All places".',
    );
  }
  const changed = new Map<string, { type: PlaceType; id: number; name: string }>();
  for (const grant of [...before.grants, ...after.grants]) {
    const was = before.grants.find((other) => other.type === grant.type && other.id === grant.id)?.level ?? null;
    const is = after.grants.find((other) => other.type === grant.type && other.id === grant.id)?.level ?? null;
    if (was !== is) changed.set(keyOf(grant.type, grant.id), grant);
  }
  const beyond = [...changed.values()].filter((place) => !reaches(levelAt(editor, place.type, place.id), 'operate'));
  if (beyond.length > 0) {
    throw forbidden(`You cannot give or take places you do not operate at yourself: ${beyond.map((place) => place.name).join(', ')}.`);
  }
}

/** Refuses (422) a "works at" that is not one of the user's places. */
export function assertWorksAtHeld(places: UserPlaces, type: unknown, id: unknown): void {
  if ((type !== 'branch' && type !== 'warehouse') || typeof id !== 'number') return;
  if (levelAt(asAccess(places), type, id) === null) {
    throw validationError({ userable_id: ['Where the user works must be one of their places.'] });
  }
}

/**
 * Replaces the user's places in this business with `input`, in the caller's transaction, and
 * records the change in the user's history. Returns the places as they now are.
 */
export async function replaceUserPlaces(trx: Trx, scope: Scope, userId: number, input: PlacesInput): Promise<UserPlaces> {
  const before = (await placesOfUsers(trx, scope, [userId])).get(userId) ?? { all: null, grants: [] };
  const after = await namedGrants(trx, scope, input, before);
  assertChangesOnlyHeld(scope, before, after, input === EVERY_PLACE_INPUT);
  if (samePlaces(before, after)) return before;
  await trx
    .updateTable('memberships')
    .set({ all_places: after.all ?? 'none', updated_at: nowIso() })
    .where('user_id', '=', userId)
    .where('business_id', '=', scope.businessId)
    .execute();
  await trx.deleteFrom('user_places').where('business_id', '=', scope.businessId).where('user_id', '=', userId).execute();
  if (after.grants.length > 0) {
    const now = nowIso();
    await trx
      .insertInto('user_places')
      .values(
        after.grants.map((grant) => ({
          business_id: scope.businessId,
          user_id: userId,
          place_type: grant.type,
          place_id: grant.id,
          level: grant.level,
          created_at: now,
        })),
      )
      .execute();
  }
  await recordActivity(trx, scope, {
    resource: 'users',
    recordId: userId,
    action: 'places-changed',
    changes: { places: { from: described(before), to: described(after) } },
  });
  return after;
}
