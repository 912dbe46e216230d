import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { todayInManila } from '../../../domain/documents';
import { formatPesos } from '../../../domain/money';
import { MARGIN_GROUP_LABELS, MARGIN_GROUPS, type MarginGroup, type MarginsReport } from '../../../domain/reports';
import { CardsOrTable, EmptyTableRow } from '../../components/framed-table';
import { HeadedSection } from '../../components/headed-section';
import { NotPermittedScreen } from '../../components/layout/not-found-screen';
import { PeriodForm } from '../../components/period-form';
import { OfflineNotice } from '../../components/offline-notice';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { ProgressBar } from '../../components/ui/progress-bar';
import { TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { Toggle } from '../../components/ui/toggle';
import { describeError } from '../../lib/api';
import { useDownload } from '../../lib/downloads';
import { formatDate } from '../../lib/format';
import { useActiveBusinessId } from '../../lib/session';
import { cn } from '../../lib/utils';
import { PERIODS, periodRange } from '../overview/period';
import { formatPercent, uncostedLinesNote } from './report-figures';
import { Figure, PlacePicker, refused, ReportPager, ReportPending } from './report-parts';
import { marginsQuery } from './report-queries';
import { marginPeriod, placeQuery, quickPeriodOf, type ReportSearch } from './report-search';

const EMPTY = 'No sales in this period';

/**
 * What a period's sales made over what their goods cost (`?from=&to=`, the last 30 days by
 * default), grouped by place, item, brand, classification or user (`?by=`), the highest margin
 * first; `?place=` keeps it to one branch or warehouse.
 */
export function MarginsSection({ search, go }: { search: ReportSearch; go: (next: ReportSearch) => void }) {
  const businessId = useActiveBusinessId();
  const today = todayInManila();
  const period = marginPeriod(search, today);
  const by: MarginGroup = search.by ?? 'place';
  const place = placeQuery(search.place);
  const report = useQuery(marginsQuery(businessId, { ...period, by, ...place, page: search.page, per_page: search.per_page }));
  const [downloading, download] = useDownload();
  const answer = report.data;
  const quick = quickPeriodOf(period, today);

  /** Another period, grouping or place starts again at the first page. */
  const change = (next: ReportSearch) => go({ ...search, ...next, page: undefined });
  const choosePeriod = (next: { from: string; to: string }) => change({ from: next.from, to: next.to === today ? undefined : next.to });

  const downloadCsv = () =>
    download({
      path: '/api/reports/margins.csv',
      query: { ...period, by, ...place },
      fallbackName: `margins-by-${by}-${period.from}-to-${period.to}.csv`,
      offline: 'Downloading needs a connection.',
    });

  if (refused(report)) return <NotPermittedScreen what="report" />;
  return (
    <HeadedSection
      headingId="margins-heading"
      title={`Gross margin, ${formatDate(period.from)} – ${formatDate(period.to)}`}
      className="space-y-4"
      actions={
        <Button variant="outline" onClick={() => void downloadCsv()} disabled={downloading} aria-busy={downloading}>
          <Download aria-hidden /> {downloading ? 'Downloading…' : 'Download CSV'}
        </Button>
      }
    >
      <p className="text-sm text-muted-foreground">
        Sales net of VAT, less what returns gave back, against what those goods cost at moving-average cost.
      </p>
      <div role="group" aria-label="Period" className="grid grid-cols-2 gap-1 sm:flex sm:flex-wrap">
        {PERIODS.map((option) => (
          <Toggle
            key={option.name}
            variant="outline"
            pressed={option.name === quick}
            onPressedChange={() => choosePeriod(periodRange(option.name, today))}
          >
            {option.label}
          </Toggle>
        ))}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end">
        <PeriodForm
          key={`${period.from}|${period.to}`}
          name="margins"
          label="Period of the gross margin"
          period={period}
          max={today}
          onShow={choosePeriod}
          className="grid grid-cols-2 items-end gap-2 sm:flex sm:flex-wrap"
          dayClassName="min-w-0 sm:w-40"
          showClassName="col-span-2 sm:col-auto"
        />
        <PlacePicker id="margins-place" value={search.place} onChange={(next) => change({ place: next })} />
      </div>
      <div role="group" aria-labelledby="margins-group-by" className="flex flex-wrap items-center gap-1">
        <span id="margins-group-by" className="w-full text-sm font-medium sm:mr-2 sm:w-auto">
          Group by
        </span>
        {MARGIN_GROUPS.map((group) => (
          <Toggle key={group} variant="outline" pressed={group === by} onPressedChange={() => change({ by: group })}>
            {MARGIN_GROUP_LABELS[group]}
          </Toggle>
        ))}
      </div>
      <OfflineNotice savedAt={answer?.savedOffline} />
      <ProgressBar active={report.isFetching} />
      <ProblemAlert problem={answer && report.error ? describeError(report.error) : null} />
      <ReportPending query={report} what="the gross margin" />
      {answer && (
        <MarginsFigures
          answer={answer}
          faded={report.isPlaceholderData}
          onPage={(page) => go({ ...search, page: page > 1 ? page : undefined })}
          onPageSize={(size) => go({ ...search, page: undefined, per_page: size })}
        />
      )}
    </HeadedSection>
  );
}

/** What a group's margin reads as: the pesos and, where it sold anything, the percent. */
const marginText = (figures: { margin: number; margin_percent: number | null }) =>
  `${formatPesos(figures.margin)}${figures.margin_percent === null ? '' : ` · ${formatPercent(figures.margin_percent)}`}`;

function MarginsFigures({
  answer,
  faded,
  onPage,
  onPageSize,
}: {
  answer: MarginsReport;
  faded: boolean;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const { data, total, by } = answer;
  const label = MARGIN_GROUP_LABELS[by];
  const items = by === 'item';
  const columns = items ? 6 : 5;
  const empty = answer.meta.total === 0 && EMPTY;
  return (
    <div className={cn('space-y-4 transition-opacity', faded && 'opacity-60')}>
      <dl className="grid grid-cols-2 gap-2 lg:grid-cols-4">
        <Figure label="Sales">{formatPesos(total.sales)}</Figure>
        <Figure label="Cost of goods">{formatPesos(total.cost_of_goods)}</Figure>
        <Figure label="Margin" strong>
          <span data-testid="margin-total">{formatPesos(total.margin)}</span>
        </Figure>
        <Figure label="Margin %" strong>
          {formatPercent(total.margin_percent)}
        </Figure>
      </dl>
      {answer.uncosted > 0 && <p className="text-sm text-muted-foreground">{uncostedLinesNote(answer.uncosted)}</p>}
      {/* A phone reads a card per group; a wider screen the whole table. */}
      <CardsOrTable
        label={`Gross margin by ${label.toLowerCase()}`}
        empty={empty}
        cards={data.map((row) => (
          <li key={row.key} className="rounded-lg border p-3 text-sm">
            <div className="flex items-baseline justify-between gap-3">
              <span className="min-w-0 font-medium break-words">{row.name}</span>
              <span className="text-right font-medium whitespace-nowrap tabular-nums">{marginText(row)}</span>
            </div>
            {row.code && <p className="break-words text-muted-foreground">{row.code}</p>}
            <p className="text-muted-foreground tabular-nums">
              {formatPesos(row.sales)} sold · {formatPesos(row.cost_of_goods)} cost
            </p>
          </li>
        ))}
        table={
          <>
            <TableHeader>
              <TableRow>
                {items && <TableHead>Item code</TableHead>}
                <TableHead>{label}</TableHead>
                <TableHead className="text-right">Sales</TableHead>
                <TableHead className="text-right">Cost of goods</TableHead>
                <TableHead className="text-right">Margin</TableHead>
                <TableHead className="text-right">Margin %</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {empty && <EmptyTableRow colSpan={columns}>{empty}</EmptyTableRow>}
              {data.map((row) => (
                <TableRow key={row.key}>
                  {items && <TableCell className="whitespace-nowrap">{row.code ?? '—'}</TableCell>}
                  <TableCell className="min-w-40 font-medium whitespace-normal">{row.name}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(row.sales)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(row.cost_of_goods)}</TableCell>
                  <TableCell className={cn('text-right font-medium tabular-nums', row.margin < 0 && 'text-destructive')}>
                    {formatPesos(row.margin)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatPercent(row.margin_percent)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
            {!empty && (
              <TableFooter>
                <TableRow>
                  <TableCell colSpan={items ? 2 : 1}>Total</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(total.sales)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(total.cost_of_goods)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(total.margin)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPercent(total.margin_percent)}</TableCell>
                </TableRow>
              </TableFooter>
            )}
          </>
        }
      />
      <ReportPager id="margins-per-page" meta={answer.meta} onPage={onPage} onPageSize={onPageSize} />
    </div>
  );
}
