import { useNavigate, useSearch } from '@tanstack/react-router';
import { readsMargins, readsStockValue } from '../../../domain/reports';
import { NotPermittedScreen } from '../../components/layout/not-found-screen';
import { Toggle } from '../../components/ui/toggle';
import { usePermissions } from '../../lib/session';
import { MarginsSection } from './margins-report';
import { REPORTS, reportSearch, shownReport, type ReportName, type ReportSearch } from './report-search';
import { StockValueSection } from './stock-value-report';

/**
 * `/reports`: what goods cost — the stock value on a day, by place and item (the annual inventory
 * list on December 31st), and the gross margin of a period, by place, item, brand, classification
 * or user. Each report shows only to a user who may read it (domain/reports.ts), one at a time
 * (`?report=`); what it shows is kept in the URL (`report-search.ts`).
 */
export function ReportsScreen() {
  const permissions = usePermissions();
  const reads: Record<ReportName, boolean> = { 'stock-value': readsStockValue(permissions), margins: readsMargins(permissions) };
  const search = reportSearch(useSearch({ strict: false }) as Record<string, unknown>);
  const navigate = useNavigate();
  const shown = shownReport(search.report, reads);
  if (shown === undefined) return <NotPermittedScreen what="page" />;

  const go = (next: ReportSearch) => void navigate({ to: '/reports', search: reportSearch({ ...next }) });
  // Another report keeps the place, and starts at its first page.
  const choose = (report: ReportName) => go({ ...search, report, page: undefined });
  const offered = REPORTS.filter((report) => reads[report.name]);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Reports</h1>
          <p className="text-sm text-muted-foreground">What the goods on hand are worth, and what sales made over what their goods cost.</p>
        </div>
        {offered.length > 1 && (
          <div role="group" aria-label="Report" className="grid w-full grid-cols-2 gap-1 sm:flex sm:w-auto">
            {offered.map((report) => (
              <Toggle key={report.name} variant="outline" pressed={report.name === shown} onPressedChange={() => choose(report.name)}>
                {report.label}
              </Toggle>
            ))}
          </div>
        )}
      </div>
      {shown === 'stock-value' ? <StockValueSection search={search} go={go} /> : <MarginsSection search={search} go={go} />}
    </div>
  );
}
