import { Link, useNavigate } from '@tanstack/react-router';
import {
  Building2,
  ChevronDown,
  CloudUpload,
  Download,
  LogOut,
  Menu,
  Monitor,
  Moon,
  PanelLeftClose,
  PanelLeftOpen,
  Sun,
  UserRound,
} from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { todayInManila } from '../../../domain/documents';
import { MASTER_PERMISSION } from '../../../domain/permissions';
import { ApiError, apiFile, describeError, saveFile } from '../../lib/api';
import { useLogout, useSwitchBusiness, type Business, type CurrentUser } from '../../lib/session';
import { chooseTheme, storedTheme, type Theme } from '../../lib/theme';
import { useOutbox } from '../../lib/pending';
import { cn } from '../../lib/utils';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../ui/alert-dialog';
import { Button, buttonVariants } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';

interface NavbarProps {
  user: CurrentUser;
  businesses: Business[];
  businessId: number | null;
  onOpenMenu: () => void;
  onToggleSidebar: () => void;
  sidebarExpanded: boolean;
}

function BusinessSwitcher({ businesses, businessId }: { businesses: Business[]; businessId: number | null }) {
  const switchBusiness = useSwitchBusiness();
  const navigate = useNavigate();
  const current = businesses.find((business) => business.id === businessId);
  /** A record, its edit or a form belong to the business left: the new one opens on the same list. */
  const switchTo = (id: number) => {
    switchBusiness(id);
    const [list, ...deeper] = window.location.pathname.split('/').filter(Boolean);
    if (list && deeper.length > 0) void navigate({ to: `/${list}`, replace: true });
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          className="max-w-[45vw] min-w-0 shrink gap-2 px-2 sm:max-w-xs"
          aria-label={`Business: ${current?.name ?? 'none'}. Switch business`}
        >
          <Building2 className="size-4 shrink-0" aria-hidden />
          <span className="truncate">{current?.name ?? 'Choose a business'}</span>
          <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuLabel>Switch business</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={String(businessId ?? '')} onValueChange={(value) => switchTo(Number(value))}>
          {businesses.map((business) => (
            <DropdownMenuRadioItem key={business.id} value={String(business.id)} className="min-h-11">
              {business.name}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild className="min-h-11">
          <Link to="/businesses/select">All businesses…</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
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

/**
 * All of the active business's data as a zip of CSV files, offered to masters only (the server
 * refuses anyone else): the master permission itself, since the zip holds every kind of record.
 * The menu closes on the click, so a toast says the zip is coming until it has.
 */
async function downloadAllData(): Promise<void> {
  const waiting = toast.loading('Preparing the zip of all data…');
  try {
    const file = await apiFile('/api/businesses/export.zip');
    saveFile(file.blob, file.filename ?? `bodega-${todayInManila()}.zip`);
  } catch (error) {
    toast.error(
      error instanceof ApiError && error.status === 0
        ? 'Downloading the data needs a connection: it comes from the server.'
        : describeError(error),
    );
  } finally {
    toast.dismiss(waiting);
  }
}

/** Logout; with changes not yet sent, it asks first, since logging out deletes them from this device. */
function UserMenu({ user }: { user: CurrentUser }) {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  const { entries } = useOutbox();
  const [confirming, setConfirming] = useState(false);
  const logout = useLogout();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="gap-2 px-2" aria-label={`Account of ${user.name}`}>
          <UserRound className="size-4" aria-hidden />
          <span className="hidden max-w-40 truncate sm:inline">{user.name}</span>
          <ChevronDown className="hidden size-4 opacity-60 sm:block" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="font-normal">
          <span className="block font-medium">{user.name}</span>
          <span className="block text-xs text-muted-foreground">{user.email}</span>
          {user.userable_from && <span className="block text-xs text-muted-foreground">{user.userable_from}</span>}
          {user.role_names.length > 0 && <span className="block text-xs text-muted-foreground">{user.role_names.join(', ')}</span>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs text-muted-foreground">Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={theme}
          onValueChange={(value) => {
            chooseTheme(value as Theme);
            setTheme(value as Theme);
          }}
        >
          <DropdownMenuRadioItem value="light" className="min-h-11 gap-2">
            <Sun className="size-4" aria-hidden /> Light
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="dark" className="min-h-11 gap-2">
            <Moon className="size-4" aria-hidden /> Dark
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="system" className="min-h-11 gap-2">
            <Monitor className="size-4" aria-hidden /> Same as device
          </DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        {user.permission_names.includes(MASTER_PERMISSION) && (
          <DropdownMenuItem className="min-h-11 gap-2" onSelect={() => void downloadAllData()}>
            <Download className="size-4" aria-hidden /> Download all data (zip)
          </DropdownMenuItem>
        )}
        <DropdownMenuItem className="min-h-11 gap-2" onSelect={() => (entries.length > 0 ? setConfirming(true) : void logout())}>
          <LogOut className="size-4" aria-hidden /> Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>
              {entries.length === 1 ? '1 change has' : `${entries.length} changes have`} not reached the server yet.
            </AlertDialogTitle>
            <AlertDialogDescription>
              Logging out deletes them from this device, and they will be lost. Stay signed in until they are sent (see Pending changes), or
              log out anyway.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Stay signed in</AlertDialogCancel>
            <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={() => void logout()}>
              Log out anyway
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </DropdownMenu>
  );
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
      <PendingChangesLink />
      <UserMenu user={user} />
    </header>
  );
}
