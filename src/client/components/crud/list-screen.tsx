import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { ArrowDown, ArrowUp, ArrowUpDown, Plus, X } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { referenceKey, type ResourceDefinition } from '../../../domain/resource';
import { findResource, getResource } from '../../../domain/resources/registry';
import { activeBusinessId, ApiError, describeError } from '../../lib/api';
import { displayValue } from '../../lib/format';
import { keepLook } from '../../lib/kept-look';
import { TABLE_WIDTH, useMediaQuery } from '../../lib/media';
import { isClientKey } from '../../lib/outbox';
import { rowsWithPending, usePendingChanges } from '../../lib/pending';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, userQuery } from '../../lib/session';
import { whenIdle } from '../../lib/when-idle';
import { nextColumnSort } from '../../lib/sorting';
import { cn } from '../../lib/utils';
import { useKeptLookGone } from '../layout/first-look';
import { NotFoundScreen } from '../layout/not-found-screen';
import { keptOfflineNotice, OfflineNotice } from '../offline-notice';
import { SearchInput } from '../search-input';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ProgressBar } from '../ui/progress-bar';
import { EmptyTableRow } from '../framed-table';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import { Toggle } from '../ui/toggle';
import { AdvancedSearchDialog } from './advanced-search-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { ListCards } from './list-cards';
import { ListTakeaway, PrintedListHeading } from './list-takeaway';
import { PendingBadge } from './pending-badge';
import { ReferencePicker } from './reference-picker';
import { apiQuery, quickSearchField, quickSearchReference, readListState, urlSearch, type ListState } from './list-state';
import { Pager } from './pager';
import { ResourceBreadcrumb } from './resource-breadcrumb';
import { useRecordActions } from './record-actions';
import { useScreenAccess } from './screen-access';
import { renderSlot, slots } from './slots';

/** `/x`: the generic list of any resource of the registry: search, filters, sorting, paging and row actions. */
export function ListScreen() {
  const { resource } = useParams({ strict: false }) as { resource: string };
  const definition = findResource(resource);
  if (!definition) return <NotFoundScreen what="list" />;
  return renderSlot(definition, 'list', { key: definition.name }) ?? <ResourceList key={definition.name} definition={definition} />;
}

/**
 * The list `/x?…` opens on, asked for as its route loads (router.tsx) instead of once the screen
 * is drawn: the answer travels while React draws the shell and the screen, which a phone takes
 * most of a second over — the rows are what Lighthouse waits for (bench/not-met.md).
 */
export function prefetchList(queryClient: QueryClient, resource: string, search: Record<string, unknown>): void {
  const definition = findResource(resource);
  const businessId = activeBusinessId();
  // Only for whom the session knows (not a visitor on the way to sign in); a screen of its own in the
  // list's place asks for what it shows itself.
  if (!definition || !queryClient.getQueryData(userQuery(businessId).queryKey) || slots.resolve(definition, 'list')) return;
  void queryClient.prefetchQuery(listQuery(businessId, definition, apiQuery(readListState(definition, search))));
}

/** An answer this fresh is not asked for again as the screen opens: its route asked for it moments before (`prefetchList`). */
const FRESH_ON_OPENING_MS = 2_000;

function columnLabel(definition: ResourceDefinition, name: string): string {
  if (name === 'id') return 'ID';
  if (name === 'created_at') return 'Created';
  if (name === 'updated_at') return 'Updated';
  return definition.fields[name]?.label ?? name;
}

/** Quick Search: the box follows the URL, and types into it reach the URL after 300 ms. */
function QuickSearch({ label, value, onSearch }: { label: string; value: string; onSearch: (value: string) => void }) {
  const [text, setText] = useState(value);
  const [followed, setFollowed] = useState(value);
  // The URL changed (Clear Search, back button): the box shows it.
  if (value !== followed) {
    setFollowed(value);
    setText(value);
  }
  const search = useEffectEvent(onSearch);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => search(text), 300);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <SearchInput
      className="sm:w-64 print:hidden"
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder="Quick Search"
      label={`Quick Search by ${label}`}
    />
  );
}

/** Quick Search by a reference (prices and stocks by item): picking a record searches the list by its id. */
function QuickPick({
  definition,
  field,
  value,
  rows,
  onSearch,
}: {
  definition: ResourceDefinition;
  field: string;
  value: string;
  rows: ApiRecord[];
  onSearch: (value: string) => void;
}) {
  const target = getResource(definition.fields[field]?.references ?? '');
  const id = Number(value);
  const chosen = Number.isInteger(id) && id > 0 ? id : null;
  // Every row of a list searched by the record names it: its display comes with them.
  const shown =
    chosen === null
      ? undefined
      : rows
          .map((row) => row[referenceKey(field)] as { id: number; display: string | null } | null)
          .find((reference) => reference?.id === chosen)?.display;
  return (
    <div className="w-full sm:w-64 print:hidden">
      <label htmlFor={`quick-search-${field}`} className="sr-only">
        Quick Search by {columnLabel(definition, field)}
      </label>
      <ReferencePicker
        id={`quick-search-${field}`}
        target={target}
        value={chosen}
        display={shown}
        onChange={(picked) => onSearch(picked === null ? '' : String(picked))}
      />
    </div>
  );
}

function ResourceList({ definition }: { definition: ResourceDefinition }) {
  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const state = readListState(definition, raw);
  const businessId = useActiveBusinessId();
  const query = useQuery({ ...listQuery(businessId, definition, apiQuery(state)), staleTime: FRESH_ON_OPENING_MS });
  const pending = usePendingChanges(businessId, definition);
  const allowed = useScreenAccess(definition, 'list');
  const canView = allowed('view');
  const canCreate = allowed('create') && !definition.readOnly;
  const canUpdate = allowed('update') && definition.editable && !definition.readOnly;
  const canRestore = allowed('restore');
  const canForceDelete = allowed('force-delete');
  const actions = useRecordActions(definition, () => undefined);
  const [target, setTarget] = useState<ApiRecord | null>(null);
  const quickField = quickSearchField(definition);
  const quickReference = quickSearchReference(definition);

  const go = (next: ListState) => void navigate({ to: '/$resource', params: { resource: definition.name }, search: urlSearch(next) });
  /** Changing search, filters or page size starts again at page 1: the old page may not exist in the new list. */
  const refine = (changes: Partial<ListState>) => go({ ...state, ...changes, page: 1 });

  // A 401 is the session's: the app asks to sign in (see app.tsx).
  useEffect(() => {
    const error = query.error;
    if (error instanceof ApiError && error.status >= 500) window.alert('Kindly report this issue to the devs.');
  }, [query.error]);

  const columns = ['id', ...definition.columns];
  const answer = query.data;
  const hasSearch = Object.keys(state.searches).length > 0;
  const rows = answer
    ? rowsWithPending(definition, answer.data, pending, { firstPage: state.page === 1, trashedOnly: state.only_trashed })
    : [];
  const createdHere = pending.filter((entry) => entry.action === 'create').length;
  // The list as opened from the navigation (nothing searched, first page) is kept as drawn, for a
  // start without a network to draw at once (lib/kept-look.ts); it replaces that look once drawn with its rows.
  useKeptListLook(definition, Object.keys(raw).length === 0 && answer !== undefined && !query.isFetching, {
    asOf: answer?.savedOffline ?? query.dataUpdatedAt,
    changes: pending.length,
  });
  useKeptLookGone(answer !== undefined || query.isError);
  const smallTitle = slots.resolve(definition, 'list.small-title')?.(definition);
  // Below a tablet's width a table's last columns would be off-screen: each record is a card.
  const wide = useMediaQuery(TABLE_WIDTH);
  const total = answer
    ? answer.meta.total_exact === false
      ? `more than ${answer.meta.total.toLocaleString('en-PH')}`
      : answer.meta.total
    : '…';
  const caption = `List of ${definition.plural} - Total ${total}${
    createdHere > 0 ? ` (and ${createdHere} created on this device, not yet synced)` : ''
  }`;
  const emptyText = hasSearch ? `No ${definition.plural.toLowerCase()} match this search.` : `No ${definition.plural.toLowerCase()} yet.`;
  const rowActions = (record: ApiRecord, withView: boolean) => (
    <RowActions
      definition={definition}
      record={record}
      canView={withView}
      canUpdate={canUpdate}
      canRestore={canRestore}
      canForceDelete={canForceDelete}
      onAsk={(action) => {
        setTarget(record);
        actions.ask(action, record.id, displayValue(definition.display, definition.fields[definition.display], record));
      }}
    />
  );

  return (
    <div className="space-y-4">
      <ResourceBreadcrumb definition={definition} current={`List of ${definition.plural}`} />
      <div className="flex flex-wrap items-center gap-2 print:block">
        <div className="mr-auto">
          {smallTitle && <p className="text-sm font-medium text-muted-foreground">{smallTitle}</p>}
          <h1 className="text-2xl font-semibold tracking-tight">{definition.plural}</h1>
        </div>
        {hasSearch && (
          <Button variant="outline" className="print:hidden" onClick={() => refine({ searches: {} })}>
            <X aria-hidden /> Clear Search
          </Button>
        )}
        {quickField && (
          <QuickSearch
            label={columnLabel(definition, quickField)}
            value={state.searches[quickField] ?? ''}
            onSearch={(value) => {
              const searches = { ...state.searches };
              if (value.trim()) searches[quickField] = value;
              else delete searches[quickField];
              refine({ searches });
            }}
          />
        )}
        {quickReference && (
          <QuickPick
            definition={definition}
            field={quickReference}
            value={state.searches[quickReference] ?? ''}
            rows={answer?.data ?? []}
            onSearch={(value) => {
              const searches = { ...state.searches };
              if (value) searches[quickReference] = value;
              else delete searches[quickReference];
              refine({ searches });
            }}
          />
        )}
      </div>
      {answer && <PrintedListHeading state={state} page={answer.meta.current_page} lastPage={answer.meta.last_page} />}
      <div className="flex flex-wrap items-center gap-2 print:hidden">
        {TRASH_FILTERS.map(({ label, on, off }) => (
          <Toggle key={on} variant="outline" pressed={state[on]} onPressedChange={() => refine({ [on]: !state[on], [off]: false })}>
            {label}
          </Toggle>
        ))}
        <AdvancedSearchDialog definition={definition} state={state} onSearch={refine} />
        {canView && <ListTakeaway definition={definition} state={state} />}
        {canView && renderSlot(definition, 'list.actions', {})}
        {canCreate && (
          <Button asChild className="ml-auto">
            <Link to="/$resource/create" params={{ resource: definition.name }} search={{ redirect_to: undefined }}>
              <Plus aria-hidden /> Create New {definition.singular}
            </Link>
          </Button>
        )}
      </div>

      <ProgressBar active={query.isFetching} data-list-progress="" />
      <OfflineNotice savedAt={answer?.savedOffline} resource={definition.name} />
      {query.error && !(query.error instanceof ApiError && query.error.status === 401) ? (
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-4 text-destructive">
          <p className="font-medium">The list could not be loaded.</p>
          <p className="text-sm">{describeError(query.error)}</p>
          <Button variant="outline" className="mt-3" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          {!wide && (
            <ListCards
              definition={definition}
              rows={rows}
              caption={caption}
              empty={answer && rows.length === 0 ? emptyText : undefined}
              canView={canView}
              actionsOf={(record) => rowActions(record, false)}
            />
          )}
          {wide && (
            <Table className="[&_tbody_tr:nth-child(even)]:bg-muted/40">
              <TableCaption className="caption-top pb-2 text-left">{caption}</TableCaption>
              <TableHeader>
                <TableRow>
                  {columns.map((name) => {
                    const sortable = definition.sort.includes(name);
                    const active = state.order_by_field_name === name;
                    const Icon = !active ? ArrowUpDown : state.order_by === 'asc' ? ArrowUp : ArrowDown;
                    return (
                      <TableHead
                        key={name}
                        aria-sort={active ? (state.order_by === 'asc' ? 'ascending' : 'descending') : undefined}
                        className="whitespace-nowrap"
                      >
                        {sortable ? (
                          <Button
                            variant="ghost"
                            size="sm"
                            className="-ml-2 h-9"
                            onClick={() => {
                              const sort = nextColumnSort({ field: state.order_by_field_name, order: state.order_by }, name);
                              go({ ...state, order_by_field_name: sort.field, order_by: sort.order });
                            }}
                          >
                            {columnLabel(definition, name)}
                            <Icon className={cn('size-4 print:hidden', !active && 'opacity-40')} aria-hidden />
                          </Button>
                        ) : (
                          columnLabel(definition, name)
                        )}
                      </TableHead>
                    );
                  })}
                  <TableHead className={cn('text-right print:hidden', STICKY_END)}>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((record) => (
                  <TableRow
                    key={record.id}
                    className={cn(record.deleted_at && 'text-muted-foreground', canView && 'cursor-pointer')}
                    onClick={(event) => {
                      // The whole row opens the record; its own links and buttons, and selecting its text, keep theirs.
                      const within = (event.target as HTMLElement).closest('a, button, input, label, [role="checkbox"]');
                      if (!canView || within || window.getSelection()?.toString()) return;
                      void navigate({ to: '/$resource/$id', params: { resource: definition.name, id: String(record.id) } });
                    }}
                  >
                    {columns.map((name) => (
                      <TableCell key={name} className="max-w-72 truncate print:max-w-none print:whitespace-normal">
                        {renderSlot(definition, 'list.cell', { name, record, text: cellText(definition, name, record) }) ??
                          cellText(definition, name, record)}
                        {name === 'id' && record.deleted_at && (
                          <Badge variant="outline" className="ml-2">
                            Trashed
                          </Badge>
                        )}
                        {name === 'id' && record.pending && (
                          <span className="ml-2">
                            <PendingBadge entry={record.pending} />
                          </span>
                        )}
                      </TableCell>
                    ))}
                    <TableCell className={cn('text-right whitespace-nowrap print:hidden', STICKY_END)}>
                      {rowActions(record, canView)}
                    </TableCell>
                  </TableRow>
                ))}
                {answer && rows.length === 0 && (
                  <EmptyTableRow colSpan={columns.length + 1} className="py-10">
                    {emptyText}
                  </EmptyTableRow>
                )}
              </TableBody>
            </Table>
          )}
        </>
      )}

      {answer && (
        <div className="print:hidden">
          <Pager
            meta={answer.meta}
            sort={{ field: state.order_by_field_name, order: state.order_by }}
            onPage={(page) => go({ ...state, page })}
            onSort={(sort) => go({ ...state, order_by_field_name: sort.field, order_by: sort.order })}
            onPageSize={(per_page) => refine({ per_page })}
          />
        </div>
      )}
      <ConfirmDialog
        {...actions.dialog}
        singular={definition.singular}
        display={target ? displayValue(definition.display, definition.fields[definition.display], target) : ''}
      />
    </div>
  );
}

/**
 * Keeps the list as drawn, once the page is idle, as the kept look of its address while `shown` (its
 * rows drawn, none on the way), the offline notice saying `asOf`; again when what is drawn changes
 * (another answer, `changes` made on this device).
 */
function useKeptListLook(definition: ResourceDefinition, shown: boolean, { asOf, changes }: { asOf: number; changes: number }): void {
  const businessId = useActiveBusinessId();
  const userId = useQuery(userQuery(businessId)).data?.id;
  useEffect(() => {
    if (!shown || userId === undefined || businessId === null) return;
    let cancelled = false;
    whenIdle(() => {
      if (cancelled) return;
      keepLook({ address: `/${definition.name}`, userId, businessId, notice: keptOfflineNotice(asOf), placeAfter: '[data-list-progress]' });
    });
    return () => {
      cancelled = true;
    };
  }, [definition, shown, userId, businessId, asOf, changes]);
}

/** A cell as text; a record created on this device has no id yet. */
function cellText(definition: ResourceDefinition, name: string, record: ApiRecord): string {
  if (isClientKey(record.id) && name === 'id') return 'New';
  return displayValue(name, definition.fields[name], record);
}

/** The trash filters: the list with trashed records, or only them; turning one on turns the other off. */
const TRASH_FILTERS = [
  { label: 'With Trashed', on: 'with_trashed', off: 'only_trashed' },
  { label: 'Only Trashed', on: 'only_trashed', off: 'with_trashed' },
] as const;

/** The actions column stays in view while a wide table scrolls sideways. */
const STICKY_END = 'sticky right-0 bg-background shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.15)]';

/** Row links stay 44 px tall for fingers on a tablet. */
const rowLink = 'text-primary inline-flex min-h-11 items-center px-1 font-medium underline-offset-4 hover:underline';

function RowActions({
  definition,
  record,
  canView,
  canUpdate,
  canRestore,
  canForceDelete,
  onAsk,
}: {
  definition: ResourceDefinition;
  record: ApiRecord;
  canView: boolean;
  canUpdate: boolean;
  canRestore: boolean;
  canForceDelete: boolean;
  onAsk: (action: 'restore' | 'force-delete') => void;
}) {
  const params = { resource: definition.name, id: String(record.id) };
  const links = [
    canView && (
      <Link key="view" to="/$resource/$id" params={params} className={rowLink}>
        View
      </Link>
    ),
    canUpdate && !record.deleted_at && (
      <Link key="edit" to="/$resource/$id/edit" params={params} className={rowLink}>
        Edit
      </Link>
    ),
    canRestore && record.deleted_at && (
      <button key="restore" type="button" onClick={() => onAsk('restore')} className={rowLink}>
        Restore
      </button>
    ),
    canForceDelete && record.deleted_at && (
      <button key="force" type="button" onClick={() => onAsk('force-delete')} className={cn(rowLink, 'text-destructive')}>
        Delete Permanently
      </button>
    ),
  ].filter(Boolean);
  if (links.length === 0) return null;
  return (
    <span className="inline-flex items-center gap-2">
      {links.map((link, index) => (
        <span key={index} className="inline-flex items-center gap-2">
          {index > 0 && (
            <span aria-hidden className="text-muted-foreground">
              |
            </span>
          )}
          {link}
        </span>
      ))}
    </span>
  );
}
