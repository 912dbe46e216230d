import { Download, Printer } from 'lucide-react';
import { todayInManila } from '../../../domain/documents';
import type { ResourceDefinition } from '../../../domain/resource';
import { useDownload } from '../../lib/downloads';
import { formatTimestamp } from '../../lib/format';
import { useSession } from '../../lib/session';
import { Button } from '../ui/button';
import { apiQuery, type ListState } from './list-state';

/**
 * What people take away from a list: the whole list as CSV with its search, sort and trash
 * filters (the server streams every page), or the page on screen on paper.
 */
export function ListTakeaway({ definition, state }: { definition: ResourceDefinition; state: ListState }) {
  const [exporting, download] = useDownload();

  const exportCsv = () => {
    const { page: _page, per_page: _perPage, ...filters } = apiQuery(state);
    return download({
      path: `/api/${definition.name}/export.csv`,
      query: filters,
      fallbackName: `${definition.name}-${todayInManila()}.csv`,
      offline: 'Exporting needs a connection: the whole list comes from the server.',
    });
  };

  return (
    <>
      <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting}>
        <Download aria-hidden /> {exporting ? 'Exporting…' : 'Export CSV'}
      </Button>
      <Button variant="outline" onClick={() => window.print()}>
        <Printer aria-hidden /> Print
      </Button>
    </>
  );
}

/** Paper only: whose list it is, when it was printed, and which part of it. */
export function PrintedListHeading({ state, page, lastPage }: { state: ListState; page: number; lastPage: number }) {
  const session = useSession();
  const business = session.status === 'signed-in' ? session.businesses.find((entry) => entry.id === session.businessId)?.name : undefined;
  const searches = Object.entries(state.searches).map(([name, value]) => `${name.replaceAll('_', ' ')}: ${value}`);
  const trash = state.only_trashed ? 'trashed only' : state.with_trashed ? 'with trashed' : undefined;
  return (
    <p className="hidden text-sm print:block">
      {[business, `Printed ${formatTimestamp(new Date().toISOString())}`, `Page ${page} of ${lastPage}`, trash, ...searches]
        .filter(Boolean)
        .join(' · ')}
    </p>
  );
}
