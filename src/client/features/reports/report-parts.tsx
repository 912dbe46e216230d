import type { UseQueryResult } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { PAGE_SIZES, type ListMeta } from '../../../domain/list-params';
import { ChoiceSelect } from '../../components/choices';
import { LabelledField } from '../../components/labelled-field';
import { NotPermittedScreen } from '../../components/layout/not-found-screen';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { PageSizeSelect } from '../../components/crud/pager';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiError, describeError } from '../../lib/api';
import { placesAt, usePlaces } from '../../lib/places';
import { cn } from '../../lib/utils';

/** What both reports are made of: the place picker, the totals' boxes, the pager, and what shows before the figures. */

/**
 * One branch or warehouse (`branch:3`), or all the places the user views (undefined): offered
 * only to a user who views more than one, as the receivables and payables offer it.
 */
export function PlacePicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string | undefined;
  onChange: (place: string | undefined) => void;
}) {
  const places = placesAt(usePlaces().places ?? [], 'view');
  if (places.length <= 1) return null;
  return (
    <div className="min-w-48 flex-1 sm:flex-none">
      <LabelledField id={id} label="Place">
        <ChoiceSelect
          id={id}
          value={value ?? 'all'}
          onValueChange={(next) => onChange(next === 'all' ? undefined : next)}
          choices={[
            { value: 'all', label: 'All places' },
            ...places.map((place) => ({ value: `${place.type}:${place.id}`, label: place.name })),
          ]}
        />
      </LabelledField>
    </div>
  );
}

/** A figure in a box of the totals' row; the grand total `strong`, on a shaded box. */
export function Figure({
  label,
  detail,
  strong = false,
  children,
}: {
  label: ReactNode;
  detail?: ReactNode;
  strong?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cn('min-w-0 rounded-lg border p-3', strong && 'bg-muted/40')}>
      <dt className="text-sm break-words text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{children}</dd>
      {detail && <dd className="text-xs text-muted-foreground tabular-nums">{detail}</dd>}
    </div>
  );
}

/**
 * Previous and Next through a report's pages, where it stands (page and rows), and how many rows a
 * page holds (`per_page`, the lists' sizes). Nothing while all the rows fit the smallest page.
 */
export function ReportPager({
  id,
  meta,
  onPage,
  onPageSize,
}: {
  id: string;
  meta: ListMeta;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const { current_page: current, last_page: last } = meta;
  const paged = last > 1 || current > 1;
  if (!paged && meta.total <= PAGE_SIZES[0]) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {paged ? (
        <nav aria-label="Pages" className="flex flex-wrap items-center gap-2">
          <Button variant="outline" disabled={current <= 1} onClick={() => onPage(current - 1)}>
            <ChevronLeft aria-hidden /> Previous
          </Button>
          <span className="text-sm text-muted-foreground tabular-nums">
            Page {current} of {last}
          </span>
          <Button variant="outline" disabled={current >= last} onClick={() => onPage(current + 1)}>
            Next <ChevronRight aria-hidden />
          </Button>
        </nav>
      ) : (
        <span />
      )}
      <div className="flex flex-wrap items-center gap-3">
        {paged && meta.from !== null && meta.to !== null && (
          <span className="text-sm text-muted-foreground tabular-nums">
            Rows {meta.from.toLocaleString('en-US')}–{meta.to.toLocaleString('en-US')} of {meta.total.toLocaleString('en-US')}
          </span>
        )}
        <div className="flex items-center gap-2">
          <Label htmlFor={id}>Rows per page</Label>
          <PageSizeSelect id={id} value={meta.per_page} onChange={onPageSize} />
        </div>
      </div>
    </div>
  );
}

/** A refusal of the report (403): the user no longer holds what it needs. */
export const refused = (query: UseQueryResult) => query.error instanceof ApiError && query.error.status === 403;

/**
 * What a report shows before its figures: the house's no-permission message on a refusal, the
 * server's message (and Try again) on another failure, shapes while it loads; nothing once its
 * figures are in.
 */
export function ReportPending({ query, what }: { query: UseQueryResult; what: string }) {
  if (query.data !== undefined) return null;
  if (refused(query)) return <NotPermittedScreen what="report" />;
  if (query.error)
    return (
      <div className="space-y-3">
        <ProblemAlert problem={describeError(query.error)} />
        <Button variant="outline" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  return (
    <div className="space-y-3">
      <span className="sr-only" role="status">
        Loading {what}…
      </span>
      <div className="grid grid-cols-2 gap-2 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-16" />
        ))}
      </div>
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} className="h-11 w-full" />
      ))}
    </div>
  );
}
