import { madeTodayBy, type Transition } from './lifecycle';
import { holdsAny, permissionName } from './permissions';
import { operatesRecord, type PlaceAccess } from './places';
import type { ResourceDefinition } from './resource';
import { getResource } from './resources/registry';

/**
 * Who may make a document from another, and take a document's transitions, by the rules the
 * server applies: the permission, and `operate` at the place where it is made or changed (the
 * operating end of the kind's `places`, on the place columns it takes from its source). The
 * client reads them to offer a button only to those the server would not refuse.
 */

/** Who is asking: their permissions, the places they hold (a master's: every place), and who they are. */
export interface Actor {
  permissions: ReadonlySet<string> | readonly string[];
  places: PlaceAccess;
  userId?: number;
}

/**
 * Kinds whose ends are their source's turned round: a return goes from its transfer's destination
 * back to where the transfer came from (`returnedEnds` in server/documents/logistics.ts).
 */
const TURNED_ROUND: ReadonlySet<string> = new Set(['stock-returns']);

/**
 * The place columns a document of kind `made` takes from `source`: its source's own (a receive's
 * ends are its transfer's, a payment is at its bill's place, a transfer goes between its request's
 * places, a receive order is at its order's place), or for a return, its transfer's turned round.
 */
export function placesFromSource(made: ResourceDefinition, source: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (!TURNED_ROUND.has(made.name)) return source;
  return {
    from_location_type: source.to_location_type,
    from_location_id: source.to_location_id,
    to_location_type: source.from_location_type,
    to_location_id: source.from_location_id,
  };
}

/**
 * Whether `actor` may make a document of kind `made` from `source`: they may create that kind, and
 * operate where it would be made (a receive at the transfer's destination, a return where the
 * goods go back from, a transfer where a request asks its goods from). A kind bound to no place
 * is made anywhere.
 */
export function mayMake(actor: Actor, made: ResourceDefinition, source: Readonly<Record<string, unknown>>): boolean {
  return (
    holdsAny(actor.permissions, [permissionName('create', made.permission)]) &&
    (!made.places || operatesRecord(actor.places, made.places, placesFromSource(made, source)))
  );
}

/**
 * What a transition needs besides its own permission (`Transition.alsoNeeds`): a count's post,
 * creating stock adjustments. Held by whoever takes it, maker or not.
 */
export const alsoNeeded = (transition: Transition): string[] =>
  transition.alsoNeeds ? [permissionName(transition.alsoNeeds.permission, getResource(transition.alsoNeeds.resource).permission)] : [];

/**
 * Whether `actor` may take `transition` on `record`: with its permission on the kind it is taken
 * as (a void or a cancel the document's own; a transfer's rest closed as lost, the receives'), or
 * as the document's maker on the day they made it where the transition allows it, and what it
 * also needs; and where they operate — at the document's operating end, or where the kind it is
 * taken as is made.
 */
export function mayTake(
  actor: Actor,
  definition: ResourceDefinition,
  transition: Transition,
  record: Readonly<Record<string, unknown>>,
  now = new Date(),
): boolean {
  const takenAs = transition.asKind ? getResource(transition.asKind) : definition;
  const permitted =
    holdsAny(actor.permissions, [permissionName(transition.permission, takenAs.permission)]) ||
    (transition.byMakerSameDay === true &&
      holdsAny(actor.permissions, [permissionName('create', definition.permission)]) &&
      madeTodayBy(record, actor.userId, now));
  const also = alsoNeeded(transition).every((permission) => holdsAny(actor.permissions, [permission]));
  return permitted && also && (!takenAs.places || operatesRecord(actor.places, takenAs.places, record));
}
