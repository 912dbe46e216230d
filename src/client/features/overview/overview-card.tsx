import type { UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useId, type ReactNode } from 'react';
import { describeError } from '../../lib/api';
import { cn } from '../../lib/utils';
import { Button } from '../../components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';

interface OverviewCardProps<T> {
  title: string;
  description?: ReactNode;
  /** Top-right of the header: a total, a link. */
  action?: ReactNode;
  className?: string;
  query: UseQueryResult<T>;
  /** What the card says when there is nothing to show, e.g. "No unpaid invoices." */
  empty: string;
  isEmpty: (data: T) => boolean;
  /** The shape of the content while it loads. */
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * A card of the overview, a region named by its title, over its own query: a skeleton while it
 * loads, the server's message (and Try again) when it fails — without blanking the other cards —
 * an empty state, or its figures.
 *
 * `<OverviewCard title="Payables" query={payables} empty="No unpaid bills." isEmpty={(a) => a.data.count === 0}>{(a) => …}</OverviewCard>`
 */
export function OverviewCard<T>({
  title,
  description,
  action,
  className,
  query,
  empty,
  isEmpty,
  skeleton,
  children,
}: OverviewCardProps<T>) {
  const titleId = useId();
  // A query's answer draws synchronously (it is no transition): the figures are drawn after it as
  // one, in slices the browser can answer between, the card keeping what it showed meanwhile.
  const data = useDeferredValue(query.data);
  const { error } = query;
  return (
    <Card role="region" aria-labelledby={titleId} aria-busy={query.isFetching} className={cn('min-w-0 gap-4', className)}>
      <CardHeader className="px-4 sm:px-6">
        <CardTitle>
          <h2 id={titleId} className="text-base">
            {title}
          </h2>
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
        {action && <CardAction>{action}</CardAction>}
      </CardHeader>
      <CardContent className={cn('min-w-0 flex-1 px-4 transition-opacity sm:px-6', query.isPlaceholderData && 'opacity-60')}>
        {data !== undefined ? (
          isEmpty(data) ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{empty}</p>
          ) : (
            children(data)
          )
        ) : error ? (
          <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-4 text-sm text-destructive">
            <p className="font-medium">{title} could not be loaded.</p>
            <p>{describeError(error)}</p>
            <Button variant="outline" className="mt-3" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <span className="sr-only">Loading {title.toLowerCase()}…</span>
            {skeleton ?? <ListSkeleton />}
          </>
        )}
      </CardContent>
    </Card>
  );
}

export function ChartSkeleton({ height = 240 }: { height?: number }) {
  return <Skeleton className="w-full" style={{ height }} />;
}

export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="space-y-3">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-11 w-full" />
      ))}
    </div>
  );
}
