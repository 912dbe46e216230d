import { Link } from '@tanstack/react-router';
import { Building2, ChevronDown, CloudUpload, Menu, PanelLeftClose, PanelLeftOpen, UserRound } from 'lucide-react';
import { cloneElement, Suspense, useState, type ComponentProps, type ReactElement } from 'react';
import { loadAhead } from '../../lib/load-ahead';
import { useOutbox } from '../../lib/pending';
import type { Business, CurrentUser } from '../../lib/session';
import { cn } from '../../lib/utils';
import { Button } from '../ui/button';
import { lazyAhead } from '../ui/deferred';
import { SyncIndicator } from './sync-indicator';

interface NavbarProps {
  user: CurrentUser;
  businesses: Business[];
  businessId: number | null;
  onOpenMenu: () => void;
  onToggleSidebar: () => void;
  sidebarExpanded: boolean;
}

const menus = loadAhead(() => import('./navbar-menus'));
const BusinessMenu = lazyAhead(() => menus().then(({ BusinessMenu }) => BusinessMenu));
const AccountMenu = lazyAhead(() => menus().then(({ AccountMenu }) => AccountMenu));

/**
 * A menu button whose menu (Radix, with its positioning) loads the first time it is pressed, so
 * the first screen does without that code: until then the button is the same button, plain;
 * pressed, it becomes the menu's own trigger, open. Pointing at it starts the load early.
 */
function DeferredMenu({ button, menu }: { button: ReactElement<ComponentProps<'button'>>; menu: (trigger: ReactElement) => ReactElement }) {
  const [pressed, setPressed] = useState(false);
  if (pressed) return <Suspense fallback={button}>{menu(button)}</Suspense>;
  const press = () => setPressed(true);
  return cloneElement(button, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => void menus(),
    onFocus: () => void menus(),
    onPointerDown: (event) => event.button === 0 && press(),
    onKeyDown: (event) => ['Enter', ' ', 'ArrowDown'].includes(event.key) && press(),
  });
}

function BusinessSwitcher({ businesses, businessId }: { businesses: Business[]; businessId: number | null }) {
  const current = businesses.find((business) => business.id === businessId);
  const button = (
    <Button
      variant="ghost"
      className="max-w-[45vw] min-w-0 shrink gap-2 px-2 sm:max-w-xs"
      aria-label={`Business: ${current?.name ?? 'none'}. Switch business`}
    >
      <Building2 className="size-4 shrink-0" aria-hidden />
      <span className="truncate">{current?.name ?? 'Choose a business'}</span>
      <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden />
    </Button>
  );
  return (
    <DeferredMenu button={button} menu={(trigger) => <BusinessMenu businesses={businesses} businessId={businessId} trigger={trigger} />} />
  );
}

/** The outbox at a glance: how many changes wait, red when one needs attention. */
function PendingChangesLink() {
  const { loaded, entries } = useOutbox();
  const attention = entries.some((entry) => entry.state === 'needs-attention');
  const count = entries.length;
  return (
    <Button asChild variant="ghost" size="icon" className="relative">
      <Link to="/pending-changes" aria-label={loaded ? `Pending changes: ${count}` : 'Pending changes'} title="Pending changes">
        <CloudUpload aria-hidden />
        {count > 0 && (
          <span
            data-testid="pending-count"
            className={cn(
              'absolute -top-0.5 -right-0.5 min-w-5 rounded-full px-1 text-center text-xs leading-5 font-semibold',
              attention ? 'bg-destructive text-white' : 'bg-warning text-warning-foreground',
            )}
          >
            {count}
          </span>
        )}
      </Link>
    </Button>
  );
}

/** The account menu: who is signed in, the theme, the data download and logout. */
function UserMenu({ user }: { user: CurrentUser }) {
  const button = (
    <Button variant="ghost" className="gap-2 px-2" aria-label={`Account of ${user.name}`}>
      <UserRound className="size-4" aria-hidden />
      <span className="hidden max-w-40 truncate sm:inline">{user.name}</span>
      <ChevronDown className="hidden size-4 opacity-60 sm:block" aria-hidden />
    </Button>
  );
  return <DeferredMenu button={button} menu={(trigger) => <AccountMenu user={user} trigger={trigger} />} />;
}

export function Navbar({ user, businesses, businessId, onOpenMenu, onToggleSidebar, sidebarExpanded }: NavbarProps) {
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-1 border-b bg-background/95 px-2 backdrop-blur supports-[backdrop-filter]:bg-background/80 sm:gap-2 sm:px-3 print:hidden">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-background focus:p-2"
      >
        Skip to content
      </a>
      <Button variant="ghost" size="icon" className="md:hidden" onClick={onOpenMenu} aria-label="Open the menu">
        <Menu aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="hidden md:inline-flex"
        onClick={onToggleSidebar}
        aria-label={sidebarExpanded ? 'Collapse the sidebar' : 'Expand the sidebar'}
      >
        {sidebarExpanded ? <PanelLeftClose aria-hidden /> : <PanelLeftOpen aria-hidden />}
      </Button>
      <Link to="/overview" className="mr-1 text-lg font-bold tracking-tight text-primary">
        Bodega
      </Link>
      <BusinessSwitcher businesses={businesses} businessId={businessId} />
      <div className="flex-1" />
      <div role="group" aria-label="Sync and pending changes" className="flex shrink-0 items-center rounded-md sm:bg-muted/50">
        <SyncIndicator />
        <PendingChangesLink />
      </div>
      <UserMenu user={user} />
    </header>
  );
}
