import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, type RouteComponent } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { RootLayout } from './components/layout/root-layout';
import { NotFoundScreen } from './components/layout/not-found-screen';
import { activitySearch } from './features/activity/activity-search';
import { ageingSearch } from './features/ageing/ageing-search';
import { reportSearch } from './features/reports/report-search';
import { statementSearch } from './features/statement/statement-search';
import { loadCounterScreen, loadListScreen, loadOverviewScreen, loadScreenParts } from './first-screen';
import { activeBusinessId } from './lib/api';
import { redirectTarget } from './lib/route-names';
import { sessionKept, userQuery } from './lib/session';

/**
 * Code-based routes: the generic `$resource` screens serve every resource of the
 * registry; static routes (sign-in, business selection, assignments) outrank them. Every screen
 * is its own chunk, loaded on demand.
 */

/**
 * On a start that keeps no session, the session is asked for while the first screen's code loads,
 * not after it: the router renders nothing before that code is in.
 */
const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  loader: ({ context, location }) => {
    // A kept session opens the app at once and is checked in the background (lib/session.ts).
    if (location.pathname !== '/login' && !sessionKept()) void context.queryClient.prefetchQuery(userQuery(activeBusinessId()));
  },
  component: RootLayout,
  notFoundComponent: () => <NotFoundScreen />,
});

const screen = <T extends Record<string, unknown>, K extends keyof T & string>(load: () => Promise<T>, name: K) =>
  lazyRouteComponent(load, name);
/** A screen that reads slots: what fills them (`screen-parts.tsx`) is loaded with it, and there before it renders. */
const slotted = <T extends Record<string, unknown>, K extends keyof T & string>(load: () => Promise<T>, name: K) =>
  screen(() => Promise.all([loadScreenParts(), load()]).then(([, screen]) => screen), name);
/** The route of a screen at `path`, right below the root. */
const screenRoute = <TPath extends string>(path: TPath, component: RouteComponent) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>) => ({ redirect: typeof search.redirect === 'string' ? search.redirect : undefined }),
  component: screen(() => import('./features/auth/login-screen'), 'LoginScreen'),
});

const overview = screen(loadOverviewScreen, 'OverviewScreen');
const homeRoute = screenRoute('/', overview);
const overviewRoute = screenRoute('/overview', overview);

const selectBusinessRoute = screenRoute(
  '/businesses/select',
  screen(() => import('./features/businesses/select-business-screen'), 'SelectBusinessScreen'),
);

const assignPermissionsRoute = screenRoute(
  '/roles/$id/assign-permissions',
  screen(() => import('./features/roles/assign-permissions-screen'), 'AssignPermissionsScreen'),
);

const assignRolesRoute = screenRoute(
  '/users/$id/assign-roles',
  screen(() => import('./features/users/assign-roles-screen'), 'AssignRolesScreen'),
);

const pendingChangesRoute = screenRoute(
  '/pending-changes',
  slotted(() => import('./features/pending/pending-changes-screen'), 'PendingChangesScreen'),
);

const activityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/activity',
  validateSearch: (search: Record<string, unknown>) => activitySearch(search),
  component: screen(() => import('./features/activity/activity-screen'), 'ActivityScreen'),
});

const importsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/imports',
  validateSearch: (search: Record<string, unknown>): { kind?: string } => (typeof search.kind === 'string' ? { kind: search.kind } : {}),
  component: screen(() => import('./features/imports/import-screen'), 'ImportScreen'),
});

/** What customers owe and what is owed suppliers, by days past due; `?branch_id=` or `?warehouse_id=` keeps it to one place. */
const ageingRoute = (side: 'receivables' | 'payables') =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: `/${side}`,
    validateSearch: (search: Record<string, unknown>) => ageingSearch(search),
    component: screen(() => import('./features/ageing/ageing-screen'), side === 'receivables' ? 'ReceivablesScreen' : 'PayablesScreen'),
  });
const receivablesRoute = ageingRoute('receivables');
const payablesRoute = ageingRoute('payables');

/** A customer's statement of account over `?from=&to=` (by default the last three months and this one). */
const statementRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/contacts/$id/statement',
  validateSearch: (search: Record<string, unknown>) => statementSearch(search),
  component: screen(() => import('./features/statement/statement-screen'), 'StatementScreen'),
});

/** What goods cost: the stock value on `?date=` and the gross margin over `?from=&to=`, by `?by=`, at `?place=` (report-search.ts). */
const reportsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reports',
  validateSearch: (search: Record<string, unknown>) => reportSearch(search),
  component: screen(() => import('./features/reports/reports-screen'), 'ReportsScreen'),
});

/** Selling at a branch: the sale, its payment and its receipt on one screen. */
const counterRoute = screenRoute('/counter', screen(loadCounterScreen, 'CounterScreen'));

const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/$resource',
  // The rows are asked for with the screen's code, not once it is drawn; not for a link merely pointed at.
  loader: ({ context, params, location, preload }) => {
    if (!preload)
      void Promise.all([loadScreenParts(), loadListScreen()]).then(([, { prefetchList }]) =>
        prefetchList(context.queryClient, params.resource, location.search),
      );
  },
  component: slotted(loadListScreen, 'ListScreen'),
});

/**
 * `redirect_to` names where to go after saving: a path of this app or a route name
 * (`purchase-orders.view?id=12`), kept as the path it leads to; anything off this site is dropped.
 * `restock` names a stock whose item and place a new stock request or purchase order starts with.
 */
/** Field values (or their shown names) a link starts a create screen with: `{ document_id: 12 }`. */
const fieldMap = (value: unknown): Record<string, string | number> | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const kept = Object.entries(value).filter(
    ([name, given]) => /^[a-z][a-z0-9_]{0,63}$/.test(name) && (typeof given === 'string' || typeof given === 'number'),
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
};
const createSearch = (
  search: Record<string, unknown>,
): { redirect_to?: string; restock?: number; values?: Record<string, string | number>; names?: Record<string, string | number> } => ({
  redirect_to: redirectTarget(search.redirect_to),
  restock: /^\d{1,9}$/.test(String(search.restock ?? '')) ? Number(search.restock) : undefined,
  values: fieldMap(search.values),
  names: fieldMap(search.names),
});
/** The route of a screen that makes a record, at `path`: what its link starts it with is read from the search (`createSearch`). */
const createScreenRoute = <TPath extends string>(path: TPath, component: RouteComponent) =>
  createRoute({ getParentRoute: () => rootRoute, path, validateSearch: createSearch, component });
const createScreen = slotted(() => import('./components/crud/create-screen'), 'CreateScreen');
const createRouteForResource = createScreenRoute('/$resource/create', createScreen);
/** A stock transfer made from a stock request. */
const transferFromRequestRoute = createScreenRoute(
  '/stock-transfers/create/from-stock-request/$from',
  slotted(() => import('./components/documents/document-create-screen'), 'TransferFromRequestScreen'),
);
/** A stock transfer made from a stock return, carrying the goods back. */
const transferFromReturnRoute = createScreenRoute(
  '/stock-transfers/create/from-stock-return/$from',
  slotted(() => import('./components/documents/document-create-screen'), 'TransferFromReturnScreen'),
);
/** `/x/create/{id}`: a new record starting from a copy of record {id}. */
const createFromRoute = createScreenRoute('/$resource/create/$from', createScreen);

const viewRoute = screenRoute(
  '/$resource/$id',
  slotted(() => import('./components/crud/view-screen'), 'ViewScreen'),
);

const editRoute = screenRoute(
  '/$resource/$id/edit',
  slotted(() => import('./components/crud/edit-screen'), 'EditScreen'),
);

/** A nested file record, named by its record's id and its own. */
const fileRoute = screenRoute(
  '/$resource/$recordId/files/$fileId',
  screen(() => import('./components/files/file-screen'), 'FileScreen'),
);

const routeTree = rootRoute.addChildren([
  loginRoute,
  homeRoute,
  overviewRoute,
  selectBusinessRoute,
  assignPermissionsRoute,
  assignRolesRoute,
  pendingChangesRoute,
  activityRoute,
  importsRoute,
  counterRoute,
  receivablesRoute,
  payablesRoute,
  statementRoute,
  reportsRoute,
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
