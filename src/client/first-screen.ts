import { askUserEarly } from './lib/early-user';

/**
 * What the first screen waits for, asked for before the rest of the app's code is evaluated
 * (main.tsx imports this module first): the code of the screen the address opens, for the screens
 * a start most often opens on, and — on a start that keeps no session — who is signed in
 * (lib/early-user.ts). On a slow phone the entry's evaluation takes the better part of a second;
 * these travel meanwhile.
 * The router (router.tsx) loads its screens with these same loaders.
 */

export const loadScreenParts = () => import('./screen-parts');
export const loadOverviewScreen = () => import('./features/overview/overview-screen');
export const loadCounterScreen = () => import('./features/counter/counter-screen');
export const loadListScreen = () => import('./components/crud/list-screen');

/** The single-segment paths the router serves with screens of their own, not a resource's list. */
const OWN_SCREENS = new Set(['login', 'overview', 'counter', 'imports', 'activity', 'pending-changes']);

function loadAhead(path: string): void {
  const segments = path.split('/').filter(Boolean);
  const loads: (() => Promise<unknown>)[] =
    segments.length === 0 || path === '/overview'
      ? [loadOverviewScreen]
      : path === '/counter'
        ? [loadCounterScreen]
        : segments.length === 1 && !OWN_SCREENS.has(segments[0])
          ? [loadScreenParts, loadListScreen]
          : [];
  // A failure is the router's to tell, when it loads the same screen.
  for (const load of loads) void load().catch(() => undefined);
}

if (typeof window !== 'undefined') {
  loadAhead(window.location.pathname);
  askUserEarly(window.location.pathname);
}
