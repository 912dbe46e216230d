import { useQueries, type QueryKey } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { holdsAny, permissionName, VIEW_COSTS_PERMISSION } from '../../../domain/permissions';
import type { PlaceGrant } from '../../../domain/places';
import { registry } from '../../../domain/resources/registry';
import type { ReadBack } from '../../lib/resource-queries';
import { useActiveBusinessId, usePermissions, useSession, type CurrentUser } from '../../lib/session';
import { OfflineNotice } from '../../components/offline-notice';
import { Toggle } from '../../components/ui/toggle';
import { BackupStatus } from './backup-status';
import {
  LowStockCard,
  MarginsCard,
  RecentDocumentsCard,
  ReturnsCard,
  SalesPurchasesCard,
  StockValueCard,
  TopItemsCard,
  UnpaidCard,
} from './overview-cards';
import type { Series } from './series';
import {
  overviewQuery,
  type LowStock,
  type Margins,
  type RecentDocuments,
  type SalesPurchases,
  type StockValue,
  type ReturnsByReason,
  type TopItems,
  type Unpaid,
} from './overview-queries';
import { DEFAULT_PERIOD, periodLabel, periodRange, PERIODS, readPeriod, type PeriodName } from './period';

/**
 * The places the figures are of, for a user kept to some: their names ("Makati"), so a user of one
 * place sees which without picking it. None for a user who views every place; an empty list for
 * one who holds none.
 */
function placesOfFigures(places: CurrentUser['places']): string[] | undefined {
  if (!places || places.all !== null) return undefined;
  const grants: readonly (PlaceGrant & { name: string })[] = places.grants;
  return grants.map((grant) => grant.name);
}

/**
 * `/` and `/overview`: how the business is doing, at a glance — sales and purchases over a
 * period (`?period=`), what customers owe and what is owed to suppliers, stock value, low stock,
 * top items and the newest documents. Each card shows only to a user who may view what it
 * counts, so the screen never asks for figures the server would refuse; the server counts only
 * the places the user views, and the screen names them.
 */
export function OverviewScreen() {
  const session = useSession();
  const permissions = usePermissions();
  const businessId = useActiveBusinessId();
  const navigate = useNavigate();
  const period = readPeriod((useSearch({ strict: false }) as { period?: unknown }).period);
  const range = periodRange(period);
  const label = periodLabel(period);
  const choosePeriod = (name: PeriodName) => {
    const search = { period: name === DEFAULT_PERIOD ? undefined : name };
    void navigate({ to: '/overview', search, replace: true });
  };

  const mayView = (prefix: string) => holdsAny(permissions, [permissionName('view', prefix)]);
  const sales = mayView('invoices');
  const purchases = mayView('bills');
  const stocks = mayView('stocks');
  const documents = registry.some((definition) => definition.document && mayView(definition.permission));
  const series: Series[] = (['sales', 'purchases'] as const).filter((name) => (name === 'sales' ? sales : purchases));

  const salesPurchases = {
    ...overviewQuery<SalesPurchases>(businessId, 'sales-purchases', 'the sales chart of this period', { ...range }),
    enabled: series.length > 0,
  };
  const receivables = { ...overviewQuery<Unpaid>(businessId, 'receivables', 'the receivables card'), enabled: sales };
  const payables = { ...overviewQuery<Unpaid>(businessId, 'payables', 'the payables card'), enabled: purchases };
  const stockValue = { ...overviewQuery<StockValue>(businessId, 'stock-value', 'the stock value chart'), enabled: stocks };
  const lowStock = { ...overviewQuery<LowStock>(businessId, 'low-stock', 'the low stock list', { limit: 8 }), enabled: stocks };
  const topItems = {
    ...overviewQuery<TopItems>(businessId, 'top-items', 'the top items chart of this period', { from: range.from, to: range.to, limit: 5 }),
    enabled: sales,
  };
  // Returns are of sales, over the period the sales chart chooses.
  const returned = sales && mayView('sales-returns');
  const returns = {
    ...overviewQuery<ReturnsByReason>(businessId, 'returns', 'the returns of this period', { from: range.from, to: range.to }),
    enabled: returned,
  };
  // What sales made over what their goods cost, for those who see costs.
  const costed = sales && holdsAny(permissions, [VIEW_COSTS_PERMISSION]);
  const margins = {
    ...overviewQuery<Margins>(businessId, 'margins', 'the gross margin of this period', { from: range.from, to: range.to }),
    enabled: costed,
  };
  const recent = {
    ...overviewQuery<RecentDocuments>(businessId, 'recent-documents', 'the recent documents list', { limit: 8 }),
    enabled: documents,
  };

  const user = session.status === 'signed-in' ? session.user : undefined;
  const name = user?.name ?? '';
  const business = session.status === 'signed-in' ? session.businesses.find((entry) => entry.id === session.businessId)?.name : undefined;
  const placesShown = placesOfFigures(user?.places);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Magandang araw, {name}</h1>
          <p className="text-muted-foreground">
            {business}
            {placesShown && placesShown.length > 0 && ` · ${placesShown.join(', ')}`}
          </p>
        </div>
        {series.length > 0 && (
          <div role="group" aria-label="Period" className="grid w-full grid-cols-2 gap-1 sm:flex sm:w-auto sm:flex-wrap">
            {PERIODS.map((option) => (
              <Toggle
                key={option.name}
                variant="outline"
                pressed={option.name === period}
                onPressedChange={() => choosePeriod(option.name)}
              >
                {option.label}
              </Toggle>
            ))}
          </div>
        )}
      </div>
      <BackupStatus>
        <SavedOfflineNotice queries={[salesPurchases, receivables, payables, stockValue, lowStock, topItems, margins, returns, recent]} />
        {series.length === 0 && !stocks && !documents ? (
          <p className="text-muted-foreground">Your role does not show any figures here. Ask an administrator if you need access.</p>
        ) : placesShown?.length === 0 ? (
          <p className="text-muted-foreground">
            You work at no branch or warehouse of this business, so no figures show here. Ask an administrator if you need access.
          </p>
        ) : (
          <div className="@container">
            <div className="grid gap-4 @2xl:grid-cols-2">
              {series.length > 0 && (
                <SalesPurchasesCard options={salesPurchases} series={series} periodLabel={label} className="@2xl:col-span-2" />
              )}
              {sales && <UnpaidCard kind="receivables" options={receivables} />}
              {purchases && <UnpaidCard kind="payables" options={payables} />}
              {/* Charts beside charts and lists beside lists, so the cards of a row are of a height. */}
              {stocks && <StockValueCard options={stockValue} />}
              {sales && <TopItemsCard options={topItems} periodLabel={label} />}
              {stocks && <LowStockCard options={lowStock} />}
              {documents && <RecentDocumentsCard options={recent} />}
              {costed && <MarginsCard options={margins} periodLabel={label} />}
              {returned && <ReturnsCard options={returns} periodLabel={label} />}
            </div>
          </div>
        )}
      </BackupStatus>
    </div>
  );
}

/** Cards read back from this device say so once, with the oldest time any of them was saved. */
function SavedOfflineNotice({ queries }: { queries: { queryKey: QueryKey }[] }) {
  // Read from the cards' own queries (overview-cards.tsx), which ask for their figures: these never do.
  const savedAt = useQueries({
    queries: queries.map(({ queryKey }) => ({ queryKey, enabled: false })),
    combine: (results) => {
      const times = results.map((result) => (result.data as ReadBack | undefined)?.savedOffline).filter((time) => time !== undefined);
      return times.length > 0 ? Math.min(...times) : undefined;
    },
  });
  return <OfflineNotice savedAt={savedAt} />;
}
