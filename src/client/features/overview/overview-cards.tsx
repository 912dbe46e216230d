import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useEffect, useRef } from 'react';
import { formatPesos } from '../../../domain/money';
import { findResource, getResource } from '../../../domain/resources/registry';
import { formatDate } from '../../lib/format';
import { useActor } from '../../lib/actor';
import { usePendingChanges } from '../../lib/pending';
import { useActiveBusinessId } from '../../lib/session';
import { cn } from '../../lib/utils';
import { StatusBadge } from '../../components/documents/status-badge';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { ChartSkeleton, OverviewCard } from './overview-card';
import { RankedBarChart, SalesPurchasesChart } from './overview-charts';
import { restockOf } from './restock';
import { SERIES, type Series } from './series';
import type {
  AgingBucket,
  LowStock,
  MarginFigures,
  Margins,
  RecentDocuments,
  ReturnsByReason,
  SalesPurchases,
  StockValue,
  TopItems,
  Unpaid,
  UnpaidDocument,
  VatBreakdown,
  OverviewQueryOptions,
} from './overview-queries';

const quantityFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

/*
 * Each card asks for its own figures (`options`, set by overview-screen.tsx), so that an answer
 * draws its card and not every card: the screen's nine answers come within a few frames of each
 * other, and each had drawn the whole screen again, synchronously (a query's answer is not a
 * transition) — 100–370 ms at a time on a phone (bench/trace.ts).
 */

/** A row of a card's list that is one big link: the whole row is the touch target. */
const ROW_LINK =
  'flex min-h-11 items-center gap-3 rounded-md px-2 py-1.5 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring';
/** A document's row: its number and amount, then whom and when beside its state. */
const DOCUMENT_ROW_LINK = cn(ROW_LINK, 'grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 text-sm');

export function SalesPurchasesCard({
  options,
  series,
  periodLabel,
  className,
}: {
  options: OverviewQueryOptions<SalesPurchases>;
  series: Series[];
  periodLabel: string;
  className?: string;
}) {
  const query = useQuery(options);
  const title = series.length === 2 ? 'Sales and purchases' : SERIES[series[0]].label;
  return (
    <OverviewCard
      title={title}
      description={periodLabel}
      className={className}
      query={query}
      empty={series.length === 2 ? 'No sales or purchases in this period.' : `No ${title.toLowerCase()} in this period.`}
      isEmpty={(answer) => series.every((name) => !answer.totals[name])}
      skeleton={<SalesPurchasesSkeleton series={series} />}
    >
      {(answer) => (
        <div className="space-y-4">
          <dl className="flex flex-wrap gap-x-8 gap-y-2">
            {series.map((name) => (
              <div key={name}>
                <dt className="flex items-center gap-2 text-sm text-muted-foreground">
                  <span className="size-3 rounded-sm" style={{ background: SERIES[name].color }} aria-hidden />
                  {SERIES[name].label}
                </dt>
                <dd className="text-2xl font-semibold tabular-nums">{formatPesos(answer.totals[name] ?? 0)}</dd>
                {answer.vat?.[name] && <VatLine breakdown={answer.vat[name]} />}
              </div>
            ))}
          </dl>
          <SalesPurchasesChart data={answer.data} series={series} caption={`${title}, ${periodLabel.toLowerCase()}`} />
        </div>
      )}
    </OverviewCard>
  );
}

/**
 * The card's figures while they load, in their shape: per side a label, a total and its VAT line
 * (wrapping under each other where the figures will), over the chart's 240 px. A block of another
 * height made the card grow when they came, pushing every card under it down.
 */
function SalesPurchasesSkeleton({ series }: { series: Series[] }) {
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-x-8 gap-y-2">
        {series.map((name) => (
          <div key={name}>
            {/* A line of text-sm, of text-2xl and of text-xs: 20, 32 and 16 px (padding, which no margin collapses into). */}
            <div className="py-0.5">
              <Skeleton className="h-4 w-24" />
            </div>
            <div className="py-1">
              <Skeleton className="h-6 w-36" />
            </div>
            <div className="py-0.5">
              <Skeleton className="h-3 w-64" />
            </div>
          </div>
        ))}
      </div>
      <ChartSkeleton height={240} />
    </div>
  );
}

/** Under a side's total: what of it was VATable, exempt or zero-rated, and the VAT in it. */
function VatLine({ breakdown }: { breakdown: VatBreakdown }) {
  const parts = [
    ['VATable', breakdown.vatable_sales],
    ['exempt', breakdown.exempt_sales],
    ['zero-rated', breakdown.zero_rated_sales],
    ['VAT', breakdown.vat_total],
  ] as const;
  return (
    <dd className="text-xs text-muted-foreground tabular-nums">
      {parts
        .filter(([label, amount]) => amount !== 0 || label === 'VAT')
        .map(([label, amount]) => `${label} ${formatPesos(amount)}`)
        .join(' · ')}
    </dd>
  );
}

const BUCKETS: Record<AgingBucket, { label: string; color: string }> = {
  '0-30': { label: '0–30 days', color: 'var(--chart-1)' },
  '31-60': { label: '31–60 days', color: 'var(--chart-4)' },
  '61-90': { label: '61–90 days', color: 'var(--chart-2)' },
  '90+': { label: 'Over 90 days', color: 'var(--destructive)' },
};

function overdueText(document: UnpaidDocument): string {
  if (document.days_overdue > 0) return `${plural(document.days_overdue, 'day')} overdue`;
  return document.due_date ? `Due ${formatDate(document.due_date)}` : 'Not yet due';
}

/** Receivables (unpaid invoices) or payables (unpaid bills): the total, its aging, the most overdue. */
export function UnpaidCard({
  kind,
  options,
  className,
}: {
  kind: 'receivables' | 'payables';
  options: OverviewQueryOptions<Unpaid>;
  className?: string;
}) {
  const query = useQuery(options);
  const resource = kind === 'receivables' ? 'invoices' : 'bills';
  const noun = kind === 'receivables' ? 'invoice' : 'bill';
  return (
    <OverviewCard
      title={kind === 'receivables' ? 'Receivables' : 'Payables'}
      description={kind === 'receivables' ? 'Owed by customers on unpaid invoices' : 'Owed to suppliers on unpaid bills'}
      className={className}
      query={query}
      empty={`No unpaid ${noun}s.`}
      isEmpty={(answer) => answer.data.count === 0}
      action={
        <Link to={`/${kind}`} className="inline-flex min-h-11 items-center text-sm text-primary hover:underline">
          {kind === 'receivables' ? 'By customer' : 'By supplier'}
        </Link>
      }
    >
      {({ data }) => (
        <div className="space-y-4">
          <div>
            <p className="text-2xl font-semibold tabular-nums">{formatPesos(data.total)}</p>
            <p className="text-sm text-muted-foreground">on {plural(data.count, `unpaid ${noun}`)}</p>
          </div>
          <div className="flex h-3 overflow-hidden rounded-full bg-muted" aria-hidden="true">
            {data.aging.map((bucket) => (
              <div
                key={bucket.bucket}
                style={{ width: `${data.total > 0 ? (bucket.amount / data.total) * 100 : 0}%`, background: BUCKETS[bucket.bucket].color }}
              />
            ))}
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
            {data.aging.map((bucket) => (
              <div key={bucket.bucket}>
                <dt className="flex items-center gap-2 text-muted-foreground">
                  <span className="size-2.5 shrink-0 rounded-sm" style={{ background: BUCKETS[bucket.bucket].color }} aria-hidden />
                  {BUCKETS[bucket.bucket].label}
                </dt>
                <dd className="tabular-nums">
                  <span className="font-medium">{formatPesos(bucket.amount)}</span>{' '}
                  <span className="text-muted-foreground">({plural(bucket.count, noun)})</span>
                </dd>
              </div>
            ))}
          </dl>
          <div>
            <h3 className="mb-1 text-sm font-medium">Most overdue</h3>
            <ul className="-mx-2">
              {data.oldest.map((document) => (
                <li key={document.id}>
                  <Link to="/$resource/$id" params={{ resource, id: String(document.id) }} className={DOCUMENT_ROW_LINK}>
                    <span className="font-medium break-all">{document.number}</span>
                    <span className="text-right font-medium tabular-nums">{formatPesos(document.balance)}</span>
                    <span className="truncate text-muted-foreground">{document.contact ?? '—'}</span>
                    <span className={cn('text-right', document.days_overdue > 0 ? 'text-destructive' : 'text-muted-foreground')}>
                      {overdueText(document)}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </OverviewCard>
  );
}

export function StockValueCard({ options, className }: { options: OverviewQueryOptions<StockValue>; className?: string }) {
  const query = useQuery(options);
  return (
    <OverviewCard
      title="Stock value"
      description="Goods on hand at cost, by location"
      className={className}
      query={query}
      empty="No goods on hand."
      isEmpty={(answer) => answer.data.length === 0 || answer.total === 0}
      skeleton={<ChartSkeleton height={180} />}
    >
      {(answer) => (
        <div className="space-y-3">
          <p className="text-2xl font-semibold tabular-nums">{formatPesos(answer.total)}</p>
          <RankedBarChart
            caption="Stock value by location"
            color="var(--chart-3)"
            detailLabel="Items on hand"
            bars={answer.data.map((location) => ({
              name: location.name,
              value: location.value,
              detail: `${plural(location.items, 'item')} on hand`,
            }))}
          />
        </div>
      )}
    </OverviewCard>
  );
}

/**
 * Stocks at or under their reorder level; per row the open request already asking for it, or the
 * way to restock it that the user may start (`restockOf`): a branch asks the warehouses with a
 * stock request, a warehouse orders from a supplier — each only by someone who operates there.
 * Saving what it starts opens the new request or order, with its number.
 */
export function LowStockCard({ options, className }: { options: OverviewQueryOptions<LowStock>; className?: string }) {
  const query = useQuery(options);
  // Who may start what where (domain/where-made.ts): their places are asked for only where this card shows.
  const actor = useActor();
  const businessId = useActiveBusinessId();
  const queued = usePendingChanges(businessId, getResource('stock-requests')).filter((entry) => entry.action === 'create');
  // A request made on this device reached the server and left the outbox: the card asks again, to name it by its number.
  const { refetch } = query;
  const queuedBefore = useRef(queued.length);
  useEffect(() => {
    if (queued.length < queuedBefore.current) void refetch();
    queuedBefore.current = queued.length;
  }, [queued.length, refetch]);
  return (
    <OverviewCard
      title="Low stock"
      description="At or under the reorder level"
      className={className}
      query={query}
      empty="No items at or under their reorder level."
      isEmpty={(answer) => answer.data.length === 0}
      action={
        <Link
          to="/$resource"
          params={{ resource: 'stocks' }}
          className="inline-flex min-h-11 items-center text-sm text-primary hover:underline"
        >
          All stocks
        </Link>
      }
    >
      {(answer) => (
        <div className="space-y-2">
          <ul className="-mx-2 divide-y">
            {answer.data.map((stock) => {
              const restock = restockOf(stock, actor, queued);
              return (
                <li key={stock.stock_id} className="flex items-center gap-2 py-1">
                  <Link
                    to="/$resource/$id"
                    params={{ resource: 'stocks', id: String(stock.stock_id) }}
                    className={cn(ROW_LINK, 'min-w-0 flex-1')}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium">{stock.item}</span>
                      <span className="block text-sm text-muted-foreground">
                        {stock.location} ·{' '}
                        <span className="font-medium text-destructive tabular-nums">{quantityFormat.format(stock.quantity_on_hand)}</span>{' '}
                        on hand, reorder at <span className="tabular-nums">{quantityFormat.format(stock.reorder_level)}</span>
                        {stock.unit ? ` ${stock.unit}` : ''}
                      </span>
                    </span>
                  </Link>
                  {restock?.kind === 'requested' && (
                    <Link
                      to="/$resource/$id"
                      params={{ resource: 'stock-requests', id: String(restock.id) }}
                      aria-label={`Requested — ${restock.number ?? 'number assigned on sync'}: ${stock.item} at ${stock.location}`}
                      className="inline-flex min-h-11 max-w-44 shrink-0 flex-col justify-center rounded-md px-2 text-right text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <span className="text-muted-foreground">Requested —</span>
                      <span className="font-medium break-words text-primary">
                        {restock.number ? <BreakableNumber number={restock.number} /> : 'Number assigned on sync'}
                      </span>
                    </Link>
                  )}
                  {restock?.kind === 'start' && (
                    <Button asChild variant="outline" className="shrink-0">
                      <Link
                        to="/$resource/create"
                        params={{ resource: restock.resource }}
                        search={{ restock: stock.stock_id }}
                        aria-label={`${restock.label}: ${stock.item} at ${stock.location}`}
                      >
                        {restock.label}
                      </Link>
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          {answer.total > answer.data.length && (
            <p className="text-sm text-muted-foreground">
              The lowest {answer.data.length} of {plural(answer.total, 'stock')} at or under the reorder level.
            </p>
          )}
        </div>
      )}
    </OverviewCard>
  );
}

/** A document number that may wrap after each of its hyphens (SR-20261127-W00001-00000010), where a browser would not break it. */
function BreakableNumber({ number }: { number: string }) {
  return number.split(/(?<=-)/).map((part, index) => (
    <Fragment key={index}>
      {part}
      <wbr />
    </Fragment>
  ));
}

export function TopItemsCard({
  options,
  periodLabel,
  className,
}: {
  options: OverviewQueryOptions<TopItems>;
  periodLabel: string;
  className?: string;
}) {
  const query = useQuery(options);
  return (
    <OverviewCard
      title="Top items by sales"
      description={periodLabel}
      className={className}
      query={query}
      empty="No items sold in this period."
      isEmpty={(answer) => answer.data.length === 0}
      skeleton={<ChartSkeleton height={228} />}
    >
      {(answer) => (
        <RankedBarChart
          caption={`Top items by sales, ${periodLabel.toLowerCase()}`}
          color="var(--chart-1)"
          detailLabel="Quantity sold"
          bars={answer.data.map((item) => ({
            name: item.item,
            value: item.amount,
            detail: `${quantityFormat.format(item.quantity)} sold`,
          }))}
        />
      )}
    </OverviewCard>
  );
}

/** Goods that came back in the period, by why, with what they came to; and the way to every return. */
/** What a margin reads as: the pesos and, where there were sales, the percent. */
const marginText = (figures: MarginFigures) =>
  `${formatPesos(figures.margin)}${figures.margin_percent === null ? '' : ` · ${figures.margin_percent}%`}`;

/** The period's gross margin by the place that sold: sales less what their goods cost (for those who see costs). */
export function MarginsCard({
  options,
  periodLabel,
  className,
}: {
  options: OverviewQueryOptions<Margins>;
  periodLabel: string;
  className?: string;
}) {
  const query = useQuery(options);
  return (
    <OverviewCard
      title="Gross margin"
      description={periodLabel}
      className={className}
      query={query}
      empty="Nothing was sold in this period."
      isEmpty={(answer) => answer.data.length === 0}
    >
      {(answer) => (
        <div className="space-y-2">
          <ul className="divide-y text-sm" aria-label="Gross margin by location">
            {answer.data.map((place) => (
              <li key={`${place.location_type}:${place.location_id}`} className="flex min-h-11 items-center justify-between gap-3">
                <span>
                  {place.name}
                  <span className="block text-xs text-muted-foreground tabular-nums">
                    {formatPesos(place.sales)} sold · {formatPesos(place.cost_of_goods)} cost
                  </span>
                </span>
                <span className="text-right tabular-nums">{marginText(place)}</span>
              </li>
            ))}
          </ul>
          <p className="flex justify-between gap-3 border-t pt-2 text-sm font-semibold tabular-nums">
            <span>All locations</span>
            <span>{marginText(answer.total)}</span>
          </p>
          {answer.uncosted > 0 && (
            <p className="text-xs text-muted-foreground">{plural(answer.uncosted, 'line')} sold goods never costed: counted at no cost.</p>
          )}
        </div>
      )}
    </OverviewCard>
  );
}

export function ReturnsCard({
  options,
  periodLabel,
  className,
}: {
  options: OverviewQueryOptions<ReturnsByReason>;
  periodLabel: string;
  className?: string;
}) {
  const query = useQuery(options);
  return (
    <OverviewCard
      title="Returns by reason"
      description={periodLabel}
      className={className}
      query={query}
      empty="No goods came back in this period."
      isEmpty={(answer) => answer.returns === 0}
    >
      {(answer) => (
        <div className="space-y-2">
          <ul className="divide-y text-sm" aria-label="Returns by reason">
            {answer.data.map((reason) => (
              <li key={reason.reason} className="flex min-h-11 items-center justify-between gap-3">
                <span>
                  {reason.label}
                  <span className="block text-xs text-muted-foreground">
                    {reason.returns} {reason.returns === 1 ? 'return' : 'returns'}
                  </span>
                </span>
                <span className="tabular-nums">{formatPesos(reason.amount)}</span>
              </li>
            ))}
          </ul>
          <p className="flex justify-between gap-3 border-t pt-2 text-sm font-semibold tabular-nums">
            <span>
              {answer.returns} {answer.returns === 1 ? 'return' : 'returns'}
            </span>
            <span>{formatPesos(answer.amount)}</span>
          </p>
          <Link
            to="/$resource"
            params={{ resource: 'sales-returns' }}
            className="inline-flex min-h-11 items-center text-sm text-primary hover:underline"
          >
            All sales returns
          </Link>
        </div>
      )}
    </OverviewCard>
  );
}

export function RecentDocumentsCard({ options, className }: { options: OverviewQueryOptions<RecentDocuments>; className?: string }) {
  const query = useQuery(options);
  return (
    <OverviewCard
      title="Recent documents"
      description="The newest, of every kind you may view"
      className={className}
      query={query}
      empty="No documents yet."
      isEmpty={(answer) => answer.data.length === 0}
    >
      {(answer) => (
        <ul className="-mx-2 divide-y">
          {answer.data.map((document) => {
            const definition = findResource(document.resource);
            return (
              <li key={`${document.resource}-${document.id}`}>
                <Link to="/$resource/$id" params={{ resource: document.resource, id: String(document.id) }} className={DOCUMENT_ROW_LINK}>
                  <span className="font-medium break-all">{document.number}</span>
                  <span className="text-right font-medium tabular-nums">{document.total !== null && formatPesos(document.total)}</span>
                  <span className="text-muted-foreground">
                    {[document.singular, document.contact, formatDate(document.date)].filter(Boolean).join(' · ')}
                  </span>
                  <span className="justify-self-end">
                    {definition && document.status && (
                      <StatusBadge
                        definition={definition}
                        record={{ id: document.id, status: document.status, deleted_at: null, version: 0 }}
                      />
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </OverviewCard>
  );
}
