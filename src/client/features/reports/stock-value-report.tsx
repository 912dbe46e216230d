import { useQuery } from '@tanstack/react-query';
import { CalendarCheck, Download, FileText } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { todayInManila } from '../../../domain/documents';
import { formatPesos } from '../../../domain/money';
import type { StockValueReport } from '../../../domain/reports';
import { CardsOrTable, EmptyTableRow } from '../../components/framed-table';
import { HeadedSection } from '../../components/headed-section';
import { LabelledField } from '../../components/labelled-field';
import { NotPermittedScreen } from '../../components/layout/not-found-screen';
import { OfflineNotice } from '../../components/offline-notice';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { ProgressBar } from '../../components/ui/progress-bar';
import { TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { describeError } from '../../lib/api';
import { useDownload } from '../../lib/downloads';
import { formatDate } from '../../lib/format';
import { useActiveBusinessId } from '../../lib/session';
import { cn } from '../../lib/utils';
import { formatQuantity, formatUnitCost, plural, uncostedRowsNote } from './report-figures';
import { Figure, PlacePicker, refused, ReportPager, ReportPending } from './report-parts';
import { stockValueQuery } from './report-queries';
import { lastYearEnd, placeQuery, type ReportSearch } from './report-search';

const EMPTY = 'No goods on hand on that day';

/**
 * What the goods on hand at the end of a day were worth at each item's average cost that day, by
 * place and item (`?date=`, today in Manila by default; `?place=` one branch or warehouse). On
 * December 31st it is the annual inventory list the BIR asks for, which prints as the server's PDF.
 */
export function StockValueSection({ search, go }: { search: ReportSearch; go: (next: ReportSearch) => void }) {
  const businessId = useActiveBusinessId();
  const today = todayInManila();
  const date = search.date ?? today;
  const place = placeQuery(search.place);
  const report = useQuery(stockValueQuery(businessId, { date, ...place, page: search.page, per_page: search.per_page }));
  const [downloadingCsv, downloadCsv] = useDownload();
  const [downloadingPdf, downloadPdf] = useDownload();
  const answer = report.data;
  const yearEnd = lastYearEnd(today);

  /** Another day or place starts again at the first page. */
  const show = (next: Pick<ReportSearch, 'date' | 'place'>) =>
    go({ ...search, ...next, date: next.date === today ? undefined : next.date, page: undefined });
  const file = (kind: 'csv' | 'pdf') => ({
    path: `/api/reports/stock-value.${kind}`,
    query: { date, ...place },
    fallbackName: `inventory-list-${date}.${kind}`,
    offline: 'Downloading needs a connection.',
  });

  if (refused(report)) return <NotPermittedScreen what="report" />;
  return (
    <HeadedSection
      headingId="stock-value-heading"
      title={`Stock value as of ${formatDate(date)}`}
      className="space-y-4"
      actions={
        <div className="flex w-full flex-wrap gap-2 sm:w-auto">
          <Button
            variant="outline"
            className="flex-1 sm:flex-none"
            onClick={() => void downloadCsv(file('csv'))}
            disabled={downloadingCsv}
            aria-busy={downloadingCsv}
          >
            <Download aria-hidden /> {downloadingCsv ? 'Downloading…' : 'Download CSV'}
          </Button>
          <Button
            variant="outline"
            className="flex-1 sm:flex-none"
            onClick={() => void downloadPdf(file('pdf'))}
            disabled={downloadingPdf}
            aria-busy={downloadingPdf}
          >
            <FileText aria-hidden /> {downloadingPdf ? 'Downloading…' : 'Inventory list (PDF)'}
          </Button>
        </div>
      }
    >
      <p className="text-sm text-muted-foreground">
        Goods on hand at the end of the day, at each item’s moving-average cost that day, by place and item.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end">
        <DayForm key={date} date={date} today={today} onShow={(day) => show({ date: day })} />
        <PlacePicker id="stock-value-place" value={search.place} onChange={(next) => show({ date, place: next })} />
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-muted/30 p-3 text-sm">
        <p className="min-w-0 flex-1 basis-64">
          The annual inventory list the BIR asks for is this report as of December 31, valued at cost: print it with Inventory list (PDF).
        </p>
        <Button variant="outline" onClick={() => show({ date: yearEnd })}>
          <CalendarCheck aria-hidden /> As of {formatDate(yearEnd)}
        </Button>
      </div>
      <OfflineNotice savedAt={answer?.savedOffline} />
      <ProgressBar active={report.isFetching} />
      <ProblemAlert problem={answer && report.error ? describeError(report.error) : null} />
      <ReportPending query={report} what="the stock value" />
      {answer && (
        <StockValueFigures
          answer={answer}
          faded={report.isPlaceholderData}
          onPage={(page) => go({ ...search, page: page > 1 ? page : undefined })}
          onPageSize={(size) => go({ ...search, page: undefined, per_page: size })}
        />
      )}
    </HeadedSection>
  );
}

/** The day of the report, shown when Show is pressed: typing a date never asks for a report per keystroke. */
function DayForm({ date, today, onShow }: { date: string; today: string; onShow: (day: string) => void }) {
  const [draft, setDraft] = useState(date);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft) onShow(draft);
  };
  return (
    <form onSubmit={submit} aria-label="Day of the stock value" className="flex items-end gap-2">
      <div className="min-w-0 flex-1 sm:w-40 sm:flex-none">
        <LabelledField id="stock-value-date" label="As of">
          <Input id="stock-value-date" type="date" required max={today} value={draft} onChange={(event) => setDraft(event.target.value)} />
        </LabelledField>
      </div>
      <Button type="submit">Show</Button>
    </form>
  );
}

function StockValueFigures({
  answer,
  faded,
  onPage,
  onPageSize,
}: {
  answer: StockValueReport;
  faded: boolean;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const { data, places } = answer;
  const empty = answer.meta.total === 0 && EMPTY;
  return (
    <div className={cn('space-y-4 transition-opacity', faded && 'opacity-60')}>
      {places.length > 0 && (
        <dl className="grid grid-cols-[repeat(auto-fill,minmax(min(10rem,40%),1fr))] gap-2">
          {places.map((place) => (
            <Figure key={`${place.location_type}:${place.location_id}`} label={place.name} detail={plural(place.items, 'item')}>
              {formatPesos(place.value)}
            </Figure>
          ))}
          <Figure label="Total" strong>
            <span data-testid="stock-value-total">{formatPesos(answer.total)}</span>
          </Figure>
        </dl>
      )}
      {answer.uncosted > 0 && <p className="text-sm text-muted-foreground">{uncostedRowsNote(answer.uncosted)}</p>}
      {/* A phone reads a card per item and place; a wider screen the whole table. */}
      <CardsOrTable
        label="Goods on hand"
        empty={empty}
        cards={data.map((row) => (
          <li key={`${row.location_type}:${row.location_id}:${row.item_id}`} className="rounded-lg border p-3 text-sm">
            <div className="flex items-baseline justify-between gap-3">
              <span className="min-w-0 font-medium break-words">{row.item}</span>
              <span className="font-medium tabular-nums">{formatPesos(row.value)}</span>
            </div>
            <p className="break-words text-muted-foreground">
              {row.sku} · {row.location}
            </p>
            <p className="flex flex-wrap justify-between gap-x-3 tabular-nums">
              <span>{formatQuantity(row.quantity, row.unit)}</span>
              <span className={cn(row.unit_cost === null && 'text-muted-foreground')}>
                {row.unit_cost === null ? 'Not costed' : `at ${formatUnitCost(row.unit_cost)}`}
              </span>
            </p>
          </li>
        ))}
        table={
          <>
            <TableHeader>
              <TableRow>
                <TableHead>Item code</TableHead>
                <TableHead>Item</TableHead>
                <TableHead>Place</TableHead>
                <TableHead className="text-right">Quantity</TableHead>
                <TableHead className="text-right">Unit cost</TableHead>
                <TableHead className="text-right">Value</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {empty && <EmptyTableRow colSpan={6}>{empty}</EmptyTableRow>}
              {data.map((row) => (
                <TableRow key={`${row.location_type}:${row.location_id}:${row.item_id}`}>
                  <TableCell className="whitespace-nowrap">{row.sku}</TableCell>
                  <TableCell className="min-w-40 whitespace-normal">
                    <span className="font-medium">{row.item}</span>
                    {row.description && <div className="text-xs text-muted-foreground">{row.description}</div>}
                  </TableCell>
                  <TableCell className="whitespace-normal">{row.location}</TableCell>
                  <TableCell className="text-right whitespace-nowrap tabular-nums">{formatQuantity(row.quantity, row.unit)}</TableCell>
                  <TableCell className={cn('text-right tabular-nums', row.unit_cost === null && 'text-muted-foreground')}>
                    {formatUnitCost(row.unit_cost)}
                  </TableCell>
                  <TableCell className="text-right font-medium tabular-nums">{formatPesos(row.value)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
            {!empty && (
              <TableFooter>
                <TableRow>
                  <TableCell colSpan={5}>Total of {plural(answer.meta.total, 'row')}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(answer.total)}</TableCell>
                </TableRow>
              </TableFooter>
            )}
          </>
        }
      />
      <ReportPager id="stock-value-per-page" meta={answer.meta} onPage={onPage} onPageSize={onPageSize} />
    </div>
  );
}
