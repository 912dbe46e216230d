import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Download, FileText } from 'lucide-react';
import { AGEING_BUCKETS, AGEING_SIDES, type AgeingBucketKey, type AgeingSide } from '../../../domain/ageing';
import { formatPesos } from '../../../domain/money';
import { permissionName } from '../../../domain/permissions';
import { getResource } from '../../../domain/resources/registry';
import { readsStatements } from '../../../domain/statement';
import { ChoiceSelect } from '../../components/choices';
import { CardsOrTable, EmptyTableRow } from '../../components/framed-table';
import { LabelledField } from '../../components/labelled-field';
import { NotPermittedScreen } from '../../components/layout/not-found-screen';
import { OfflineNotice } from '../../components/offline-notice';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { ProgressBar } from '../../components/ui/progress-bar';
import { TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { describeError } from '../../lib/api';
import { useDownload } from '../../lib/downloads';
import { formatDate } from '../../lib/format';
import { placesAt, usePlaces } from '../../lib/places';
import { useActiveBusinessId, useCan, usePermissions } from '../../lib/session';
import { cn } from '../../lib/utils';
import { overviewQuery } from '../overview/overview-queries';
import { ageingSearch, type AgeingSearch } from './ageing-search';

/** What one party owes (or is owed), by days past due (`GET /api/overview/{side}/ageing`); money in pesos. */
type Amounts = Record<AgeingBucketKey, number>;

export interface AgeingAnswer {
  as_of: string;
  data: { contact_id: number | null; contact: string | null; buckets: Amounts; total: number; count: number; oldest_due: string }[];
  totals: { buckets: Amounts; total: number; count: number };
}

const placeValue = (search: AgeingSearch) =>
  search.branch_id !== undefined
    ? `branch:${search.branch_id}`
    : search.warehouse_id !== undefined
      ? `warehouse:${search.warehouse_id}`
      : '';

/** `/receivables` and `/payables`: what each customer owes, or each supplier is owed, by how long it is past due. */
export function AgeingScreen({ side }: { side: AgeingSide }) {
  const allowed = useCan(permissionName('view', getResource(AGEING_SIDES[side].resource).permission));
  if (!allowed) return <NotPermittedScreen what="page" />;
  return <Ageing side={side} />;
}

export const ReceivablesScreen = () => <AgeingScreen side="receivables" />;
export const PayablesScreen = () => <AgeingScreen side="payables" />;

function Ageing({ side }: { side: AgeingSide }) {
  const { resource, party, title, owed } = AGEING_SIDES[side];
  const businessId = useActiveBusinessId();
  const search = ageingSearch(useSearch({ strict: false }) as Record<string, unknown>);
  const navigate = useNavigate();
  const places = placesAt(usePlaces().places ?? [], 'view');
  const ageing = useQuery(overviewQuery<AgeingAnswer>(businessId, `${side}/ageing`, `the ${title.toLowerCase()}`, { ...search }));
  const [exporting, download] = useDownload();
  const answer = ageing.data;
  const noun = getResource(resource).singular.toLowerCase();
  // A customer's statement of account, for whoever reads statements.
  const permissions = usePermissions();
  const statements = side === 'receivables' && readsStatements(permissions);

  const choosePlace = (value: string) => {
    const [type, id] = value.split(':');
    void navigate({ to: `/${side}`, search: value === '' ? {} : { [`${type}_id`]: Number(id) } });
  };

  const exportCsv = () =>
    download({
      path: `/api/overview/${side}/ageing.csv`,
      query: { ...search },
      fallbackName: `${side}-ageing.csv`,
      offline: 'Exporting needs a connection.',
    });

  /** The party's unpaid documents, the longest due first, at the place shown. */
  const documentsOf = (contactId: number | null) => ({
    ...(contactId !== null && { contact_id: contactId, is_strict: 1 }),
    ...search,
    order_by_field_name: 'due_date',
    order_by: 'asc',
  });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <p className="text-sm text-muted-foreground">
            {owed}, by days past due{answer ? ` as of ${formatDate(answer.as_of)}` : ''}.
          </p>
        </div>
        <div className="flex w-full flex-wrap items-end gap-2 sm:w-auto">
          {places.length > 1 && (
            <div className="min-w-48 flex-1 sm:flex-none">
              <LabelledField id="ageing-place" label="Place">
                <ChoiceSelect
                  id="ageing-place"
                  value={placeValue(search) || 'all'}
                  onValueChange={(value) => choosePlace(value === 'all' ? '' : value)}
                  choices={[
                    { value: 'all', label: 'All places' },
                    ...places.map((place) => ({ value: `${place.type}:${place.id}`, label: place.name })),
                  ]}
                />
              </LabelledField>
            </div>
          )}
          <Button variant="outline" className="min-h-11" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting}>
            <Download aria-hidden /> {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
        </div>
      </div>
      <OfflineNotice savedAt={answer?.savedOffline} />
      <ProgressBar active={ageing.isFetching} />
      <ProblemAlert problem={ageing.error ? describeError(ageing.error) : null} />
      {answer && (
        <>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
            {AGEING_BUCKETS.map(({ key, label }) => (
              <div key={key} className="rounded-lg border p-3">
                <dt className="text-sm text-muted-foreground">{label}</dt>
                <dd className={cn('font-semibold tabular-nums', key !== 'current' && answer.totals.buckets[key] > 0 && 'text-destructive')}>
                  {formatPesos(answer.totals.buckets[key])}
                </dd>
              </div>
            ))}
            <div className="rounded-lg border bg-muted/40 p-3">
              <dt className="text-sm text-muted-foreground">Total</dt>
              <dd className="font-semibold tabular-nums">{formatPesos(answer.totals.total)}</dd>
            </div>
          </dl>
          {/* A phone reads a card per party; a wider screen the whole table. */}
          <CardsOrTable
            label={`${title} by ${party.toLowerCase()}`}
            empty={answer.data.length === 0 && `No unpaid ${noun}s.`}
            cards={answer.data.map((row) => (
              <li key={row.contact_id ?? 'none'} className="rounded-lg border p-3">
                <Link
                  to="/$resource"
                  params={{ resource }}
                  search={documentsOf(row.contact_id)}
                  className="flex min-h-11 items-center justify-between gap-3 font-medium hover:underline"
                >
                  <span className="min-w-0 break-words">{row.contact ?? `No ${party.toLowerCase()}`}</span>
                  <span className="tabular-nums">{formatPesos(row.total)}</span>
                </Link>
                <dl className="grid grid-cols-2 gap-x-4 text-sm">
                  {AGEING_BUCKETS.filter(({ key }) => row.buckets[key] > 0).map(({ key, label }) => (
                    <div key={key} className="flex justify-between gap-2">
                      <dt className="text-muted-foreground">{label}</dt>
                      <dd className="tabular-nums">{formatPesos(row.buckets[key])}</dd>
                    </div>
                  ))}
                </dl>
                {statements && row.contact_id !== null && <StatementLink contactId={row.contact_id} contact={row.contact} />}
              </li>
            ))}
            table={
              <>
                <TableHeader>
                  <TableRow>
                    <TableHead>{party}</TableHead>
                    {AGEING_BUCKETS.map(({ key, label }) => (
                      <TableHead key={key} className="text-right">
                        {label}
                      </TableHead>
                    ))}
                    <TableHead className="text-right">Total</TableHead>
                    <TableHead>Oldest due</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {answer.data.length === 0 && <EmptyTableRow colSpan={AGEING_BUCKETS.length + 3}>No unpaid {noun}s.</EmptyTableRow>}
                  {answer.data.map((row) => (
                    <TableRow key={row.contact_id ?? 'none'}>
                      <TableCell className="whitespace-normal">
                        <Link
                          to="/$resource"
                          params={{ resource }}
                          search={documentsOf(row.contact_id)}
                          className="font-medium hover:underline"
                        >
                          {row.contact ?? `No ${party.toLowerCase()}`}
                        </Link>
                        <div className="text-xs text-muted-foreground">
                          {row.count} unpaid {row.count === 1 ? noun : `${noun}s`}
                        </div>
                        {statements && row.contact_id !== null && <StatementLink contactId={row.contact_id} contact={row.contact} />}
                      </TableCell>
                      {AGEING_BUCKETS.map(({ key }) => (
                        <TableCell key={key} className="text-right tabular-nums">
                          {row.buckets[key] > 0 ? formatPesos(row.buckets[key]) : '—'}
                        </TableCell>
                      ))}
                      <TableCell className="text-right font-medium tabular-nums">{formatPesos(row.total)}</TableCell>
                      <TableCell className="whitespace-nowrap">{formatDate(row.oldest_due)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
                {answer.data.length > 0 && (
                  <TableFooter>
                    <TableRow>
                      <TableCell>Total</TableCell>
                      {AGEING_BUCKETS.map(({ key }) => (
                        <TableCell key={key} className="text-right tabular-nums">
                          {formatPesos(answer.totals.buckets[key])}
                        </TableCell>
                      ))}
                      <TableCell className="text-right tabular-nums">{formatPesos(answer.totals.total)}</TableCell>
                      <TableCell />
                    </TableRow>
                  </TableFooter>
                )}
              </>
            }
          />
        </>
      )}
    </div>
  );
}

/** A customer's statement of account, named for them to a screen reader. */
function StatementLink({ contactId, contact }: { contactId: number; contact: string | null }) {
  return (
    <Link
      to="/contacts/$id/statement"
      params={{ id: String(contactId) }}
      aria-label={`Statement of account of ${contact ?? `customer ${contactId}`}`}
      className="inline-flex min-h-11 items-center gap-1 text-sm text-primary hover:underline md:min-h-0"
    >
      <FileText className="size-4" aria-hidden /> Statement
    </Link>
  );
}
