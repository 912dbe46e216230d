/**
 * The signed-in user's permission and role names, kept in local storage under `permissions` and
 * `roles` (JSON lists) and refreshed each time the user is retrieved: `User-Retrieved` fires with
 * the user as its detail.
 */

export const USER_RETRIEVED = 'User-Retrieved';
export const PERMISSIONS_KEY = 'permissions';
export const ROLES_KEY = 'roles';

export interface RetrievedUser {
  permission_names: readonly string[];
  role_names: readonly string[];
}

export const userRetrieved = (user: RetrievedUser) => new CustomEvent<RetrievedUser>(USER_RETRIEVED, { detail: user });

/** Listens on `target` for `User-Retrieved` and keeps what it carries in `storage`; returns the way to stop. */
export function keepAccessOnRetrieval(target: EventTarget, storage: Pick<Storage, 'setItem'>): () => void {
  const keep = (event: Event) => {
    const user = (event as CustomEvent<RetrievedUser>).detail;
    storage.setItem(PERMISSIONS_KEY, JSON.stringify(user.permission_names));
    storage.setItem(ROLES_KEY, JSON.stringify(user.role_names));
  };
  target.addEventListener(USER_RETRIEVED, keep);
  return () => target.removeEventListener(USER_RETRIEVED, keep);
}

/** What is kept goes when the session ends. */
export function forgetKeptAccess(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(PERMISSIONS_KEY);
  storage.removeItem(ROLES_KEY);
}
