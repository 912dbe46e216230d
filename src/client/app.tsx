import { notifyManager, onlineManager, QueryCache, QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from '@tanstack/react-router';
import { ToasterHost } from './components/ui/toaster-host';
import { ApiError } from './lib/api';
import { keepAccessOnRetrieval } from './lib/kept-access';
import { loadOfflineStoreAhead } from './lib/offline-store';
import { onChangeSent, onSignInNeeded } from './lib/outbox-events';
import {
  businessesQuery,
  checkSession,
  isUserQuery,
  KEPT_SESSION_KEY,
  retrieveAllBusinesses,
  SESSION_CACHE_DAYS,
  sessionKept,
} from './lib/session';
import { makeRouter } from './router';

// TanStack Query assumes it starts online and learns otherwise only from events; opened without
// a network, it would ask the server first and fail before the kept session is restored.
onlineManager.setOnline(navigator.onLine);

// What the queries tell the screens is told once a frame: answers that arrive within one frame (a
// screen's first few, together) draw the screen once, not once each. A hidden page draws nothing,
// so it is told at once.
notifyManager.setScheduler((tell) => (document.visibilityState === 'visible' ? requestAnimationFrame(tell) : setTimeout(tell, 0)));

const queryClient = new QueryClient({
  // A screen's 401: the server may have ended the session; the user query decides (once, for the whole app).
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (error instanceof ApiError && error.status === 401 && !isUserQuery(query.queryKey)) checkSession(queryClient);
    },
  }),
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});
const router = makeRouter(queryClient);

// A change reached the server (from this tab or another): what shows its resource reloads —
// once per resource for a burst of them (a replayed outbox), not once per change.
const INVALIDATE_AFTER_MS = 150;
const sentTo = new Set<string>();
let invalidation: ReturnType<typeof setTimeout> | undefined;
onChangeSent((entry) => {
  sentTo.add(JSON.stringify([entry.businessId, entry.resource]));
  invalidation ??= setTimeout(() => {
    invalidation = undefined;
    const keys = [...sentTo].map((key) => JSON.parse(key) as [number | null, string]);
    sentTo.clear();
    for (const key of keys) void queryClient.invalidateQueries({ queryKey: key });
    // Businesses and users are also the session's: the switcher and navbar show them.
    if (keys.some(([, resource]) => resource === 'businesses')) {
      void queryClient.invalidateQueries({ queryKey: ['session', 'user'] });
      retrieveAllBusinesses(queryClient).catch(() => queryClient.invalidateQueries({ queryKey: businessesQuery().queryKey }));
    } else if (keys.some(([, resource]) => ['users', 'roles'].includes(resource))) {
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    }
  }, INVALIDATE_AFTER_MS);
});
// The permission and role names kept in local storage follow every retrieval of the user.
keepAccessOnRetrieval(window, localStorage);
// The server forgot the session while sending: the user is asked to sign in; the outbox waits.
onSignInNeeded(() => checkSession(queryClient));

// A start with a kept session opens the user's offline store (an offline start reads its lists
// from there): the store's code loads now, beside the first screen's, not after the session.
if (sessionKept()) loadOfflineStoreAhead();

/**
 * Only the small session queries (user, businesses, permissions) are kept in localStorage, so the
 * app opens signed in without a network; lists are not kept here. A new build starts afresh.
 * With nothing to keep (signed out), the key is removed rather than written empty.
 */
const persistOptions = {
  persister: createSyncStoragePersister({
    key: KEPT_SESSION_KEY,
    serialize: (client) => (client.clientState.queries.length > 0 ? JSON.stringify(client) : ''),
    storage: {
      getItem: (key) => localStorage.getItem(key),
      setItem: (key, value) => (value === '' ? localStorage.removeItem(key) : localStorage.setItem(key, value)),
      removeItem: (key) => localStorage.removeItem(key),
    },
  }),
  buster: __BUILD_ID__,
  maxAge: SESSION_CACHE_DAYS * 24 * 60 * 60 * 1000,
  dehydrateOptions: {
    shouldDehydrateQuery: (query: { queryKey: readonly unknown[]; state: { status: string } }) =>
      query.queryKey[0] === 'session' && query.state.status === 'success',
  },
};

export function App() {
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
      <RouterProvider router={router} />
      <ToasterHost />
    </PersistQueryClientProvider>
  );
}
