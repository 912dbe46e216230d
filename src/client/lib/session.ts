import { hashKey, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { holdsAny } from '../../domain/permissions';
import { activeBusinessId, api, ApiError, setActiveBusinessId, subscribeToBusiness } from './api';
import { takeEarlyUser } from './early-user';
import { forgetKeptAccess, userRetrieved } from './kept-access';
import { forgetKeptLooks } from './kept-look';
import { deleteOfflineStore, offlineDatabase, openOfflineStore } from './offline-store';
import { whenIdle } from './when-idle';
import type { PlaceGrant, PlaceLevel } from '../../domain/places';

export interface Business {
  id: number;
  name: string;
  /** Its unit prices include VAT, and whether it is VAT-registered: how the line editor prices, as the server will. */
  prices_include_vat?: boolean;
  vat_registered?: boolean;
}

export interface CurrentUser {
  id: number;
  name: string;
  email: string;
  business_id: number | null;
  userable_from: string | null;
  /** Where they work in this business: a branch, a warehouse, or none. Absent from a profile kept before it was sent. */
  userable_type?: 'branch' | 'warehouse' | 'none' | null;
  userable_id?: number | null;
  role_names: string[];
  permission_names: string[];
  /**
   * The places they work at in this business (domain/places.ts; a master: every place to operate),
   * each single place with its name. Null without a business; absent from a profile kept before it was sent.
   */
  places?: { all: PlaceLevel | null; grants: (PlaceGrant & { name: string })[] } | null;
  businesses: Business[];
}

/** How long the signed-in user and their businesses are kept for opening the app offline. */
export const SESSION_CACHE_DAYS = 30;
export { KEPT_SESSION_KEY, sessionKept } from './kept-session';
/**
 * The session's queries are never dropped from memory while the app runs (they are a few hundred
 * bytes). Not "30 days": a gcTime above setTimeout's ceiling (2^31 − 1 ms, about 24.8 days) fires
 * at once, so a query nobody watched yet (the user asked for as the app starts) was dropped and
 * asked for again.
 */
const KEPT_WHILE_RUNNING = Infinity;

export const userQuery = (businessId: number | null) =>
  queryOptions({
    queryKey: ['session', 'user', businessId],
    queryFn: async () => {
      // The first ask was made as the app started (first-screen.ts), before its code was all evaluated.
      const user = await (takeEarlyUser<CurrentUser>() ?? api<CurrentUser>('GET', '/api/auth/user'));
      window.dispatchEvent(userRetrieved(user));
      return user;
    },
    retry: false,
    // A refusal stands until the session changes (a sign-in resets these queries): a screen drawn
    // after it does not ask again, only to be refused again.
    retryOnMount: false,
    staleTime: 60_000,
    gcTime: KEPT_WHILE_RUNNING,
  });

export const businessesQuery = () =>
  queryOptions({
    queryKey: ['session', 'businesses'],
    queryFn: async () => (await api<{ data: Business[] }>('GET', '/api/businesses/get-all-businesses')).data,
    retry: false,
    staleTime: 5 * 60_000,
    gcTime: KEPT_WHILE_RUNNING,
  });

/**
 * After a business is created: its creator's businesses are asked again by
 * `retrieve-all-businesses` and kept as the session's, so the switcher shows the new one at once.
 */
export async function retrieveAllBusinesses(queryClient: QueryClient): Promise<void> {
  await queryClient.fetchQuery({
    ...businessesQuery(),
    queryFn: async () => (await api<{ data: Business[] }>('GET', '/api/businesses/retrieve-all-businesses')).data,
    staleTime: 0,
  });
}

export function useActiveBusinessId(): number | null {
  return useSyncExternalStore(subscribeToBusiness, activeBusinessId);
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'failed'; error: unknown }
  | { status: 'signed-in'; user: CurrentUser; businesses: Business[]; businessId: number | null };

/**
 * Who is signed in and in which business. On start the user is fetched, then their businesses;
 * the first business is selected when none (or one no longer theirs) is.
 */
export function useSession(): SessionState {
  const queryClient = useQueryClient();
  const businessId = useActiveBusinessId();
  const user = useQuery(userQuery(businessId));
  const businesses = useQuery({ ...businessesQuery(), enabled: user.isSuccess });
  // The user's own answer names their businesses too: enough until get-all-businesses answers,
  // and all there is when the app opens offline before that answer was ever kept.
  const list = businesses.data ?? user.data?.businesses;
  const signedOut = user.error instanceof ApiError && user.error.status === 401;

  useEffect(() => {
    if (user.error instanceof ApiError && user.error.status === 403) setActiveBusinessId(null);
  }, [user.error]);
  // The server ended the session: what was kept of it goes (a user in error is not kept), so the
  // next start asks to sign in too — the user as read in another business (or none, at the first
  // start) included. The outbox and the offline copies wait for the next sign-in.
  useEffect(() => {
    if (!signedOut) return;
    forgetKeptAccess(localStorage);
    forgetKeptLooks(localStorage);
    forgetEndedSession(queryClient, businessId);
  }, [signedOut, queryClient, businessId]);
  useEffect(() => {
    if (!list) return;
    if (businessId === null || !list.some((business) => business.id === businessId)) setActiveBusinessId(list[0]?.id ?? null);
  }, [list, businessId]);

  // The outbox's code loads once the first screen has drawn (whenIdle), once per user signed in; it
  // starts the outbox of whoever is signed in by then. On a slow phone the screen comes first.
  const userId = user.data?.id;
  useEffect(() => {
    if (userId !== undefined) whenIdle(() => void import('./outbox').then(({ startOutbox }) => startOutbox()));
  }, [userId]);
  // And the device's blocks of document numbers (lib/number-blocks.ts), kept topped up.
  const fetched = user.data;
  useEffect(() => {
    if (!fetched) return;
    whenIdle(
      () => void import('./number-blocks').then(({ keepNumberBlocks }) => offlineDatabase()?.then((db) => keepNumberBlocks(db, fetched))),
    );
  }, [fetched]);
  // So does the working set (lib/working-set.ts): what the device keeps of the business to work offline.
  useEffect(() => {
    if (userId !== undefined) whenIdle(() => void import('./working-set').then(({ startWorkingSet }) => startWorkingSet(queryClient)));
  }, [userId, queryClient]);

  if (signedOut) return { status: 'signed-out' };
  // Opened before any screen asks for a list, so an offline start can read back at once.
  if (user.data) openOfflineStore(user.data.id);
  if (user.error instanceof ApiError && user.error.status === 403) return { status: 'loading' };
  // Without a network the kept session still holds: the app opens as it was left.
  if (user.error && !user.data) return { status: 'failed', error: user.error };
  if (!user.data && user.fetchStatus === 'paused') {
    return {
      status: 'failed',
      error: new ApiError(0, 'You are offline, and no signed-in session is kept on this device yet. Connect to sign in.'),
    };
  }
  if (businesses.error && !list) return { status: 'failed', error: businesses.error };
  if (!user.data || !list) return { status: 'loading' };
  const selected = list.some((business) => business.id === businessId) ? businessId : (list[0]?.id ?? null);
  // Until the business is chosen (the effect above) and the user read in it, no screen asks for
  // anything: a call without the business would be refused.
  if (selected !== businessId || (selected !== null && user.data.business_id !== selected)) return { status: 'loading' };
  return { status: 'signed-in', user: user.data, businesses: list, businessId: selected };
}

/**
 * Every session query but the one that answered 401 (removing that one would ask again, and again):
 * the user as read in another business or before one was chosen is still a success, and would be
 * kept on the device for the next start.
 */
export function forgetEndedSession(queryClient: QueryClient, businessId: number | null): void {
  const refused = hashKey(userQuery(businessId).queryKey);
  queryClient.removeQueries({ queryKey: ['session'], predicate: (query) => query.queryHash !== refused });
}

/** The branch or warehouse the signed-in user works at in the active business; none when they work at no one place. */
export function useWorkplace(): { type: 'branch' | 'warehouse'; id: number; name: string } | undefined {
  const user = useQuery(userQuery(useActiveBusinessId())).data;
  if (!user?.userable_id || (user.userable_type !== 'branch' && user.userable_type !== 'warehouse')) return undefined;
  // "Branch: Makati" → "Makati"
  const name = user.userable_from?.replace(/^[^:]*:\s*/, '') ?? `#${user.userable_id}`;
  return { type: user.userable_type, id: user.userable_id, name };
}

/** The signed-in user's permission names in the active business (empty while unknown). */
export function usePermissions(): ReadonlySet<string> {
  const businessId = useActiveBusinessId();
  const { data } = useQuery(userQuery(businessId));
  return new Set(data?.permission_names ?? []);
}

/** True when the user holds any of `names` or the master permission. */
export function useCan(...names: string[]): boolean {
  return holdsAny(usePermissions(), names);
}

export function useSwitchBusiness() {
  const queryClient = useQueryClient();
  return (id: number) => {
    setActiveBusinessId(id);
    // Lists and records are keyed by business, so nothing of the old business shows.
    void queryClient.invalidateQueries({ queryKey: ['session', 'user'] });
  };
}

/**
 * A call answered 401 (other than the user's own): the server may have ended the session, so the
 * user is asked for again; when that answers 401 too, the app goes to sign-in (see useSession).
 * Several 401s at once share one question.
 */
export function checkSession(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ['session', 'user'] }, { cancelRefetch: false });
}

/** True for the query of the signed-in user itself, whose 401 signs out rather than asks again. */
export const isUserQuery = (queryKey: readonly unknown[]) => queryKey[0] === 'session' && queryKey[1] === 'user';

/**
 * Signing out clears local storage and reloads the page, even when the call fails; what this device
 * kept of the user for offline reading goes too. The query cache is emptied first, so the kept
 * session's next write (a moment after any change) has nothing of the user to write back.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    try {
      // What the device did not use of its blocks of document numbers is handed back while the session holds.
      await import('./number-blocks').then(({ returnNumberBlocks }) => returnNumberBlocks()).catch(() => undefined);
      await api('POST', '/logout');
    } finally {
      queryClient.clear();
      // Nothing of the user may write to the device once their database is deleted.
      await import('./working-set').then(({ stopWorkingSet }) => stopWorkingSet()).catch(() => undefined);
      await deleteOfflineStore().catch(() => undefined);
      localStorage.clear();
      window.location.assign('/login');
    }
  };
}
