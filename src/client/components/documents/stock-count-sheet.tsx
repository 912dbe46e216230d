import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { CheckCheck, ClipboardCheck, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ListMeta } from '../../../domain/list-params';
import { PICKER_LIMIT } from '../../../domain/list-params';
import { countDifference, differenceValue } from '../../../domain/count-figures';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../../domain/money';
import { transitionsOpen, type Step } from '../../../domain/lifecycle';
import { holdsAny, permissionName } from '../../../domain/permissions';
import { fromThousandths, roundsToNothing, toThousandths } from '../../../domain/quantity';
import { referenceKey, type ResourceDefinition } from '../../../domain/resource';
import { alsoNeeded } from '../../../domain/where-made';
import { getResource } from '../../../domain/resources/registry';
import {
  COUNT_LINE_FILTERS,
  COUNT_LINES_PAGE,
  expectedHidden,
  outsideScope,
  SCOPE_FIELDS,
  type CountLineFilter,
} from '../../../domain/resources/stock-counts';
import { api, describeError, queryString } from '../../lib/api';
import { keptAnswer } from '../../lib/kept-answer';
import { isClientKey, submitChange, type OutboxEntry } from '../../lib/outbox';
import { useOutbox } from '../../lib/pending';
import { listQuery, recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, usePermissions } from '../../lib/session';
import { cn } from '../../lib/utils';
import { ConfirmDialog, useConfirmation } from '../crud/confirm-dialog';
import { PickerList, PickerOptions } from '../crud/picker-list';
import { takeStep, whileBusy } from '../crud/record-actions';
import { CameraScanButton } from '../scan/camera-scanner';
import { signalRead } from '../scan/barcode-reader';
import { useItemByCode } from '../scan/item-by-code';
import { AskDialog } from '../ui/ask-dialog';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { NativeSelect } from '../ui/native-select';
import { SignedQuantityInput } from '../ui/signed-quantity-input';
import { EmptyTableRow, FramedTable } from '../framed-table';
import { HeadedSection } from '../headed-section';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import { SmallLabel } from '../labelled-field';

/**
 * A line of a count as the server reads it (`GET /api/stock-counts/{id}/lines`). While a blind
 * count is open the server leaves out what is expected, moved, on hand and different.
 */
export interface CountLine {
  id: number;
  item_id: number;
  item: { id: number; display: string; sku: string; barcode: string | null };
  unit: string | null;
  expected?: number;
  on_hand?: number;
  moved?: number;
  counted: number | null;
  entries: number;
  difference?: number | null;
  unit_cost: number | null;
  difference_value?: number | null;
}

interface LinesPage {
  data: CountLine[];
  meta: ListMeta;
  savedOffline?: number;
}

/** What this device has queued for one item of the count and not sent yet. */
interface Unsent {
  /** A "take off" is queued: the server's count of it no longer holds. */
  cleared: boolean;
  /** What the entries queued after it (or all of them, without one) add. */
  added: number;
  /** How many entries that is. */
  adds: number;
}

/** A line as the sheet shows it: the server's, with what this device counted and has not sent yet. */
interface ShownLine {
  itemId: number;
  name: string;
  sku: string;
  unit: string | null;
  /** Unknown for an item first counted on this device, until the server puts it on the count. */
  expected: number | null;
  onHand: number | null;
  moved: number | null;
  counted: number | null;
  unsent: Unsent | undefined;
  difference: number | null;
  value: number | null;
}

/** Thousandths: quantities add up exactly. */
const sum = (a: number, b: number) => Math.round((a + b) * 1000) / 1000;
const signed = (value: number) => `${value > 0 ? '+' : ''}${value}`;
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const takesOff = (entry: OutboxEntry) => entry.path.endsWith('/uncount');
/** Finishing the counting is queued as counting too: it goes out in order after the entries before it. */
const finishes = (entry: OutboxEntry) => entry.path.endsWith('/finish');
/** This device's queued counting of the count: entries, lines taken off, and finishing it. */
const countingOf = (entry: OutboxEntry, resource: string, countId: number | string) =>
  entry.resource === resource && entry.action === 'count' && entry.recordId === countId;

/**
 * What this device queued for the count and has not sent, by item, in the order it was made: a
 * "take off" clears what was queued before it. An entry the server refused is not counted here
 * (Pending changes shows it).
 */
function unsentByItem(entries: readonly OutboxEntry[], countId: number | string): Map<number, Unsent> {
  const byItem = new Map<number, Unsent>();
  for (const entry of entries) {
    if (!countingOf(entry, 'stock-counts', countId) || finishes(entry)) continue;
    if (entry.state === 'needs-attention') continue;
    const body = entry.body as { item_id: number; quantity?: number };
    const before = byItem.get(body.item_id) ?? { cleared: false, added: 0, adds: 0 };
    byItem.set(
      body.item_id,
      takesOff(entry)
        ? { cleared: true, added: 0, adds: 0 }
        : { ...before, added: sum(before.added, body.quantity ?? 0), adds: before.adds + 1 },
    );
  }
  return byItem;
}

/** What is counted of an item with what this device has not sent: null while nothing is. */
function countedWith(serverCounted: number | null, unsent: Unsent | undefined): number | null {
  if (!unsent) return serverCounted;
  if (unsent.cleared) return unsent.adds > 0 ? unsent.added : null;
  return serverCounted === null && unsent.adds === 0 ? null : sum(serverCounted ?? 0, unsent.added);
}

function shownLine(line: CountLine, unsent: Unsent | undefined): ShownLine {
  const counted = countedWith(line.counted, unsent);
  // Worked out as the server works out its own lines, in thousandths and centavos.
  const difference =
    counted === null || line.on_hand === undefined ? null : countDifference(toThousandths(counted), toThousandths(line.on_hand));
  const value = difference === null ? null : differenceValue(difference, line.unit_cost === null ? null : pesosToCentavos(line.unit_cost));
  return {
    itemId: line.item_id,
    name: line.item.display,
    sku: line.item.sku,
    unit: line.unit,
    expected: line.expected ?? null,
    onHand: line.on_hand ?? null,
    moved: line.moved ?? null,
    counted,
    unsent,
    difference: difference === null ? null : fromThousandths(difference),
    value: value === null ? null : centavosToPesos(value),
  };
}

/**
 * A page of the count's lines: from the server, kept on this device; without a network, as last
 * read here. The key starts as every stock count query does, so a change sent reloads it.
 */
function fetchLines(
  businessId: number | null,
  countId: number | string,
  params: { show: CountLineFilter; search: string; page: number; per_page: number },
  signal?: AbortSignal,
): Promise<LinesPage> {
  const query = { show: params.show, search: params.search || undefined, page: params.page, per_page: params.per_page };
  const key = `${businessId}|stock-counts|lines|${String(countId)}|${queryString(query)}`;
  return keptAnswer(businessId, 'stock-counts', key, 'this part of the count', () =>
    api<LinesPage>('GET', `/api/stock-counts/${String(countId)}/lines`, { query, signal }),
  );
}

const linesKey = (businessId: number | null, countId: number | string) => [businessId, 'stock-counts', 'lines', countId] as const;

/**
 * A stock count's sheet: counting (scan or search an item, with how many; each entry goes through
 * the outbox, so it is kept offline and sent once), and its lines a page at a time — expected when
 * the count started, what moved since, on hand, counted (with what this device has not sent yet),
 * the difference in units and in pesos — filtered and searched by the server; a line counted by
 * mistake taken off again; then posting, which writes the stock adjustment of the differences.
 * A blind count shows only what was counted until its counting is finished: the server sends
 * nothing more, so nothing more is kept on the device either.
 */
export function StockCountSheet({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const { entries } = useOutbox();
  const countId = record.id as number | string;
  const onServer = !isClientKey(countId);
  const open = record.status === 'open' && !record.deleted_at;
  const hidden = expectedHidden(record);
  const held = usePermissions();
  const canCount = holdsAny(held, [permissionName('update', definition.permission)]);
  // Finishing and posting are the steps the count's lifecycle declares, offered here while open to
  // the count, to who holds what they need (posting writes a stock adjustment: for who may write one too).
  const step = (name: string): Step | undefined =>
    transitionsOpen(definition.document!.lifecycle, record).find(
      (transition): transition is Step =>
        transition.direction === 'forward' &&
        transition.name === name &&
        [permissionName(transition.permission, definition.permission), ...alsoNeeded(transition)].every((needed) =>
          holdsAny(held, [needed]),
        ),
    );
  const finishStep = record.deleted_at ? undefined : step('finish');
  const postStep = record.deleted_at ? undefined : step('post');
  const unsent = unsentByItem(entries, countId);
  const postPending = entries.some((entry) => entry.resource === definition.name && entry.action === 'post' && entry.recordId === countId);
  const finishPending = entries.some((entry) => countingOf(entry, definition.name, countId) && finishes(entry));
  const unsentEntries = entries.filter((entry) => countingOf(entry, definition.name, countId) && !finishes(entry)).length;

  const [show, setShow] = useState<CountLineFilter>('all');
  const [find, setFind] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(find.trim()), 300);
    return () => clearTimeout(timer);
  }, [find]);
  const pages = useInfiniteQuery({
    queryKey: [...linesKey(businessId, countId), { show, search }],
    queryFn: ({ pageParam, signal }) =>
      fetchLines(businessId, countId, { show, search, page: pageParam, per_page: COUNT_LINES_PAGE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: LinesPage) => (last.meta.current_page < last.meta.last_page ? last.meta.current_page + 1 : undefined),
    enabled: onServer,
    networkMode: 'always',
    retry: false,
  });
  const loaded = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const total = pages.data?.pages.at(-1)?.meta.total ?? 0;
  const loadedByItem = new Map(loaded.map((line) => [line.item_id, line]));
  // Every line is here: an item this device counted that is not among them is not on the count yet.
  const complete = pages.isSuccess && !pages.hasNextPage && show === 'all' && search === '';

  // Items counted here and not on the count yet: named from the records kept on this device.
  const offCount = [...unsent.keys()].filter((itemId) => !loadedByItem.has(itemId) && (complete || !onServer));
  const offCountItems = useQueries({ queries: offCount.map((itemId) => recordQuery(businessId, getResource('items'), itemId)) });
  const lines: ShownLine[] = loaded.map((line) => shownLine(line, unsent.get(line.item_id)));
  if (show === 'all' || show === 'counted') {
    for (const [at, itemId] of offCount.entries()) {
      const mine = unsent.get(itemId)!;
      const counted = countedWith(null, mine);
      if (counted === null) continue;
      const item = offCountItems[at]?.data;
      const name = item ? String(item.name) : `Item #${itemId}`;
      if (search !== '' && !name.toLowerCase().includes(search.toLowerCase())) continue;
      lines.push({
        itemId,
        name,
        sku: item ? String(item.sku) : '',
        unit: null,
        expected: null,
        onHand: null,
        moved: null,
        counted,
        unsent: mine,
        difference: null,
        value: null,
      });
    }
  }

  // The tallies the server gave, with what this device has not sent, as far as the lines read tell.
  let linesTotal = Number(record.lines_total ?? 0);
  let linesCounted = Number(record.lines_counted ?? 0);
  for (const [itemId, mine] of unsent) {
    const line = loadedByItem.get(itemId);
    const was = line ? line.counted !== null : false;
    const now = countedWith(line?.counted ?? null, mine) !== null;
    linesCounted += Number(now) - Number(was);
    if (!line && now && (complete || !onServer)) linesTotal += 1;
  }
  const differing = Number(record.lines_differing ?? 0);
  const netValue = Number(record.difference_value ?? 0);

  const confirming = useConfirmation();
  const { setConfirmation, setBusy } = confirming;
  const [posting, setPosting] = useState(false);

  /** Finishing and taking off go out as counting (action `count`): in order after the entries queued before them. */
  const countStep = (step: 'finish' | 'uncount', label: string, success: string, body?: { item_id: number }) =>
    whileBusy(setBusy, async () => {
      await takeStep(businessId, definition, countId, { action: 'count', step, body, label }, success);
      setConfirmation(null);
    });

  const finish = (transition: Step) =>
    setConfirmation({
      action: 'finish counting',
      confirmLabel: 'Finish Counting',
      destructive: false,
      consequence: transition.does,
      run: countStep(
        'finish',
        `Finish counting ${definition.singular} ${String(record.number ?? '')}`.trim(),
        'Counting finished: its differences show, and it can be posted.',
      ),
    });

  const takeOff = (line: ShownLine) =>
    setConfirmation({
      action: `take ${line.name} off`,
      confirmLabel: 'Take Off',
      destructive: true,
      consequence:
        `What was counted of it${line.counted === null ? '' : ` (${line.counted}${line.unit ? ` ${line.unit}` : ''})`} is taken away: ` +
        'it is not counted, and posting leaves its stock as it is. It can be counted again.',
      run: countStep(
        'uncount',
        `Take ${line.name} off ${definition.singular} ${String(record.number ?? '')}`.trim(),
        `${line.name} is not counted any more.`,
        { item_id: line.itemId },
      ),
    });

  const countedShown = lines.filter((line) => line.counted !== null);
  const notice = pages.data?.pages[0]?.savedOffline ? ' · as last read on this device' : '';

  return (
    <HeadedSection
      headingId="count-heading"
      title="Count"
      className="space-y-3"
      actions={
        <>
          {/* A count that is not blind shows its differences all along: it is posted without finishing. */}
          {finishStep && hidden && onServer && (
            <Button onClick={() => finish(finishStep)} disabled={finishPending}>
              <ClipboardCheck aria-hidden /> {finishPending ? 'Finishing when sent' : finishStep.label}
            </Button>
          )}
          {postStep && onServer && (
            <Button onClick={() => setPosting(true)} disabled={postPending}>
              <CheckCheck aria-hidden /> {postPending ? 'Posting when sent' : postStep.label}
            </Button>
          )}
        </>
      }
    >
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {linesCounted} of {plural(linesTotal, 'item')} counted
        {hidden ? ' · a blind count: what is expected and what differs show once counting is finished' : ` · ${differing} differ`}
        {!hidden && differing > 0 && ` · ${formatPesos(netValue)} net`}
        {unsentEntries > 0 && ` · ${plural(unsentEntries, 'change')} on this device not sent yet`}
        {notice}
      </p>
      {open && canCount && (
        <CountEntry
          definition={definition}
          record={record}
          closed={
            postPending
              ? 'Posting this count is queued: nothing more can be counted on it.'
              : finishPending
                ? 'Finishing this count is queued: nothing more can be counted on it.'
                : null
          }
          isOnCount={(itemId) => loadedByItem.has(itemId) || unsent.has(itemId)}
        />
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <SmallLabel htmlFor="count-filter">Show</SmallLabel>
          <NativeSelect id="count-filter" value={show} onChange={(event) => setShow(event.target.value as CountLineFilter)}>
            {/* Which items differ would tell what is expected of them. */}
            {COUNT_LINE_FILTERS.filter((filter) => !hidden || filter.value !== 'differences').map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="min-w-48 flex-1">
          <SmallLabel htmlFor="count-find">Find on the count</SmallLabel>
          <Input
            id="count-find"
            className="h-11"
            value={find}
            placeholder="Name, SKU or barcode"
            onChange={(event) => setFind(event.target.value)}
          />
        </div>
      </div>
      <FramedTable>
        <TableHeader>
          <TableRow>
            <TableHead>Item</TableHead>
            {!hidden && (
              <>
                <TableHead className="hidden text-right md:table-cell">Expected</TableHead>
                <TableHead className="hidden text-right md:table-cell">Moved since</TableHead>
                <TableHead className="hidden text-right sm:table-cell">On hand</TableHead>
              </>
            )}
            <TableHead className="text-right">Counted</TableHead>
            {!hidden && (
              <>
                <TableHead className="text-right">Difference</TableHead>
                <TableHead className="hidden text-right sm:table-cell">Value</TableHead>
              </>
            )}
            {open && canCount && (
              <TableHead>
                <span className="sr-only">Take off</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.itemId} data-counted={line.counted !== null}>
              {/* A long name wraps: on a phone the table stays as wide as the screen. */}
              <TableCell className="break-words whitespace-normal">
                <span className="block">{line.name}</span>
                <span className="text-xs text-muted-foreground">{line.sku}</span>
              </TableCell>
              {!hidden && (
                <>
                  <TableCell className="hidden text-right tabular-nums md:table-cell">{line.expected ?? '—'}</TableCell>
                  <TableCell className="hidden text-right tabular-nums md:table-cell">
                    {line.moved === null || line.moved === 0 ? '—' : signed(line.moved)}
                  </TableCell>
                  <TableCell className="hidden text-right tabular-nums sm:table-cell">{line.onHand ?? '—'}</TableCell>
                </>
              )}
              <TableCell className="text-right tabular-nums">
                {line.counted === null ? (
                  <Badge variant="outline">Not counted</Badge>
                ) : (
                  <>
                    {line.counted} {line.unit}
                  </>
                )}
                {line.unsent?.cleared && <span className="block text-xs text-muted-foreground">taken off, not sent</span>}
                {line.unsent && line.unsent.added !== 0 && (
                  <span className="block text-xs text-muted-foreground">{signed(line.unsent.added)} not sent</span>
                )}
              </TableCell>
              {!hidden && (
                <>
                  <TableCell className="text-right font-medium tabular-nums">
                    {line.difference === null ? '—' : line.difference === 0 ? '0' : signed(line.difference)}
                  </TableCell>
                  <TableCell className="hidden text-right tabular-nums sm:table-cell">
                    {line.value === null ? '—' : formatPesos(line.value)}
                  </TableCell>
                </>
              )}
              {open && canCount && (
                <TableCell className="w-12 text-right">
                  {line.counted !== null && !postPending && (
                    <Button variant="ghost" size="icon" aria-label={`Take ${line.name} off the count`} onClick={() => takeOff(line)}>
                      <X aria-hidden />
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
          {lines.length === 0 && (
            <EmptyTableRow colSpan={8}>
              {!onServer
                ? 'The count’s items show once it reaches the server.'
                : pages.isError
                  ? describeError(pages.error)
                  : pages.isPending
                    ? 'Loading…'
                    : total === 0 && show === 'all' && search === ''
                      ? 'Nothing on the count yet: count an item to add it.'
                      : 'No item matches.'}
            </EmptyTableRow>
          )}
        </TableBody>
      </FramedTable>
      {pages.hasNextPage && (
        <Button variant="outline" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          Show {Math.min(COUNT_LINES_PAGE, total - loaded.length)} more of {total - loaded.length}
        </Button>
      )}
      {posting && (
        <PostDialog
          definition={definition}
          record={record}
          counted={linesCounted}
          total={linesTotal}
          unsent={unsent}
          shown={new Map(countedShown.map((line) => [line.itemId, line]))}
          onClose={() => setPosting(false)}
        />
      )}
      <ConfirmDialog {...confirming.dialog} singular={definition.singular} display={String(record.number ?? '')} />
    </HeadedSection>
  );
}

/** How many differences the confirmation lists; the rest are counted. */
const LISTED_DIFFERENCES = COUNT_LINES_PAGE;

/**
 * Posting, asked first: the items whose stock it will change, each with the change (from the
 * server, with what this device has not sent yet), and what it leaves alone.
 */
function PostDialog({
  definition,
  record,
  counted,
  total,
  unsent,
  shown,
  onClose,
}: {
  definition: ResourceDefinition;
  record: ApiRecord;
  counted: number;
  total: number;
  unsent: Map<number, Unsent>;
  shown: Map<number, ShownLine>;
  onClose: () => void;
}) {
  const businessId = useActiveBusinessId();
  const countId = record.id as number | string;
  const [busy, setBusy] = useState(false);
  const differences = useQuery({
    queryKey: [...linesKey(businessId, countId), 'post'],
    queryFn: ({ signal }) =>
      fetchLines(businessId, countId, { show: 'differences', search: '', page: 1, per_page: LISTED_DIFFERENCES }, signal),
    networkMode: 'always',
    retry: false,
    staleTime: 0,
  });
  const listed = (differences.data?.data ?? []).map((line) => shownLine(line, unsent.get(line.item_id)));
  const more = (differences.data?.meta.total ?? 0) - listed.length;
  // What this device counted and has not sent, of items the server's differences do not list yet.
  const unsentElsewhere = [...unsent.keys()].filter((itemId) => !listed.some((line) => line.itemId === itemId));

  const post = whileBusy(setBusy, async () => {
    const label = `Post ${definition.singular} ${String(record.number ?? '')}`.trim();
    await takeStep(
      businessId,
      definition,
      countId,
      { action: 'post', step: 'post', label },
      'Stock count posted: its differences are in a stock adjustment.',
    );
    onClose();
  });

  return (
    <AskDialog
      open
      busy={busy}
      onStay={onClose}
      title="You're about to post this."
      description={
        <>
          Are you sure you want to post {definition.singular} {String(record.number ?? '')}? A stock adjustment brings the{' '}
          {plural(counted, 'counted item')} to what was counted; {total - counted} not counted are left as they are. Nothing can be counted
          on it afterwards.
        </>
      }
      stay="Close"
      answers={[{ label: 'Post Stock Count', choose: () => void post() }]}
    >
      <div className="space-y-2 text-sm">
        <h3 className="font-medium">Stock it changes</h3>
        {differences.isPending ? (
          <p className="text-muted-foreground">Listing the differences…</p>
        ) : differences.isError ? (
          <p className="text-muted-foreground">The differences cannot be listed now ({describeError(differences.error)}).</p>
        ) : listed.length === 0 ? (
          <p className="text-muted-foreground">None: every counted item is what is on hand.</p>
        ) : (
          <ul aria-label="Stock it changes" className="max-h-64 space-y-1 overflow-y-auto rounded-md border p-2">
            {listed.map((line) => (
              <li key={line.itemId} className="flex justify-between gap-3">
                <span>{line.name}</span>
                <span className="shrink-0 text-right tabular-nums">
                  {line.onHand} → {line.counted ?? line.onHand}
                  {line.unit ? ` ${line.unit}` : ''} ({line.difference === null ? 'not counted' : signed(line.difference)}
                  {line.value !== null && `, ${formatPesos(line.value)}`})
                </span>
              </li>
            ))}
          </ul>
        )}
        {more > 0 && <p>And {plural(more, 'more item')} (shown under Differences).</p>}
        {Number(record.lines_differing ?? 0) > 0 && (
          <p>
            {formatPesos(Number(record.difference_value ?? 0))} net at the items’ costs
            {differences.data?.savedOffline ? ', as last read' : ''}.
          </p>
        )}
        {unsentElsewhere.length > 0 && (
          <p>
            Sent first, from this device:{' '}
            {unsentElsewhere
              .map((itemId) => {
                const line = shown.get(itemId);
                const mine = unsent.get(itemId)!;
                const name = line?.name ?? `Item #${itemId}`;
                return mine.cleared && mine.adds === 0 ? `${name} taken off` : `${signed(mine.added)} ${name}`;
              })
              .join(', ')}
            .
          </p>
        )}
      </div>
    </AskDialog>
  );
}

/** One read of the item box or the camera, as the sheet lists it. */
interface Read {
  id: number;
  /** What was read: the code, or the item picked. */
  read: string;
  state: 'looking' | 'sent' | 'kept' | 'refused';
  words: string;
}

/** The reads listed, newest first. */
const READS_SHOWN = 50;

/** A read waiting its turn: a code to look up, or an item already known (picked from the list). */
type Wanted = { code: string; quantity: string; beeped: boolean } | { item: ApiRecord; quantity: string; beeped: boolean };

/**
 * Counting: how many (1 unless typed), then the item — scanned (a scanner types its barcode and
 * Enter, as fast as it likes), searched and picked, or read by the camera. The item box is never
 * replaced, and empties the moment Enter is pressed, so the next scan types into it while the last
 * is looked up; reads are looked up and counted one after the other, in the order they came, none
 * lost. Each read beeps when it counts and gets a line of its own, newest first; a code that names
 * no item, an item outside the count's scope and a count whose posting is queued are said in words,
 * without a beep. What was added is said aloud for who is not looking at the screen.
 */
function CountEntry({
  definition,
  record,
  closed,
  isOnCount,
}: {
  definition: ResourceDefinition;
  record: ApiRecord;
  /** Why nothing can be counted now (a queued post); null when it can. */
  closed: string | null;
  isOnCount: (itemId: number) => boolean;
}) {
  const businessId = useActiveBusinessId();
  const items = getResource('items');
  const countId = record.id as number | string;
  const number = String(record.number ?? '');
  const [quantity, setQuantity] = useState('1');
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [active, setActive] = useState<number | null>(null);
  const [last, setLast] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reads, setReads] = useState<Read[]>([]);
  const quantityId = useId();
  const listId = useId();
  const itemInput = useRef<HTMLInputElement>(null);
  const itemByCode = useItemByCode();
  const waiting = useRef<{ read: number; wanted: Wanted }[]>([]);
  const working = useRef(false);
  const readCount = useRef(0);
  // What the reads worked through later see: the sheet as it is then, not as it was at the read.
  const latest = useRef({ closed, isOnCount, record, itemByCode, businessId });
  useEffect(() => {
    latest.current = { closed, isOnCount, record, itemByCode, businessId };
  });

  useEffect(() => {
    const timer = setTimeout(() => setTerm(text.trim()), 350);
    return () => clearTimeout(timer);
  }, [text]);
  const searched = items.pickerSearch?.(term) ?? { field: 'q', strict: false };
  const suggestions = useQuery({
    ...listQuery(businessId, items, {
      limit: PICKER_LIMIT,
      [searched.field]: term,
      is_strict: searched.strict ? 1 : undefined,
      order_by_field_name: 'name',
      order_by: 'asc',
    }),
    enabled: term !== '',
    placeholderData: undefined,
  });
  // Offered only for what is in the box now: a scan that typed past it is not offered its results.
  const offered = term !== '' && term === text.trim() ? (suggestions.data?.data ?? []) : [];
  const listOpen = term !== '' && term === text.trim() && suggestions.isSuccess;

  const note = (id: number, state: Read['state'], words: string) =>
    setReads((shown) => shown.map((read) => (read.id === id ? { ...read, state, words } : read)));

  /** The box lost its focus to nothing (a line that re-rendered, a closed dialog): it takes it back. */
  const refocus = () => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) itemInput.current?.focus();
  };

  /** Counts one read: the item found, in scope, then the entry queued in the outbox (not waited for). */
  const count = async (id: number, wanted: Wanted) => {
    const { closed: refusal, isOnCount: onCount, record: sheet, itemByCode: lookUp, businessId: business } = latest.current;
    const amount = Number(wanted.quantity);
    const what = 'code' in wanted ? wanted.code : String(wanted.item.name);
    const refuse = (words: string) => {
      note(id, 'refused', words);
      setProblem(words);
    };
    if (refusal) return refuse(refusal);
    if (wanted.quantity.trim() === '' || !Number.isFinite(amount) || amount === 0) {
      return refuse('Type how many were counted (a negative number takes back a miscount).');
    }
    const tooSmall = roundsToNothing(amount);
    if (tooSmall) return refuse(tooSmall);
    let item: ApiRecord | undefined;
    try {
      item = 'item' in wanted ? wanted.item : await lookUp(wanted.code);
    } catch (error) {
      return refuse(`${what} could not be looked up: ${describeError(error)}`);
    }
    if (!item) return refuse(`No item has the barcode or SKU ${what}: nothing was counted.`);
    const itemId = Number(item.id);
    const field = SCOPE_FIELDS[String(sheet.scope)];
    const covered = field ? (sheet[referenceKey(field)] as { display?: unknown } | null)?.display : null;
    const outside = onCount(itemId) ? null : outsideScope(sheet, item, covered ? String(covered) : null);
    if (outside) return refuse(outside);
    if (!wanted.beeped) signalRead();
    const name = String(item.name);
    const words = `${signed(amount)} ${name}`;
    note(id, 'looking', `${words}: sending…`);
    setProblem(null);
    setLast(words);
    submitChange({
      businessId: business,
      resource: definition.name,
      action: 'count',
      recordId: countId,
      method: 'POST',
      path: `/api/${definition.name}/${String(countId)}/entries`,
      body: { item_id: itemId, quantity: amount },
      label: `Count ${signed(amount)} on ${definition.singular} ${number} · ${name}`,
    }).then(
      (settled) => {
        const kept = settled.sent ? '' : ' (kept on this device until it can be sent)';
        note(id, settled.sent ? 'sent' : 'kept', `${words}${kept}`);
        setLast((shown) => (shown === words || shown?.startsWith(`${words} (`) ? `${words}${kept}` : shown));
      },
      (error: unknown) => refuse(`${words}: ${describeError(error)}`),
    );
  };

  /** Works through the reads waiting, one at a time and in order, however fast they come. */
  const work = async () => {
    if (working.current) return;
    working.current = true;
    try {
      for (let next = waiting.current.shift(); next; next = waiting.current.shift()) {
        await count(next.read, next.wanted);
        refocus();
      }
    } finally {
      working.current = false;
    }
  };

  /** Takes a read: listed at once, counted in its turn with the quantity typed now. */
  const take = (wanted: { code: string } | { item: ApiRecord }, beeped = false) => {
    readCount.current += 1;
    const id = readCount.current;
    const read = 'code' in wanted ? wanted.code : String(wanted.item.name);
    setReads((shown) => [{ id, read, state: 'looking' as const, words: `${read}: looking it up…` }, ...shown].slice(0, READS_SHOWN));
    waiting.current.push({ read: id, wanted: { ...wanted, quantity, beeped } });
    setQuantity('1');
    void work();
  };

  /** Enter in the item box: the item chosen in the list, else what was typed (a scan) looked up as a barcode or SKU. */
  const enter = (typed: string) => {
    const chosen = active !== null && listOpen ? offered[active] : undefined;
    if (chosen) take({ item: chosen });
    else if (typed.trim() !== '') take({ code: typed.trim() });
    setText('');
    setActive(null);
  };

  // A scan typed while nothing has the focus (it went to the page) goes to the item box, not nowhere.
  const enterNow = useRef(enter);
  useEffect(() => {
    enterNow.current = enter;
  });
  useEffect(() => {
    const redirect = (event: KeyboardEvent) => {
      const input = itemInput.current;
      if (!input || (event.target !== document.body && event.target !== document.documentElement)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Enter') {
        event.preventDefault();
        input.focus();
        enterNow.current(input.value);
      } else if (event.key.length === 1 && event.key !== ' ') {
        event.preventDefault();
        input.focus();
        setText((typed) => typed + event.key);
      }
    };
    document.addEventListener('keydown', redirect);
    return () => document.removeEventListener('keydown', redirect);
  }, []);

  return (
    <div className="grid gap-3 rounded-lg border bg-card p-3 sm:grid-cols-[11rem_1fr]">
      <div>
        <SmallLabel htmlFor={quantityId}>How many</SmallLabel>
        {/* A negative figure takes back a miscount: a phone's numeric keypad, and the ± key for its sign. */}
        <SignedQuantityInput
          id={quantityId}
          value={quantity}
          onChange={setQuantity}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              itemInput.current?.focus();
            }
          }}
        />
      </div>
      <div>
        <SmallLabel htmlFor="count-item">Scan or search an item</SmallLabel>
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Input
              ref={itemInput}
              id="count-item"
              role="combobox"
              aria-expanded={listOpen}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={listOpen && active !== null && offered[active] ? `${listId}-${offered[active].id}` : undefined}
              aria-invalid={problem !== null}
              autoComplete="off"
              enterKeyHint="enter"
              value={text}
              placeholder="Scan a barcode, or search items…"
              onChange={(event) => {
                setText(event.target.value);
                setActive(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  enter(event.currentTarget.value);
                } else if (event.key === 'ArrowDown' && offered.length > 0) {
                  event.preventDefault();
                  setActive((at) => (at === null ? 0 : Math.min(at + 1, offered.length - 1)));
                } else if (event.key === 'ArrowUp' && offered.length > 0) {
                  event.preventDefault();
                  setActive((at) => (at === null || at === 0 ? null : at - 1));
                } else if (event.key === 'Escape') {
                  setText('');
                  setActive(null);
                }
              }}
            />
            {listOpen && (
              <PickerList id={listId} label="Items found">
                <PickerOptions
                  listId={listId}
                  records={offered}
                  active={active}
                  name={(item) => String(item.name)}
                  detail={(item) => `${String(item.sku)}${item.barcode ? ` · ${String(item.barcode)}` : ''}`}
                  onHover={setActive}
                  onChoose={(item) => {
                    take({ item });
                    setText('');
                    setActive(null);
                  }}
                />
              </PickerList>
            )}
          </div>
          <CameraScanButton continuous onRead={(code) => take({ code }, true)} />
        </div>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-destructive sm:col-span-2">
          {problem}
        </p>
      )}
      <p className="text-sm text-muted-foreground sm:col-span-2" aria-live="polite">
        {last ? `Counted ${last}.` : 'Each item counted is added to what was counted before, from this device and any other.'}
      </p>
      {reads.length > 0 && (
        <ol aria-label="Reads" className="max-h-48 space-y-0.5 overflow-y-auto text-sm sm:col-span-2">
          {reads.map((read) => (
            <li
              key={read.id}
              data-state={read.state}
              className={cn('tabular-nums', read.state === 'refused' ? 'text-destructive' : 'text-muted-foreground')}
            >
              {read.words}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
