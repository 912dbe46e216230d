import { useLocation } from '@tanstack/react-router';
import { useLayoutEffect } from 'react';
import { ProgressBar } from '../ui/progress-bar';

/**
 * The first look the page drew before the app's code arrived — index.html's loading look, or the
 * screen's own that the server sent in its place (server/client-page.ts). It stands in its own
 * element beside the app's root (index.html), which React never draws in: the very nodes the
 * browser painted first stay on screen, untouched, while the app starts — nothing flickers nor
 * moves on a slow phone, and the browser's first paint remains the page's largest (a node redrawn
 * the moment after its paint would be counted as painted only when redrawn). It goes in the same
 * frame as the first screen is drawn (`useFirstLookGone`, root-layout.tsx).
 */
const element = typeof document === 'undefined' ? null : document.getElementById('first-look');
/** The address the first look was drawn for. */
const drawnFor = typeof window === 'undefined' ? null : window.location.pathname;

/** Removes the first look, when `gone`, in the commit that draws what replaces it (before the browser paints that). */
export function useFirstLookGone(gone: boolean): void {
  useLayoutEffect(() => {
    if (gone) element?.remove();
  }, [gone]);
}

/** The app loading: the page's first look while at the address it was drawn for, else the loading look index.html draws. */
export function FirstLook() {
  const { pathname } = useLocation();
  const kept = element?.isConnected === true && drawnFor === pathname;
  useFirstLookGone(!kept);
  if (kept) return null;
  return (
    <div className="min-h-svh">
      <ProgressBar active />
      <p className="p-6 text-sm text-muted-foreground">Loading Bodega…</p>
    </div>
  );
}
