import { useQueries } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { holdsAny } from '../../../domain/permissions';
import { getResource } from '../../../domain/resources/registry';
import { listQuery } from '../../lib/resource-queries';
import { useActiveBusinessId, usePermissions, useSession } from '../../lib/session';
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';

const COUNTED = ['items', 'contacts', 'branches', 'warehouses', 'brands', 'users'];

/**
 * `/` and `/overview`: a greeting and how many of the main records the business holds, for the
 * resources the user may view. The sales and stock charts come with the documents.
 */
export function OverviewScreen() {
  const session = useSession();
  const permissions = usePermissions();
  const businessId = useActiveBusinessId();
  const visible = COUNTED.map(getResource).filter((definition) => holdsAny(permissions, [`view-${definition.permission}`]));
  const counts = useQueries({ queries: visible.map((definition) => listQuery(businessId, definition, { limit: 1 })) });
  const name = session.status === 'signed-in' ? session.user.name : '';
  const business = session.status === 'signed-in' ? session.businesses.find((entry) => entry.id === session.businessId)?.name : undefined;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Magandang araw, {name}</h1>
        <p className="text-muted-foreground">{business}</p>
      </div>
      {visible.length === 0 ? (
        <p className="text-muted-foreground">Your role does not show any records here. Ask an administrator if you need access.</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {visible.map((definition, index) => (
            <li key={definition.name}>
              <Link
                to="/$resource"
                params={{ resource: definition.name }}
                className="block rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Card className="transition-colors hover:bg-accent/50">
                  <CardHeader>
                    <CardDescription>{definition.plural}</CardDescription>
                    <CardTitle className="text-3xl tabular-nums">
                      {counts[index].data ? counts[index].data.meta.total.toLocaleString() : <Skeleton className="h-9 w-16" />}
                    </CardTitle>
                  </CardHeader>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
