import { useQuery } from '@tanstack/react-query';
import { holdsAny, MASTER_PERMISSION } from '../../domain/permissions';
import { EVERY_PLACE, type PlaceAccess, type PlaceLevel } from '../../domain/places';
import type { Actor } from '../../domain/where-made';
import { usePlaces, type Place } from './places';
import { useActiveBusinessId, usePermissions, userQuery } from './session';

/**
 * The places a user holds as the server reads them (`placeAccessOf` in
 * server/resources/places.ts): a master operates everywhere; anyone else holds their level at each
 * place of the list (`usePlaces`), or, while their places are not known, their all-places level.
 */
export function placeAccessFrom(
  permissions: ReadonlySet<string> | readonly string[],
  places: readonly Place[] | undefined,
  all: PlaceLevel | null,
): PlaceAccess {
  if (holdsAny(permissions, [MASTER_PERMISSION])) return EVERY_PLACE;
  const grants = (places ?? []).flatMap((place) => (place.level === null ? [] : [{ type: place.type, id: place.id, level: place.level }]));
  return { all, grants };
}

/** The signed-in user as the rules of who may make and change what, where, read them (domain/where-made.ts). */
export function useActor(): Actor {
  const permissions = usePermissions();
  const { places, all } = usePlaces();
  const userId = useQuery(userQuery(useActiveBusinessId())).data?.id;
  return { permissions, places: placeAccessFrom(permissions, places, all), userId };
}
