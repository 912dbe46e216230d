import { Navigate, Outlet, useLocation } from '@tanstack/react-router';
import { useDeferredValue } from 'react';
import { describeError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Button } from '../ui/button';
import { AppShell } from './app-shell';
import { FirstLook, keptLookStands, useFirstLookGone, useKeptLookTimeLimit } from './first-look';

/** Signs the visitor in before anything else; the layout shows once the user and permissions are loaded. */
export function RootLayout() {
  const signedIn = useSession();
  const location = useLocation();
  // The first signed-in screen (the shell and the page in it) is rendered as a transition: React
  // draws it in slices, yielding to the browser between them, and the first look stays until it is
  // whole — a slow phone is never held for the whole of it at once. So too when the session is
  // known as the app starts (a kept session, or the user in the page): the first render is
  // the first look (useDeferredValue's initial value), the screen follows in slices.
  // (Not on the sign-in screen, which does not wait for the session: nothing there to draw twice.)
  const status = location.pathname === '/login' ? 'signing-in' : signedIn.status;
  const drawn = useDeferredValue(status, status === 'signing-in' ? status : 'loading');
  const session = signedIn.status === 'signed-in' && drawn !== 'signed-in' ? ({ status: 'loading' } as const) : signedIn;
  // A kept look (a start without a network) stays until its screen is drawn with its data.
  const keptLook = session.status === 'signed-in' && keptLookStands(location.pathname);
  useFirstLookGone(location.pathname === '/login' || (session.status !== 'loading' && !keptLook));
  useKeptLookTimeLimit(keptLook);
  if (location.pathname === '/login') return <Outlet />;

  switch (session.status) {
    case 'signed-out':
      return <Navigate to="/login" search={{ redirect: location.href }} replace />;
    case 'loading':
      return <FirstLook />;
    case 'failed':
      return (
        <main className="mx-auto max-w-md space-y-4 p-6">
          <h1 className="text-xl font-semibold">Bodega could not start</h1>
          <p className="text-muted-foreground">{describeError(session.error)}</p>
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </main>
      );
    case 'signed-in':
      return (
        <AppShell user={session.user} businesses={session.businesses} businessId={session.businessId}>
          <Outlet />
        </AppShell>
      );
  }
}
