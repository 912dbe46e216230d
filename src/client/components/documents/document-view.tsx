import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Ban, CreditCard, FileMinus, FileText, PackageCheck, Truck, Undo2, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { amountInWords } from '../../../domain/amount-in-words';
import { formatPesos, pesosToCentavos } from '../../../domain/money';
import { followOnsFrom, pastTense, statusLabel, transitionsFrom, type Transition } from '../../../domain/lifecycle';
import { holdsAny, permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource, registry } from '../../../domain/resources/registry';
import { ADJUSTMENT_REASONS } from '../../../domain/resources/stock-adjustments';
import { displayValue } from '../../lib/format';
import { isClientKey, submitChange } from '../../lib/outbox';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan, usePermissions } from '../../lib/session';
import { ConfirmDialog, type Confirmation } from '../crud/confirm-dialog';
import { reportFailure, reportSettled } from '../crud/record-actions';
import { Button } from '../ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import type { DocumentLine } from './line-rows';
import { usePendingDocument } from './pending-lines';
import { StatusBadge } from './status-badge';

/**
 * The lines of a document, as the printed copy shows them too: item and quantity; what later
 * documents did with each (a request's lines transferred, an order's received); and for priced
 * lines the price, discount and amount, with the document's totals beneath.
 */
export function DocumentLines({ definition, record: given }: { definition: ResourceDefinition; record: ApiRecord }) {
  // A document still on this device is priced here, as the server will price it.
  const record = usePendingDocument(definition, given);
  const spec = definition.document;
  if (!spec || spec.lines === 'none') return null;
  const lines = (record.lines as DocumentLine[] | undefined) ?? [];
  const priced = spec.lines === 'priced';
  const adjusts = spec.lines === 'adjustments';
  const done = spec.lifecycle.linesDone;
  const money = (value: unknown) => (Number.isNaN(Number(value)) ? 'Priced when sent' : formatPesos(Number(value ?? 0)));
  const totals = priced && (
    <dl className="ml-auto grid max-w-xs grid-cols-2 gap-x-4 gap-y-1 text-sm tabular-nums">
      {[
        ['Subtotal', record.subtotal],
        ['Discount', record.discount_total],
        ['VAT (12%)', record.vat_total],
      ].map(([label, value]) => (
        <div key={String(label)} className="contents">
          <dt className="text-muted-foreground">{String(label)}</dt>
          <dd className="text-right">{money(value)}</dd>
        </div>
      ))}
      <dt className="font-semibold">Total</dt>
      <dd className="text-right font-semibold" data-testid="document-total">
        {money(record.total)}
      </dd>
      {record.unpriced && (
        <dd className="col-span-2 text-right text-xs text-muted-foreground">Lines priced when sent are not counted yet.</dd>
      )}
      {/* On paper the total is written out too, as an invoice or a check has it. */}
      {typeof record.total === 'number' && Number.isFinite(record.total) && (
        <dd className="col-span-2 hidden text-right print:block">{amountInWords(pesosToCentavos(Number(record.total)))}</dd>
      )}
    </dl>
  );
  return (
    <section aria-labelledby="lines-heading" className="space-y-2">
      <h2 id="lines-heading" className="text-lg font-semibold">
        Lines
      </h2>
      {/* The table scrolls sideways on a narrow screen. */}
      <div className="overflow-x-auto rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Item</TableHead>
              <TableHead className="text-right">{adjusts ? 'Change' : 'Quantity'}</TableHead>
              {done && <TableHead className="text-right">{done}</TableHead>}
              {adjusts && <TableHead>Reason</TableHead>}
              {priced && (
                <>
                  <TableHead className="text-right">Unit price</TableHead>
                  <TableHead className="text-right">Discount</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                </>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {lines.map((line) => (
              <TableRow key={line.id}>
                <TableCell>
                  <span className="block">{line.item?.display ?? '—'}</span>
                  <span className="text-xs text-muted-foreground">{line.item?.sku}</span>
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {adjusts && line.quantity > 0 ? '+' : ''}
                  {line.quantity} {line.unit}
                </TableCell>
                {done && <TableCell className="text-right tabular-nums">{line.quantity_done}</TableCell>}
                {adjusts && (
                  <TableCell>
                    <span className="block">{reasonLabel(line.reason)}</span>
                    {line.note && <span className="text-xs text-muted-foreground">{line.note}</span>}
                  </TableCell>
                )}
                {priced && (
                  <>
                    <TableCell className="text-right tabular-nums">{money(line.unit_price)}</TableCell>
                    <TableCell className="text-right tabular-nums">{line.discount_percent ? `${line.discount_percent}%` : '—'}</TableCell>
                    <TableCell className="text-right tabular-nums">{money(line.amount)}</TableCell>
                  </>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {totals}
    </section>
  );
}

/** A stock adjustment line's reason as the form offers it: "Count correction". */
const reasonLabel = (reason: string | null | undefined) =>
  ADJUSTMENT_REASONS.find((option) => option.value === reason)?.label ?? reason ?? '—';

/** The icon of the action that makes a document of this kind from another. */
const FOLLOW_ON_ICONS: Record<string, LucideIcon> = {
  'receive-orders': PackageCheck,
  'stock-receives': PackageCheck,
  'stock-transfers': Truck,
  'stock-returns': Undo2,
  'bill-payments': CreditCard,
  'invoice-payments': CreditCard,
  'credit-memoranda': FileMinus,
  'debit-memoranda': FileMinus,
};

/** What comes next for a document — receive, bill, invoice, pay — and void or cancel, which undo it, as its lifecycle allows. */
export function DocumentActions({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const held = usePermissions();
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const lifecycle = definition.document!.lifecycle;
  const status = String(record.status ?? '');
  const live = !isClientKey(record.id) && !record.deleted_at;
  const id = String(record.id);
  const next = followOnsFrom(lifecycle, status).filter((followOn) =>
    holdsAny(held, [permissionName('create', getResource(followOn.resource).permission)]),
  );
  const undoing = transitionsFrom(lifecycle, status).filter((transition) =>
    holdsAny(held, [permissionName(transition.permission, definition.permission)]),
  );

  const take = (transition: Transition) => {
    const verb = statusLabel(transition.name);
    setConfirmation({
      action: transition.name,
      confirmLabel: `${verb} ${definition.singular}`,
      destructive: true,
      consequence: transition.reverses,
      run: async () => {
        setBusy(true);
        try {
          const settled = await submitChange({
            businessId,
            resource: definition.name,
            action: transition.name,
            recordId: record.id,
            method: 'PATCH',
            path: `/api/${definition.name}/${id}/${transition.name}`,
            label: `${verb} ${definition.singular} ${String(record.number)}`,
          });
          reportSettled(settled, `${definition.singular} ${pastTense(transition.name)} successfully.`);
          setConfirmation(null);
        } catch (error) {
          reportFailure(error);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return (
    <>
      {live &&
        next.map(({ resource, label, route }) => {
          const Icon = FOLLOW_ON_ICONS[resource] ?? FileText;
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
        undoing.map((transition) => (
          <Button key={transition.name} variant="outline" onClick={() => take(transition)}>
            <Ban aria-hidden /> {statusLabel(transition.name)} {definition.singular}
          </Button>
        ))}
      <ConfirmDialog
        confirmation={confirmation}
        singular={definition.singular}
        display={String(record.number ?? '')}
        busy={busy}
        onClose={() => setConfirmation(null)}
      />
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
    <section aria-labelledby="related-heading" className="space-y-2 print:hidden">
      <h2 id="related-heading" className="text-lg font-semibold">
        Related documents
      </h2>
      <div className="grid gap-3 md:grid-cols-2">
        {related.map((link) => (
          <RelatedList key={link.resource} resource={link.resource} field={link.field} id={Number(record.id)} />
        ))}
      </div>
    </section>
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
