import { useState, type ReactNode } from 'react';
import type { Business, CurrentUser } from '../../lib/session';
import { InsecureContextNotice } from './insecure-context-notice';
import { Navbar } from './navbar';
import { Sidebar } from './sidebar';
import { lazyComponent } from '../ui/deferred';
import { useMediaQuery } from '../../lib/media';

const EXPANDED_KEY = 'sidebar_expanded';
const NavigationSheet = lazyComponent(() => import('./navigation-sheet').then(({ NavigationSheet }) => NavigationSheet));

/**
 * Navbar on top, sidebar beside the main area. On a phone the sidebar is a sheet; on a tablet
 * it starts as a rail of labelled icons, and expanded it lies over the page (and folds back once a
 * link is followed); on a wide screen it starts expanded beside the page. The choice is remembered.
 */
export function AppShell({
  user,
  businesses,
  businessId,
  children,
}: {
  user: CurrentUser;
  businesses: Business[];
  businessId: number | null;
  children: ReactNode;
}) {
  const [expanded, setExpanded] = useState(() => {
    const stored = localStorage.getItem(EXPANDED_KEY);
    return stored === null ? window.matchMedia('(min-width: 1280px)').matches : stored === '1';
  });
  const [sheetOpen, setSheetOpen] = useState(false);
  // The sheet's code loads the first time it is opened.
  const [sheetUsed, setSheetUsed] = useState(false);
  const wide = useMediaQuery('(min-width: 1280px)');
  // A phone's navigation is the sheet: the sidebar is not made at all there, not only hidden.
  const tabletUp = useMediaQuery('(min-width: 768px)');
  const toggle = () => {
    localStorage.setItem(EXPANDED_KEY, expanded ? '0' : '1');
    setExpanded(!expanded);
  };

  return (
    <div className="flex min-h-svh flex-col bg-background">
      <Navbar
        user={user}
        businesses={businesses}
        businessId={businessId}
        onOpenMenu={() => {
          setSheetUsed(true);
          setSheetOpen(true);
        }}
        onToggleSidebar={toggle}
        sidebarExpanded={expanded}
      />
      <div className="flex flex-1">
        {/* Below a wide screen, the expanded sidebar lies over the page instead of pushing a list's last columns off it. */}
        {tabletUp && (
          <div className={`hidden shrink-0 md:block print:hidden ${expanded ? 'w-20 xl:w-64' : 'w-20'}`}>
            <aside
              aria-label="Main navigation"
              className={`sticky top-14 h-[calc(100svh-3.5rem)] overflow-y-auto border-r border-sidebar-border bg-sidebar text-sidebar-foreground ${expanded ? 'relative z-30 w-64 max-xl:shadow-xl' : 'w-20'}`}
            >
              <Sidebar collapsed={!expanded} onNavigate={expanded && !wide ? toggle : undefined} />
            </aside>
          </div>
        )}
        <main id="main" className="min-w-0 flex-1 p-3 sm:p-4 lg:p-6">
          <InsecureContextNotice />
          {children}
        </main>
      </div>
      {sheetUsed && <NavigationSheet open={sheetOpen} onOpenChange={setSheetOpen} />}
    </div>
  );
}
