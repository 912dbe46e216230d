import { holdsAny, permissionName, type PermissionAction } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { usePermissions } from '../../lib/session';
import { slots, type ScreenAccess } from './slots';

/**
 * Whether a screen shows a button of `action`: the user holds any one of its required permissions
 * (`{action}-{prefix}` unless the screen names others), or the screen does not check at all.
 */
export function screenAllows(
  access: ScreenAccess | undefined,
  prefix: string,
  held: ReadonlySet<string>,
  action: PermissionAction,
): boolean {
  if (access?.check === false) return true;
  return holdsAny(held, access?.required?.[action] ?? [permissionName(action, prefix)]);
}

/** A screen's rule for its buttons, with the resource's access slot for that screen applied. */
export function useScreenAccess(definition: ResourceDefinition, screen: 'list' | 'view' | 'create' | 'edit') {
  const held = usePermissions();
  const access = slots.resolve(definition, `${screen}.access`);
  return (action: PermissionAction) => screenAllows(access, definition.permission, held, action);
}
