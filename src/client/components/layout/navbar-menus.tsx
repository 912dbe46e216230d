import { Link, useNavigate } from '@tanstack/react-router';
import { LogOut, Download, Monitor, Moon, Sun } from 'lucide-react';
import { useState, type ReactElement } from 'react';
import { todayInManila } from '../../../domain/documents';
import { MASTER_PERMISSION } from '../../../domain/permissions';
import { downloadFile } from '../../lib/downloads';
import { toast } from '../../lib/notify';
import { useOutbox } from '../../lib/pending';
import { useLogout, useSwitchBusiness, type Business, type CurrentUser } from '../../lib/session';
import { chooseTheme, storedTheme, type Theme } from '../../lib/theme';
import { AskDialog } from '../ui/ask-dialog';
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

/**
 * The navbar's two menus, loaded the first time one is opened (navbar.tsx shows their buttons
 * until then): each opens as it mounts, on the button it was given.
 */

export function BusinessMenu({
  businesses,
  businessId,
  trigger,
}: {
  businesses: Business[];
  businessId: number | null;
  trigger: ReactElement;
}) {
  const switchBusiness = useSwitchBusiness();
  const navigate = useNavigate();
  /** A record, its edit or a form belong to the business left: the new one opens on the same list. */
  const switchTo = (id: number) => {
    switchBusiness(id);
    const [list, ...deeper] = window.location.pathname.split('/').filter(Boolean);
    if (list && deeper.length > 0) void navigate({ to: `/${list}`, replace: true });
  };
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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

/**
 * All of the active business's data as a zip of CSV files, offered to masters only (the server
 * refuses anyone else): the master permission itself, since the zip holds every kind of record.
 * The menu closes on the click, so a toast says the zip is coming until it has.
 */
async function downloadAllData(): Promise<void> {
  const waiting = toast.loading('Preparing the zip of all data…');
  await downloadFile({
    path: '/api/businesses/export.zip',
    fallbackName: `bodega-${todayInManila()}.zip`,
    offline: 'Downloading the data needs a connection: it comes from the server.',
  });
  toast.dismiss(waiting);
}

/** Logout; with changes not yet sent, it asks first, since logging out deletes them from this device. */
export function AccountMenu({ user, trigger }: { user: CurrentUser; trigger: ReactElement }) {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  const { entries } = useOutbox();
  const [confirming, setConfirming] = useState(false);
  const logout = useLogout();
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
      <AskDialog
        open={confirming}
        onStay={() => setConfirming(false)}
        title={<>{entries.length === 1 ? '1 change has' : `${entries.length} changes have`} not reached the server yet.</>}
        description={
          'Logging out deletes them from this device, and they will be lost. Stay signed in until they are sent (see Pending changes), ' +
          'or log out anyway.'
        }
        stay="Stay signed in"
        answers={[{ label: 'Log out anyway', destructive: true, closes: true, choose: () => void logout() }]}
      />
    </DropdownMenu>
  );
}
