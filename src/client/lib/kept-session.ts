/** Where the session's queries are kept in localStorage (app.tsx persists them there). */
export const KEPT_SESSION_KEY = 'bodega-session';

/** Whether this device keeps a session from before: the app opens from it without waiting for the server. */
export const sessionKept = () => localStorage.getItem(KEPT_SESSION_KEY) !== null;

/**
 * The id of the user the kept session holds for `businessId` (the session's user query, as app.tsx
 * persists it), or null: what a start can open the user's offline store by before the session is
 * restored. The session, once restored, opens the store of whoever it holds (session.ts).
 */
export function keptUserId(businessId: number | null, buster: string): number | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_SESSION_KEY) ?? 'null') as {
      buster?: string;
      clientState?: { queries?: { queryKey?: unknown[]; state?: { data?: { id?: unknown } } }[] };
    } | null;
    if (kept?.buster !== buster) return null;
    const user = kept.clientState?.queries?.find(
      ({ queryKey }) => queryKey?.[0] === 'session' && queryKey[1] === 'user' && queryKey[2] === businessId,
    );
    const id = user?.state?.data?.id;
    return typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}
