import { useState, type ReactNode } from 'react';
import type { Business, CurrentUser } from '../../lib/session';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '../ui/sheet';
import { InsecureContextNotice } from './insecure-context-notice';
import { Navbar } from './navbar';
import { Sidebar } from './sidebar';

const EXPANDED_KEY = 'sidebar_expanded';

/**
 * Navbar on top, sidebar beside the main area. On a phone the sidebar is a sheet; on a tablet
 * it starts as a rail of icons; on a wide screen it starts expanded. The choice is remembered.
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
        onOpenMenu={() => setSheetOpen(true)}
        onToggleSidebar={toggle}
        sidebarExpanded={expanded}
      />
      <div className="flex flex-1">
        <aside
          aria-label="Main navigation"
          className={`sticky top-14 hidden h-[calc(100svh-3.5rem)] shrink-0 overflow-y-auto border-r border-sidebar-border bg-sidebar text-sidebar-foreground md:block print:hidden ${expanded ? 'w-64' : 'w-16'}`}
        >
          <Sidebar collapsed={!expanded} />
        </aside>
        <main id="main" className="min-w-0 flex-1 p-3 sm:p-4 lg:p-6">
          <InsecureContextNotice />
          {children}
        </main>
      </div>
      <Sheet open={sheetOpen} onOpenChange={setSheetOpen}>
        <SheetContent side="left" className="w-72 overflow-y-auto bg-sidebar p-0 text-sidebar-foreground">
          <SheetHeader className="border-b">
            <SheetTitle>Bodega</SheetTitle>
            <SheetDescription className="sr-only">Main navigation</SheetDescription>
          </SheetHeader>
          <Sidebar collapsed={false} onNavigate={() => setSheetOpen(false)} />
        </SheetContent>
      </Sheet>
    </div>
  );
}
