import { firstScreenModules, type FirstScreenModule } from '../domain/first-screens';
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

const LOADERS: Readonly<Record<FirstScreenModule, () => Promise<unknown>>> = {
  'src/client/screen-parts.tsx': loadScreenParts,
  'src/client/components/crud/list-screen.tsx': loadListScreen,
  'src/client/features/overview/overview-screen.tsx': loadOverviewScreen,
  'src/client/features/counter/counter-screen.tsx': loadCounterScreen,
};

function loadAhead(path: string): void {
  // A failure is the router's to tell, when it loads the same screen.
  for (const module of firstScreenModules(path)) void LOADERS[module]().catch(() => undefined);
}

if (typeof window !== 'undefined') {
  loadAhead(window.location.pathname);
  askUserEarly(window.location.pathname);
}
