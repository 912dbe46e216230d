import { Link } from '@tanstack/react-router';
import { Button } from '../ui/button';

export function NotFoundScreen({ what = 'page' }: { what?: string }) {
  return (
    <div className="mx-auto max-w-md space-y-3 py-12 text-center">
      <h1 className="text-xl font-semibold">This {what} does not exist</h1>
      <p className="text-muted-foreground">It may have been deleted permanently, or the address is mistyped.</p>
      <Button asChild variant="outline">
        <Link to="/overview">Go to the overview</Link>
      </Button>
    </div>
  );
}

/** A record the server would not show this user (a 403): it exists, but is not theirs to see. */
export function NotPermittedScreen({ what }: { what: string }) {
  return (
    <div className="mx-auto max-w-md space-y-3 py-12 text-center">
      <h1 className="text-xl font-semibold">You do not have permission to view this {what}.</h1>
      <p className="text-muted-foreground">Ask an administrator for access if you need it.</p>
      <Button asChild variant="outline">
        <Link to="/overview">Go to the overview</Link>
      </Button>
    </div>
  );
}
