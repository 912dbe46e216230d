import { useQueries } from '@tanstack/react-query';
import { CheckCheck } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { formatPesos } from '../../../domain/money';
import { holdsAny, permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { isClientKey, submitChange, type OutboxEntry } from '../../lib/outbox';
import { useOutbox } from '../../lib/pending';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, usePermissions } from '../../lib/session';
import { ConfirmDialog, type Confirmation } from '../crud/confirm-dialog';
import { reportFailure, reportSettled } from '../crud/record-actions';
import { ReferencePicker } from '../crud/reference-picker';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import { CameraScanButton } from '../scan/camera-scanner';
import { useItemByCode } from '../scan/item-by-code';

/** A line of a count as the server reads it (`GET /api/stock-counts/{id}` → `lines`). */
export interface CountLine {
  id: number;
  item_id: number;
  item: { id: number; display: string; sku: string; barcode: string | null };
  unit: string | null;
  expected: number;
  on_hand: number;
  moved: number;
  counted: number | null;
  entries: number;
  difference: number | null;
  unit_cost: number | null;
  difference_value: number | null;
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
  pending: number;
  difference: number | null;
  value: number | null;
}

type Filter = 'all' | 'uncounted' | 'differences';
const SHOWN_AT_ONCE = 100;
/** Thousandths: quantities add up exactly. */
const sum = (a: number, b: number) => Math.round((a + b) * 1000) / 1000;
const signed = (value: number) => `${value > 0 ? '+' : ''}${value}`;

interface EntryBody {
  item_id: number;
  quantity: number;
}

/** The entries this device queued for the count, not yet answered, by item. */
function pendingByItem(entries: readonly OutboxEntry[], countId: number | string): Map<number, number> {
  const byItem = new Map<number, number>();
  for (const entry of entries) {
    if (entry.resource !== 'stock-counts' || entry.action !== 'count' || entry.recordId !== countId) continue;
    const body = entry.body as EntryBody;
    byItem.set(body.item_id, sum(byItem.get(body.item_id) ?? 0, body.quantity));
  }
  return byItem;
}

/**
 * The sheet's lines: the server's, with what this device counted and has not sent; an item first
 * counted here is named from its record kept on the device (`named`) until the server puts it on.
 */
function shownLines(lines: readonly CountLine[], pending: Map<number, number>, named: Map<number, ApiRecord | undefined>): ShownLine[] {
  const shown: ShownLine[] = lines.map((line) => {
    const mine = pending.get(line.item_id) ?? 0;
    const counted = line.counted === null && mine === 0 ? null : sum(line.counted ?? 0, mine);
    const difference = counted === null ? null : sum(counted, -line.on_hand);
    return {
      itemId: line.item_id,
      name: line.item.display,
      sku: line.item.sku,
      unit: line.unit,
      expected: line.expected,
      onHand: line.on_hand,
      moved: line.moved,
      counted,
      pending: mine,
      difference,
      value: difference === null || line.unit_cost === null ? null : Math.round(difference * line.unit_cost * 100) / 100,
    };
  });
  const onCount = new Set(lines.map((line) => line.item_id));
  for (const [itemId, mine] of pending) {
    if (onCount.has(itemId)) continue;
    const item = named.get(itemId);
    shown.push({
      itemId,
      name: item ? String(item.name) : `Item #${itemId}`,
      sku: item ? String(item.sku) : '',
      unit: null,
      expected: null,
      onHand: null,
      moved: null,
      counted: mine,
      pending: mine,
      difference: null,
      value: null,
    });
  }
  return shown;
}

/**
 * A stock count's sheet: counting (scan or search an item, with how many; each entry goes through
 * the outbox, so it is kept offline and sent once), and every line — expected when the count
 * started, what moved since, on hand, counted (with what this device has not sent yet), the
 * difference in units and in pesos — filtered to what is left to count or what differs; then
 * posting, which writes the stock adjustment of the differences.
 */
export function StockCountSheet({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const { entries } = useOutbox();
  const countId = record.id as number | string;
  const open = record.status === 'open' && !record.deleted_at;
  const held = usePermissions();
  const canCount = holdsAny(held, [permissionName('update', definition.permission)]);
  // Posting writes a stock adjustment: for who may write one too.
  const canPost = canCount && holdsAny(held, [permissionName('create', getResource('stock-adjustments').permission)]);
  const pending = pendingByItem(entries, countId);
  const serverLines = (record.lines as CountLine[] | undefined) ?? [];
  const onCount = new Set(serverLines.map((line) => line.item_id));
  const offCount = [...pending.keys()].filter((itemId) => !onCount.has(itemId));
  const offCountItems = useQueries({ queries: offCount.map((itemId) => recordQuery(businessId, getResource('items'), itemId)) });
  const lines = shownLines(serverLines, pending, new Map(offCount.map((itemId, at) => [itemId, offCountItems[at]?.data])));
  const [filter, setFilter] = useState<Filter>('all');
  const [find, setFind] = useState('');
  const [limit, setLimit] = useState(SHOWN_AT_ONCE);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const postPending = entries.some((entry) => entry.resource === definition.name && entry.action === 'post' && entry.recordId === countId);

  const counted = lines.filter((line) => line.counted !== null);
  const differing = counted.filter((line) => line.difference !== null && line.difference !== 0);
  const netValue = differing.reduce((total, line) => total + (line.value ?? 0), 0);
  const term = find.trim().toLowerCase();
  const filtered = lines.filter(
    (line) =>
      (filter === 'all' || (filter === 'uncounted' ? line.counted === null : line.difference !== null && line.difference !== 0)) &&
      (term === '' || line.name.toLowerCase().includes(term) || line.sku.toLowerCase().includes(term)),
  );

  const post = () =>
    setConfirmation({
      action: 'post',
      confirmLabel: 'Post Stock Count',
      destructive: false,
      consequence:
        `A stock adjustment brings the ${counted.length} counted item${counted.length === 1 ? '' : 's'} to what was counted ` +
        `(${differing.length} differ${differing.length === 1 ? 's' : ''}, ${formatPesos(netValue)} in all). ` +
        `${lines.length - counted.length} not counted are left as they are. Nothing can be counted on it afterwards.`,
      run: async () => {
        setBusy(true);
        try {
          const settled = await submitChange({
            businessId,
            resource: definition.name,
            action: 'post',
            recordId: countId,
            method: 'PATCH',
            path: `/api/${definition.name}/${String(countId)}/post`,
            label: `Post ${definition.singular} ${String(record.number ?? '')}`.trim(),
          });
          reportSettled(settled, 'Stock count posted: its differences are in a stock adjustment.');
          setConfirmation(null);
        } catch (error) {
          reportFailure(error);
        } finally {
          setBusy(false);
        }
      },
    });

  return (
    <section aria-labelledby="count-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="count-heading" className="text-lg font-semibold">
          Count
        </h2>
        {open && canPost && !isClientKey(countId) && (
          <Button onClick={post} disabled={postPending}>
            <CheckCheck aria-hidden /> {postPending ? 'Posting when sent' : 'Post count'}
          </Button>
        )}
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {counted.length} of {lines.length} item{lines.length === 1 ? '' : 's'} counted · {differing.length} differ
        {differing.length > 0 && ` · ${formatPesos(netValue)} net`}
      </p>
      {open && canCount && <CountEntry definition={definition} countId={countId} number={String(record.number ?? '')} />}
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <Label htmlFor="count-filter" className="mb-1 block text-xs text-muted-foreground">
            Show
          </Label>
          <NativeSelect id="count-filter" value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
            <option value="all">Every item</option>
            <option value="uncounted">Not counted yet</option>
            <option value="differences">Differences</option>
          </NativeSelect>
        </div>
        <div className="min-w-48 flex-1">
          <Label htmlFor="count-find" className="mb-1 block text-xs text-muted-foreground">
            Find on the count
          </Label>
          <Input
            id="count-find"
            className="h-11"
            value={find}
            placeholder="Name or SKU"
            onChange={(event) => setFind(event.target.value)}
          />
        </div>
      </div>
      <div className="overflow-x-auto rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Item</TableHead>
              <TableHead className="hidden text-right md:table-cell">Expected</TableHead>
              <TableHead className="hidden text-right md:table-cell">Moved since</TableHead>
              <TableHead className="hidden text-right sm:table-cell">On hand</TableHead>
              <TableHead className="text-right">Counted</TableHead>
              <TableHead className="text-right">Difference</TableHead>
              <TableHead className="hidden text-right sm:table-cell">Value</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {filtered.slice(0, limit).map((line) => (
              <TableRow key={line.itemId} data-counted={line.counted !== null}>
                <TableCell>
                  <span className="block">{line.name}</span>
                  <span className="text-xs text-muted-foreground">{line.sku}</span>
                </TableCell>
                <TableCell className="hidden text-right tabular-nums md:table-cell">{line.expected ?? '—'}</TableCell>
                <TableCell className="hidden text-right tabular-nums md:table-cell">
                  {line.moved === null || line.moved === 0 ? '—' : signed(line.moved)}
                </TableCell>
                <TableCell className="hidden text-right tabular-nums sm:table-cell">{line.onHand ?? '—'}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {line.counted === null ? (
                    <Badge variant="outline">Not counted</Badge>
                  ) : (
                    <>
                      {line.counted} {line.unit}
                      {line.pending !== 0 && <span className="block text-xs text-muted-foreground">{signed(line.pending)} not sent</span>}
                    </>
                  )}
                </TableCell>
                <TableCell className="text-right font-medium tabular-nums">
                  {line.difference === null ? '—' : line.difference === 0 ? '0' : signed(line.difference)}
                </TableCell>
                <TableCell className="hidden text-right tabular-nums sm:table-cell">
                  {line.value === null ? '—' : formatPesos(line.value)}
                </TableCell>
              </TableRow>
            ))}
            {filtered.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} className="text-center text-muted-foreground">
                  {lines.length === 0 ? 'Nothing on the count yet: count an item to add it.' : 'No item matches.'}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </div>
      {filtered.length > limit && (
        <Button variant="outline" onClick={() => setLimit((shown) => shown + SHOWN_AT_ONCE)}>
          Show {Math.min(SHOWN_AT_ONCE, filtered.length - limit)} more of {filtered.length - limit}
        </Button>
      )}
      <ConfirmDialog
        confirmation={confirmation}
        singular={definition.singular}
        display={String(record.number ?? '')}
        busy={busy}
        onClose={() => setConfirmation(null)}
      />
    </section>
  );
}

/**
 * Counting one item: how many (1 unless typed), then the item — scanned (a scanner types its
 * barcode and Enter), searched or picked. Picking it adds the entry at once and clears the box for
 * the next; what was added is said aloud for who is not looking at the screen.
 */
function CountEntry({ definition, countId, number }: { definition: ResourceDefinition; countId: number | string; number: string }) {
  const businessId = useActiveBusinessId();
  const items = getResource('items');
  const [quantity, setQuantity] = useState('1');
  const [last, setLast] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const quantityId = useId();
  const itemBox = useRef<HTMLDivElement>(null);
  const itemByCode = useItemByCode();
  // A new picker after each entry: its box empty for the next scan.
  const [round, setRound] = useState(0);

  const add = async (itemId: number, record?: ApiRecord) => {
    const amount = Number(quantity);
    if (quantity.trim() === '' || !Number.isFinite(amount) || amount === 0) {
      setProblem('Type how many were counted (a negative number takes back a miscount).');
      return;
    }
    setProblem(null);
    const name = record ? String(record.name) : `Item #${itemId}`;
    try {
      const settled = await submitChange({
        businessId,
        resource: definition.name,
        action: 'count',
        recordId: countId,
        method: 'POST',
        path: `/api/${definition.name}/${String(countId)}/entries`,
        body: { item_id: itemId, quantity: amount },
        label: `Count ${signed(amount)} on ${definition.singular} ${number} · ${name}`,
      });
      setLast(`${signed(amount)} ${name}${settled.sent ? '' : ' (kept on this device until it can be sent)'}`);
    } catch (error) {
      reportFailure(error);
    } finally {
      setQuantity('1');
      setRound((value) => value + 1);
      // Once the new picker is in place.
      requestAnimationFrame(() => itemBox.current?.querySelector('input')?.focus());
    }
  };

  return (
    <div className="grid gap-3 rounded-lg border bg-card p-3 sm:grid-cols-[8rem_1fr]">
      <div>
        <Label htmlFor={quantityId} className="mb-1 block text-xs text-muted-foreground">
          How many
        </Label>
        <Input
          id={quantityId}
          inputMode="text"
          className="h-11 text-right tabular-nums"
          value={quantity}
          aria-invalid={problem !== null}
          onChange={(event) => setQuantity(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              itemBox.current?.querySelector('input')?.focus();
            }
          }}
        />
      </div>
      <div>
        <Label htmlFor="count-item" className="mb-1 block text-xs text-muted-foreground">
          Scan or search an item
        </Label>
        <div className="flex gap-2">
          <div ref={itemBox} className="flex-1">
            <ReferencePicker
              key={round}
              id="count-item"
              target={items}
              value={null}
              onChange={(itemId, record) => {
                if (itemId !== null) void add(itemId, record);
              }}
            />
          </div>
          <CameraScanButton
            continuous
            onRead={(code) =>
              void itemByCode(code).then((item) =>
                item ? add(Number(item.id), item) : setProblem(`No item has the barcode or SKU ${code}.`),
              )
            }
          />
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
    </div>
  );
}
