import { sql, type RawBuilder } from 'kysely';
import { attributeName } from '../../domain/fields';
import { holdsAny, MASTER_PERMISSION } from '../../domain/permissions';
import {
  EVERY_PLACE,
  idsAt,
  levelAtEnd,
  PLACE_RESOURCES,
  PLACE_TYPES,
  placeAtEnd,
  reaches,
  type PlaceAccess,
  type PlaceEnd,
  type PlaceLevel,
  type PlaceRule,
  type PlaceType,
} from '../../domain/places';
import type { ResourceDefinition } from '../../domain/resource';
import { forbidden } from '../errors';
import type { Db, Scope } from '../db/scope';
import type { ApiRecord } from './codec';
import type { Query } from './store';

/**
 * Places on the server: what a scope holds, the SQL condition that keeps a read to the places
 * a user holds, and the check that a change is made by someone who operates at its place. The
 * engine applies both to every resource whose definition declares `places`; modules that read
 * place-bound rows with their own SQL (the overview, exports, activity) use `placeCondition` /
 * `placeColumnsCondition` the same way.
 */

/** What the scope holds: a master, and work without a user (the seeder), every place to operate. */
export function placeAccessOf(scope: Scope): PlaceAccess {
  if (!scope.places || holdsAny(scope.permissions, [MASTER_PERMISSION])) return EVERY_PLACE;
  return scope.places;
}

/** Whether the scope holds every place at `level`: then nothing need be confined. */
export function holdsEveryPlace(scope: Scope, level: PlaceLevel = 'view'): boolean {
  return reaches(placeAccessOf(scope).all, level);
}

const FALSE = sql<boolean>`1 = 0`;

function anyOf(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (parts.length === 0) return FALSE;
  return parts.length === 1 ? parts[0] : sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

function idIn(column: string, ids: number[] | 'all'): RawBuilder<boolean> {
  if (ids === 'all') return sql<boolean>`${sql.ref(column)} is not null`;
  return ids.length === 0 ? FALSE : sql<boolean>`${sql.ref(column)} in (${sql.join(ids.map((id) => sql.lit(id)))})`;
}

/** The condition that one end names a place the access holds at `level`. */
function endCondition(end: PlaceEnd, column: (name: string) => string, access: PlaceAccess, level: PlaceLevel): RawBuilder<boolean> {
  if ('type' in end) {
    return anyOf(
      PLACE_TYPES.flatMap((type) => {
        const ids = idsAt(access, type, level);
        if (ids !== 'all' && ids.length === 0) return [];
        return [sql<boolean>`(${sql.ref(column(end.type))} = ${sql.lit(type)} and ${idIn(column(end.id), ids)})`];
      }),
    );
  }
  // A type of place the access holds none of adds no term: an `or 1 = 0` would keep SQLite from
  // reading the other type's rows through its place index.
  return anyOf(
    PLACE_TYPES.flatMap((type) => {
      const ids = idsAt(access, type, level);
      return end[type] === undefined || (ids !== 'all' && ids.length === 0) ? [] : [idIn(column(end[type]), ids)];
    }),
  );
}

/** The condition that a record names no place at any end (an optional place: a price for every branch). */
function namesNoPlace(rule: PlaceRule, column: (name: string) => string): RawBuilder<boolean> {
  const columns = Object.values(rule.ends).flatMap((end) =>
    'type' in end ? [end.id] : PLACE_TYPES.flatMap((type) => (end[type] === undefined ? [] : [end[type]])),
  );
  return sql<boolean>`(${sql.join(
    columns.map((name) => sql`${sql.ref(column(name))} is null`),
    sql` and `,
  )})`;
}

/**
 * The condition that keeps rows of `rule` to those the access holds at `level` (any end for
 * `view`; at `operate`, the operating end), or null when it holds every place at that level.
 * `column` qualifies a column name as the query names it.
 */
export function placeCondition(
  rule: PlaceRule,
  column: (name: string) => string,
  access: PlaceAccess,
  level: PlaceLevel = 'view',
): RawBuilder<boolean> | null {
  if (reaches(access.all, level)) return null;
  const ends = level === 'view' ? Object.values(rule.ends) : [rule.ends[rule.operates]];
  const held = anyOf(ends.map((end) => endCondition(end, column, access, level)));
  return rule.optional && level === 'view' ? anyOf([held, namesNoPlace(rule, column)]) : held;
}

/** A query of `definition`'s records kept to the places the scope views (unchanged for a resource without places). */
export function confinedToPlaces(query: Query, definition: ResourceDefinition, column: (name: string) => string, scope: Scope): Query {
  if (!definition.places) return query;
  const condition = placeCondition(definition.places, column, placeAccessOf(scope), 'view');
  return condition ? query.where(condition) : query;
}

/** Whether lists of `definition` show this scope every record of the business (so kept totals hold). */
export function seesEveryRecord(definition: ResourceDefinition, scope: Scope): boolean {
  return !definition.places || holdsEveryPlace(scope, 'view');
}

/** The name of a place, for a message ("Makati Branch"); its id when it cannot be read. */
async function placeName(db: Db, scope: Scope, type: PlaceType, id: number): Promise<string> {
  const row = await db
    .selectFrom(PLACE_RESOURCES[type])
    .select('name')
    .where('id', '=', id)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  return row?.name ?? `${type} ${id}`;
}

/**
 * Refuses (403) a change of `record` by someone who does not operate at its operating end: a
 * document at its place, a stock request at the requesting place, a transfer where the goods
 * leave, a receive where they arrive; a record naming no place (a price for every branch) only
 * by someone who operates at every place. The record is as it is or as it would be written.
 */
export async function assertOperates(db: Db, scope: Scope, definition: ResourceDefinition, record: ApiRecord | Record<string, unknown>) {
  const rule = definition.places;
  if (!rule) return;
  const access = placeAccessOf(scope);
  if (reaches(levelAtEnd(access, rule, rule.operates, record), 'operate')) return;
  const noun = attributeName(definition.singular);
  const place = placeAtEnd(rule.ends[rule.operates], record);
  if (!place) throw forbidden(`Only someone who works at every place can change a ${noun} for every place.`);
  const name = await placeName(db, scope, place.type, place.id);
  throw forbidden(
    `You do not operate at ${name}: a ${noun} is made and changed only by someone who operates at ${rule.operatesLabel ?? 'its place'}.`,
  );
}
