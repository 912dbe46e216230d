import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { RootLayout } from './components/layout/root-layout';
import { NotFoundScreen } from './components/layout/not-found-screen';
import { activitySearch } from './features/activity/activity-search';

/**
 * Code-based routes: the generic `$resource` screens serve every resource of the
 * registry; static routes (sign-in, business selection, assignments) outrank them. Every screen
 * is its own chunk, loaded on demand.
 */

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  notFoundComponent: () => <NotFoundScreen />,
});

const screen = <T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T & string) => lazyRouteComponent(load, name);

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>) => ({ redirect: typeof search.redirect === 'string' ? search.redirect : undefined }),
  component: screen(() => import('./features/auth/login-screen'), 'LoginScreen'),
});

const overview = screen(() => import('./features/overview/overview-screen'), 'OverviewScreen');
const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: overview });
const overviewRoute = createRoute({ getParentRoute: () => rootRoute, path: '/overview', component: overview });

const selectBusinessRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/businesses/select',
  component: screen(() => import('./features/businesses/select-business-screen'), 'SelectBusinessScreen'),
});

const assignPermissionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/roles/$id/assign-permissions',
  component: screen(() => import('./features/roles/assign-permissions-screen'), 'AssignPermissionsScreen'),
});

const assignRolesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/users/$id/assign-roles',
  component: screen(() => import('./features/users/assign-roles-screen'), 'AssignRolesScreen'),
});

const pendingChangesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pending-changes',
  component: screen(() => import('./features/pending/pending-changes-screen'), 'PendingChangesScreen'),
});

const activityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/activity',
  validateSearch: (search: Record<string, unknown>) => activitySearch(search),
  component: screen(() => import('./features/activity/activity-screen'), 'ActivityScreen'),
});

const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource',
  component: screen(() => import('./components/crud/list-screen'), 'ListScreen'),
});

/**
 * `redirect_to` names a route (a path of this app) to go to after saving; `restock` a stock whose
 * item and place a new stock request or purchase order starts with.
 */
const createSearch = (search: Record<string, unknown>): { redirect_to?: string; restock?: number } => ({
  redirect_to: typeof search.redirect_to === 'string' && search.redirect_to.startsWith('/') ? search.redirect_to : undefined,
  restock: /^\d{1,9}$/.test(String(search.restock ?? '')) ? Number(search.restock) : undefined,
});
const createScreen = screen(() => import('./components/crud/create-screen'), 'CreateScreen');
const createRouteForResource = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource/create',
  validateSearch: createSearch,
  component: createScreen,
});
/** A stock transfer made from a stock request. */
const transferFromRequestRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/stock-transfers/create/from-stock-request/$from',
  validateSearch: createSearch,
  component: screen(() => import('./components/crud/create-screen'), 'TransferFromRequestScreen'),
});
/** A stock transfer made from a stock return, carrying the goods back. */
const transferFromReturnRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/stock-transfers/create/from-stock-return/$from',
  validateSearch: createSearch,
  component: screen(() => import('./components/crud/create-screen'), 'TransferFromReturnScreen'),
});
/** `/x/create/{id}`: a new record starting from a copy of record {id}. */
const createFromRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource/create/$from',
  validateSearch: createSearch,
  component: createScreen,
});

const viewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource/$id',
  component: screen(() => import('./components/crud/view-screen'), 'ViewScreen'),
});

const editRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource/$id/edit',
  component: screen(() => import('./components/crud/edit-screen'), 'EditScreen'),
});

/** A nested file record, named by its record's id and its own. */
const fileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource/$recordId/files/$fileId',
  component: screen(() => import('./components/files/file-screen'), 'FileScreen'),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  homeRoute,
  overviewRoute,
  selectBusinessRoute,
  assignPermissionsRoute,
  assignRolesRoute,
  pendingChangesRoute,
  activityRoute,
  listRoute,
  createRouteForResource,
  transferFromRequestRoute,
  transferFromReturnRoute,
  createFromRoute,
  viewRoute,
  editRoute,
  fileRoute,
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
