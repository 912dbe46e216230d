import { onlineManager, QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from '@tanstack/react-router';
import { Toaster } from './components/ui/sonner';
import { TooltipProvider } from './components/ui/tooltip';
import { onChangeSent, onSignInNeeded } from './lib/outbox';
import { SESSION_CACHE_DAYS } from './lib/session';
import { makeRouter } from './router';

// TanStack Query assumes it starts online and learns otherwise only from events; opened without
// a network, it would ask the server first and fail before the kept session is restored.
onlineManager.setOnline(navigator.onLine);

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
const router = makeRouter(queryClient);

// A change reached the server (from this tab or another): what shows its resource reloads.
onChangeSent((entry) => {
  void queryClient.invalidateQueries({ queryKey: [entry.businessId, entry.resource] });
  // Businesses and users are also the session's: the switcher and navbar show them (spec 7).
  if (['businesses', 'users', 'roles'].includes(entry.resource)) void queryClient.invalidateQueries({ queryKey: ['session'] });
});
// The server forgot the session while sending: the user is asked to sign in; the outbox waits.
onSignInNeeded(() => void queryClient.invalidateQueries({ queryKey: ['session', 'user'] }));

/**
 * Only the small session queries (user, businesses, permissions) are kept in localStorage, so the
 * app opens signed in without a network; lists are not kept here. A new build starts afresh.
 */
const persistOptions = {
  persister: createSyncStoragePersister({ storage: window.localStorage, key: 'bodega-session' }),
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
      <TooltipProvider delayDuration={300}>
        <RouterProvider router={router} />
        <Toaster />
      </TooltipProvider>
    </PersistQueryClientProvider>
  );
}
