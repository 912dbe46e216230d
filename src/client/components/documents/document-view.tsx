import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Ban, CheckCheck, FileText, PackageX, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import type { VatCategory } from '../../../domain/documents';
import { formatPesos } from '../../../domain/money';
import {
  followOnsFrom,
  pastTense,
  statusLabel,
  transitionLabel,
  transitionsOpen,
  type Step,
  type Transition,
  type Undoing,
} from '../../../domain/lifecycle';
import { permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource, registry } from '../../../domain/resources/registry';
import { ADJUSTMENT_REASONS } from '../../../domain/resources/stock-adjustments';
import { mayMake, mayTake } from '../../../domain/where-made';
import { useActor } from '../../lib/actor';
import { displayValue } from '../../lib/format';
import { isClientKey, type OutboxAction } from '../../lib/outbox';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { ConfirmDialog, useConfirmation } from '../crud/confirm-dialog';
import { takeStep, whileBusy } from '../crud/record-actions';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import { deferred } from '../ui/deferred';
import { ICONS } from '../layout/icons';
import { HeadedSection } from '../headed-section';
import type { Closing } from './close-rest-dialog';
import { DocumentTotals } from './document-totals';
import type { DocumentLine } from './line-rows';
import { usePendingDocument } from './pending-lines';
import { lineAmount, totalLabelOf, vatLegend, vatTag } from './printed-figures';
import { StatusBadge } from './status-badge';

/**
 * The lines of a document on screen (its printed copy is `DocumentPrintout`): item and quantity;
 * what later documents did with each (a request's lines transferred, an order's received); and for
 * priced lines the price, discount, amount and VAT category, with the document's totals beneath.
 * On a phone the table keeps four columns — item, quantity, amount and VAT — and the rest goes
 * under the item and the quantity, so nothing is cut off at the side: a long item name wraps.
 */
export function DocumentLines({ definition, record: given }: { definition: ResourceDefinition; record: ApiRecord }) {
  // A document still on this device is priced here, as the server will price it.
  const record = usePendingDocument(definition, given);
  const spec = definition.document;
  if (!spec || spec.lines === 'none') return null;
  const lines = (record.lines as ShownLine[] | undefined) ?? [];
  // A return's lines are priced as their share of the sale, and say why they came back and what became of them.
  const returns = spec.lines === 'returns';
  const priced = spec.lines === 'priced' || returns;
  const adjusts = spec.lines === 'adjustments';
  const reasoned = adjusts || returns;
  const done = spec.lifecycle.linesDone;
  const money = (value: unknown) => (Number.isNaN(Number(value)) ? 'Priced when sent' : formatPesos(Number(value ?? 0)));
  // The server says how each line is taxed (an older one does not): then each is tagged, and the tags explained.
  const legend = priced ? vatLegend(lines) : null;
  // A sale's lines carry their cost and margin only for a user who sees costs: then they are shown.
  const margins = spec.lines === 'priced' && lines.some((line) => line.margin !== undefined);
  // Goods moved without a price (a transfer, an adjustment) show what they were worth, to the same users.
  const worth = !priced && lines.some((line) => line.cost !== undefined);
  const unitCost = (line: ShownLine) =>
    line.cost === null || line.cost === undefined || !line.quantity ? null : Math.abs(line.cost / line.quantity);
  const orNone = (value: number | null | undefined) => (value === null || value === undefined ? '—' : formatPesos(value));
  return (
    <HeadedSection headingId="lines-heading" title="Lines" className="space-y-2">
      <div className="rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Item</TableHead>
              <TableHead className="text-right">
                {adjusts ? (
                  'Change'
                ) : (
                  <>
                    <abbr title="Quantity" className="no-underline sm:hidden">
                      Qty
                    </abbr>
                    <span className="hidden sm:inline">Quantity</span>
                  </>
                )}
              </TableHead>
              {done && <TableHead className="hidden text-right sm:table-cell">{done}</TableHead>}
              {reasoned && <TableHead>Reason</TableHead>}
              {worth && (
                <>
                  <TableHead className="hidden text-right md:table-cell">Unit cost</TableHead>
                  <TableHead className="text-right">Cost</TableHead>
                </>
              )}
              {priced && (
                <>
                  <TableHead className="hidden text-right sm:table-cell">Unit price</TableHead>
                  <TableHead className="hidden text-right sm:table-cell">Discount</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  {legend && <TableHead className="text-center">VAT</TableHead>}
                  {margins && (
                    <>
                      <TableHead className="hidden text-right md:table-cell">Cost</TableHead>
                      <TableHead className="hidden text-right md:table-cell">Margin</TableHead>
                    </>
                  )}
                </>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {lines.map((line) => {
              const tag = vatTag(line);
              return (
                <TableRow key={line.id}>
                  <TableCell className="break-words whitespace-normal">
                    <span className="block">{line.item?.display ?? '—'}</span>
                    <span className="text-xs text-muted-foreground">{line.item?.sku}</span>
                    {priced && line.sc_pwd && (
                      <Badge variant="secondary" className="ml-2">
                        SC/PWD
                      </Badge>
                    )}
                    {/* On a phone, the price and discount their columns show on a wider screen. */}
                    {priced && (
                      <span className="block text-xs text-muted-foreground tabular-nums sm:hidden" data-testid="line-price">
                        {money(line.unit_price)} each{line.discount_percent ? ` · ${line.discount_percent}% off` : ''}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {adjusts && line.quantity > 0 ? '+' : ''}
                    {line.quantity} {line.unit}
                    {/* On a phone, what later documents did with it, under the quantity. */}
                    {done && (
                      <span className="block text-xs text-muted-foreground sm:hidden">
                        {line.quantity_done} {done.toLowerCase()}
                      </span>
                    )}
                  </TableCell>
                  {done && <TableCell className="hidden text-right tabular-nums sm:table-cell">{line.quantity_done}</TableCell>}
                  {reasoned && (
                    <TableCell className="whitespace-normal">
                      <span className="block">{reasonLabel(line.reason, spec.returns?.reasons ?? ADJUSTMENT_REASONS)}</span>
                      {returns && <span className="block text-xs">{reasonLabel(line.disposition, spec.returns!.dispositions)}</span>}
                      {line.note && <span className="text-xs text-muted-foreground">{line.note}</span>}
                    </TableCell>
                  )}
                  {worth && (
                    <>
                      <TableCell className="hidden text-right tabular-nums md:table-cell">{orNone(unitCost(line))}</TableCell>
                      <TableCell className="text-right tabular-nums">{orNone(line.cost)}</TableCell>
                    </>
                  )}
                  {priced && (
                    <>
                      <TableCell className="hidden text-right tabular-nums sm:table-cell">{money(line.unit_price)}</TableCell>
                      <TableCell className="hidden text-right tabular-nums sm:table-cell">
                        {line.discount_percent ? `${line.discount_percent}%` : '—'}
                      </TableCell>
                      <TableCell className="text-right whitespace-normal tabular-nums">
                        {money(lineAmount(line, record.prices_include_vat))}
                      </TableCell>
                      {legend && (
                        <TableCell className="text-center">
                          {tag && (
                            <abbr title={tag.label} className="no-underline">
                              {tag.tag}
                            </abbr>
                          )}
                        </TableCell>
                      )}
                      {margins && (
                        <>
                          <TableCell className="hidden text-right tabular-nums md:table-cell">{orNone(line.cost)}</TableCell>
                          <TableCell className="hidden text-right tabular-nums md:table-cell">{orNone(line.margin)}</TableCell>
                        </>
                      )}
                    </>
                  )}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
      {legend && <p className="text-xs text-muted-foreground">{legend}</p>}
      {priced && (
        <div className="ml-auto max-w-xs">
          <DocumentTotals record={record} totalLabel={totalLabelOf(definition)} />
          {margins && <SaleMargin record={record} />}
          {record.unpriced && <p className="mt-1 text-right text-xs text-muted-foreground">Lines priced when sent are not counted yet.</p>}
        </div>
      )}
    </HeadedSection>
  );
}

/**
 * What a sale's goods cost and what it made on them, under its totals: for a user who sees costs
 * (the server sends the figures to no one else). Never printed: the customer's copy keeps to prices.
 */
function SaleMargin({ record }: { record: ApiRecord }) {
  const cost = record.cost_of_goods as number | null | undefined;
  const margin = record.margin as number | null | undefined;
  const percent = record.margin_percent as number | null | undefined;
  return (
    <dl className="mt-2 grid grid-cols-2 gap-x-4 border-t pt-2 text-sm text-muted-foreground" aria-label="Cost and margin">
      <dt>Cost of goods</dt>
      <dd className="text-right tabular-nums">{cost === null || cost === undefined ? 'Not costed yet' : formatPesos(cost)}</dd>
      <dt>Margin</dt>
      <dd className="text-right tabular-nums">
        {margin === null || margin === undefined
          ? '—'
          : `${formatPesos(margin)}${percent === null || percent === undefined ? '' : ` (${percent}%)`}`}
      </dd>
    </dl>
  );
}

/** A line as the screen and the printed copy read it: the VAT fields are missing from an older server's answer. */
export type ShownLine = Omit<DocumentLine, 'vat_category' | 'sc_pwd'> & { vat_category?: VatCategory | null; sc_pwd?: boolean | null };

/** A line's reason (or a return line's disposition) as the form offers it: "Count correction", "Back in stock". */
const reasonLabel = (reason: string | null | undefined, options: readonly { value: string; label: string }[]) =>
  options.find((option) => option.value === reason)?.label ?? reason ?? '—';

/** Closing a transfer's rest as lost, asked in its dialog (loaded when first asked). */
const CloseRestDialog = deferred<{ closing: Closing | null; onClose: () => void }>(
  () => import('./close-rest-dialog').then(({ CloseRestDialog: Dialog }) => Dialog),
  ({ closing }) => closing !== null,
);

/** A transition that asks why: a transfer's rest closed as lost. */
type Asking = Closing['transition'];

const asksWhy = (transition: Undoing): transition is Asking => transition.reasons !== undefined;

/** The icon of the action that makes a document of this kind from another: the one its kind declares, else a plain document's. */
function followOnIcon(resource: string): LucideIcon {
  const key = getResource(resource).document?.followOnIcon;
  return key ? ICONS[key] : FileText;
}

/**
 * What comes next for a document — receive, bill, invoice, pay, a step forward its lifecycle
 * declares — and what undoes or closes it (void, cancel, the rest of a transfer closed as lost), as
 * its lifecycle allows. A step forward is a primary action whose confirmation says what it does; an
 * undoing asks with a destructive confirmation saying what it reverses (or why, for a close). A
 * step the kind's own sheet offers (a count's finish and post) is left to it. Each is offered to
 * whom the server would let take it (domain/where-made.ts), with the permission it needs and
 * where they operate — a receive at the transfer's destination, a return where the goods go back
 * from, a transfer where the request asks its goods from.
 */
export function DocumentActions({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const actor = useActor();
  const confirming = useConfirmation();
  const { setConfirmation, setBusy } = confirming;
  const [closing, setClosing] = useState<Closing | null>(null);
  const lifecycle = definition.document!.lifecycle;
  const status = String(record.status ?? '');
  const live = !isClientKey(record.id) && !record.deleted_at;
  const id = String(record.id);
  const next = followOnsFrom(lifecycle, status).filter((followOn) => mayMake(actor, getResource(followOn.resource), record));
  const open = transitionsOpen(lifecycle, record).filter(
    (transition) => !transition.onSheet && mayTake(actor, definition, transition, record),
  );
  const steps = open.filter((transition): transition is Step => transition.direction === 'forward');
  const undoings = open.filter((transition): transition is Undoing => transition.direction === 'undo');
  const named = `${definition.singular} ${String(record.number)}`;

  /** Queues the transition and waits for it, as every change goes (lib/outbox.ts). */
  const send = (transition: Transition, label: string, body?: { reason: string; note: string | null }) =>
    takeStep(
      businessId,
      definition,
      record.id,
      // Every transition offered here is one the outbox names (document-view.test.tsx checks).
      { action: transition.name as OutboxAction, step: transition.name, body, label },
      `${definition.singular} ${pastTense(transition.name)} successfully.`,
    );

  // An undoing is confirmed as destructive, saying what it reverses; a step forward, saying what it does.
  const confirm = (transition: Transition) => {
    const verb = statusLabel(transition.name);
    setConfirmation({
      action: transition.name,
      confirmLabel: `${verb} ${definition.singular}`,
      destructive: transition.direction === 'undo',
      consequence: transition.direction === 'undo' ? transition.reverses : transition.does,
      run: whileBusy(setBusy, async () => {
        await send(transition, `${verb} ${named}`);
        setConfirmation(null);
      }),
    });
  };

  const ask = (transition: Asking) =>
    setClosing({
      transition,
      document: named,
      send: (body) => send(transition, `${transition.label ?? statusLabel(transition.name)}: ${named}`, body),
    });

  return (
    <>
      {live &&
        next.map(({ resource, label, route }) => {
          const Icon = followOnIcon(resource);
          return (
            <Button key={label} asChild>
              {/* The generic create-from route, or the kind's own (a transfer from a request). */}
              <Link
                to={(route ?? '/$resource/create/$from') as '/$resource/create/$from'}
                params={{ resource, from: id }}
                search={{ redirect_to: undefined }}
              >
                <Icon aria-hidden /> {label}
              </Link>
            </Button>
          );
        })}
      {live &&
        steps.map((transition) => (
          <Button key={transition.name} onClick={() => confirm(transition)}>
            <CheckCheck aria-hidden /> {transitionLabel(transition, definition.singular)}
          </Button>
        ))}
      {live &&
        undoings.map((transition) =>
          asksWhy(transition) ? (
            <Button key={transition.name} variant="outline" onClick={() => ask(transition)}>
              <PackageX aria-hidden /> {transition.label ?? statusLabel(transition.name)}
            </Button>
          ) : (
            <Button key={transition.name} variant="outline" onClick={() => confirm(transition)}>
              <Ban aria-hidden /> {transitionLabel(transition, definition.singular)}
            </Button>
          ),
        )}
      <ConfirmDialog {...confirming.dialog} singular={definition.singular} display={String(record.number ?? '')} />
      <CloseRestDialog closing={closing} onClose={() => setClosing(null)} />
    </>
  );
}

/** The documents that name a kind in one of their reference fields: a purchase order's receipts and bills. */
const relatedOf = (definition: ResourceDefinition) =>
  registry.flatMap((other) =>
    other.document
      ? Object.entries(other.fields)
          .filter(([, field]) => field.references === definition.name)
          .map(([field]) => ({ resource: other.name, field }))
      : [],
  );

/** The documents made from this one: a purchase order's receipts and bills, a bill's payments. */
export function RelatedDocuments({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const related = relatedOf(definition);
  if (related.length === 0 || isClientKey(record.id)) return null;
  return (
    <HeadedSection headingId="related-heading" title="Related documents" className="space-y-2 print:hidden">
      <div className="grid gap-3 md:grid-cols-2">
        {related.map((link) => (
          <RelatedList key={link.resource} resource={link.resource} field={link.field} id={Number(record.id)} />
        ))}
      </div>
    </HeadedSection>
  );
}

function RelatedList({ resource, field, id }: { resource: string; field: string; id: number }) {
  const businessId = useActiveBusinessId();
  const target = getResource(resource);
  const canView = useCan(permissionName('view', target.permission));
  const list = useQuery({
    ...listQuery(businessId, target, { [field]: id, is_strict: 1, per_page: 25, with_trashed: 1 }),
    enabled: canView,
  });
  if (!canView) return null;
  const rows = list.data?.data ?? [];
  return (
    <div className="rounded-lg border bg-card p-3">
      <h3 className="mb-2 font-medium">{target.plural}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{list.isPending ? 'Loading…' : `No ${target.plural.toLowerCase()} yet.`}</p>
      ) : (
        <ul className="divide-y">
          {rows.map((row) => (
            <li key={String(row.id)} className="flex min-h-11 flex-wrap items-center gap-2 py-1">
              <Link
                to="/$resource/$id"
                params={{ resource, id: String(row.id) }}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {String(row.number)}
              </Link>
              <span className="text-sm text-muted-foreground">{displayValue('date', target.fields.date, row)}</span>
              <StatusBadge definition={target} record={row} />
              {(row.total ?? row.amount) !== undefined && (
                <span className="ml-auto tabular-nums">{formatPesos(Number(row.total ?? row.amount))}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
