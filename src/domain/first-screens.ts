/**
 * The screen a start at an address opens, for the screens a start most often opens on, named by
 * the source modules its code is built from (the build's manifest names them the same way). The
 * client asks for their code before the rest of the app is evaluated (client/first-screen.ts);
 * the server names their built files in the page it sends to that address (server/client-page.ts),
 * so the browser fetches them beside the entry instead of after it.
 */

export const FIRST_SCREEN_MODULES = [
  'src/client/screen-parts.tsx',
  'src/client/components/crud/list-screen.tsx',
  'src/client/features/overview/overview-screen.tsx',
  'src/client/features/counter/counter-screen.tsx',
] as const;

export type FirstScreenModule = (typeof FIRST_SCREEN_MODULES)[number];

/** The single-segment paths the client's router serves with screens of their own, not a resource's list. */
const OWN_SCREENS = new Set([
  'login',
  'overview',
  'counter',
  'imports',
  'activity',
  'pending-changes',
  'receivables',
  'payables',
  'reports',
]);

/** The modules of the screen `path` opens first: none where it is not one of those screens. */
export function firstScreenModules(path: string): readonly FirstScreenModule[] {
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0 || path === '/overview') return ['src/client/features/overview/overview-screen.tsx'];
  if (path === '/counter') return ['src/client/features/counter/counter-screen.tsx'];
  if (segments.length === 1 && !OWN_SCREENS.has(segments[0]))
    return ['src/client/screen-parts.tsx', 'src/client/components/crud/list-screen.tsx'];
  return [];
}

/**
 * The first look of the screen `path` opens, where index.html holds one of its own (a template
 * named `first-look-<name>`): the server sends it in the page in place of the app's loading look,
 * so a slow phone draws the screen's frame before its code arrives.
 */
export function firstLookOf(path: string): 'counter' | null {
  return path === '/counter' ? 'counter' : null;
}

/**
 * The id of the element in which the page sent to a signed-in navigation carries the user
 * (server/client-page.ts writes it, client/lib/early-user.ts reads it).
 */
export const SIGNED_IN_USER_ELEMENT = 'signed-in-user';
