import { lazy, startTransition, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { loadAhead } from '../../lib/load-ahead';

/**
 * Components whose code loads when they are first needed, not with the screen that holds them:
 * what a first screen shows comes sooner, and what a press opens (a dialog, a menu) follows.
 * Without a service worker they are loaded ahead once the page is idle (lib/load-ahead.ts).
 */

/** A component loaded the first time it renders, for a Suspense of the caller's with its own fallback. */
export function lazyAhead<P extends object>(load: () => Promise<ComponentType<P>>) {
  const loaded = loadAhead(load);
  return lazy(async () => ({ default: await loaded() }));
}

/** A component loaded the first time it renders; nothing shows in its place until then. */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazyAhead(load);
  return function LazyComponent(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

/**
 * An overlay (a dialog) loaded the first time `shown` says it shows; from then on it stays
 * mounted, so that it can animate out and open again at once.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, shown: (props: P) => boolean): ComponentType<P> {
  const Loaded = lazyComponent(load);
  return function Deferred(props: P) {
    const [wanted, setWanted] = useState(false);
    if (!wanted && shown(props)) setWanted(true);
    return wanted || shown(props) ? <Loaded {...props} /> : null;
  };
}

/**
 * What a screen shows below its first view, drawn after the rest of it: the first pass leaves it
 * out, so the screen is painted sooner, and once that is committed React draws it in a pass of its
 * own (a transition, rendered in slices between frames rather than in one long task). Only this
 * component renders again for it: the screen around it does not. (Not `useDeferredValue` with an
 * initial value: in a screen revealed from a Suspense fallback, React renders the deferred value
 * before the first commit, and nothing is painted sooner.)
 */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => startTransition(() => setDrawn(true)), []);
  return drawn ? children : null;
}
