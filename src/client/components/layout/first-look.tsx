import { useLocation } from '@tanstack/react-router';
import { useEffect, useLayoutEffect } from 'react';
import { KEPT_FOR_ATTRIBUTE } from '../../lib/kept-look';
import { ProgressBar } from '../ui/progress-bar';

/**
 * The first look the page drew before the app's code arrived — index.html's loading look, the
 * screen's own that the server sent in its place (server/client-page.ts), or, on a start without a
 * network, the screen's kept look (lib/kept-look.ts). It stands in its own element beside the app's
 * root (index.html), which React never draws in: the very nodes the browser painted first stay on
 * screen, untouched, while the app starts — nothing flickers nor moves on a slow phone, and the
 * browser's first paint remains the page's largest (a node redrawn the moment after its paint would
 * be counted as painted only when redrawn). It goes in the same frame as the first screen is drawn
 * (`useFirstLookGone`, root-layout.tsx) — a kept look in the frame its screen is drawn with its data
 * (`useKeptLookGone`): drawn without, the screen would show less than the look it replaced.
 */
const element = typeof document === 'undefined' ? null : document.getElementById('first-look');
/** The address the first look was drawn for. */
const drawnFor = typeof window === 'undefined' ? null : window.location.pathname;
/** The address of the kept look the first look holds, if it holds one (index.html hides the app's root meanwhile). */
const keptFor = element?.getAttribute(KEPT_FOR_ATTRIBUTE) ?? null;
/** A kept look goes this long after the shell is drawn at the latest, should its screen never draw its data. */
const KEPT_LOOK_MOST_MS = 3_000;

/** Removes the first look, when `gone`, in the commit that draws what replaces it (before the browser paints that). */
export function useFirstLookGone(gone: boolean): void {
  useLayoutEffect(() => {
    if (gone) element?.remove();
  }, [gone]);
}

/** Whether the first look is the kept look of `pathname`, still standing: its screen removes it (`useKeptLookGone`). */
export const keptLookStands = (pathname: string) => keptFor === pathname && element?.isConnected === true;

/** Removes the kept look, when the screen at its address is drawn with its data (`drawn`), in that commit. */
export const useKeptLookGone = useFirstLookGone;

/** Removes a kept look still `standing` a while after the shell is drawn, should its screen never draw its data. */
export function useKeptLookTimeLimit(standing: boolean): void {
  useEffect(() => {
    if (!standing) return;
    const timer = setTimeout(() => element?.remove(), KEPT_LOOK_MOST_MS);
    return () => clearTimeout(timer);
  }, [standing]);
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
