import { useLocation } from '@tanstack/react-router';
import { ProgressBar } from '../ui/progress-bar';

/**
 * The first look the page drew before the app's code arrived — index.html's loading look, or the
 * screen's own that the server sent in its place (server/client-page.ts) — kept as the app starts
 * (main.tsx), so that the app, while it loads, draws the very same: nothing flickers nor moves on
 * a slow phone until the screen itself is ready.
 */
let kept: { html: string; path: string } | null = null;

/** Keeps what the app's root element holds, before the app draws in it. */
export function keepFirstLook(root: HTMLElement): void {
  kept = { html: root.innerHTML, path: window.location.pathname };
}

/** The app loading: the page's first look while at the address it was drawn for, else the loading look index.html draws. */
export function FirstLook() {
  const { pathname } = useLocation();
  // The page's own markup, as the server built it from index.html: no user's text is in it.
  if (kept && kept.path === pathname) return <div className="contents" dangerouslySetInnerHTML={{ __html: kept.html }} />;
  return (
    <div className="min-h-svh">
      <ProgressBar active />
      <p className="p-6 text-sm text-muted-foreground">Loading Bodega…</p>
    </div>
  );
}
