import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Ban, CreditCard, FileMinus, FileText, PackageCheck, Truck, Undo2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { formatPesos } from '../../../domain/money';
import { holdsAny, permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { displayValue } from '../../lib/format';
import { isClientKey, submitChange } from '../../lib/outbox';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan, usePermissions } from '../../lib/session';
import { ConfirmDialog, type Confirmation } from '../crud/confirm-dialog';
import { reportFailure, reportSettled } from '../crud/record-actions';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import type { DocumentLine } from './line-items';

const STATUS_TONE: Record<string, 'default' | 'secondary' | 'destructive' | 'outline' | 'warning'> = {
  open: 'outline',
  unpaid: 'warning',
  partially_received: 'warning',
  partially_paid: 'warning',
  received: 'default',
  paid: 'default',
  posted: 'default',
  cancelled: 'destructive',
  void: 'destructive',
};

/**
 * Whether the trash is open to a document: one that moved stock or money must be voided (an
 * order cancelled, or never received against) first, as the server insists.
 */
export function deletable(definition: ResourceDefinition, record: ApiRecord): boolean {
  if (!definition.document || isClientKey(record.id)) return true;
  if (definition.name === 'purchase-orders') return record.status === 'open' || record.status === 'cancelled';
  if (['quotations', 'stock-requests', 'stock-returns'].includes(definition.name)) return true;
  return record.status === 'void';
}

/** A document's status as a badge: "Partially received", "Void" … */
export function StatusBadge({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const status = String(record.status ?? '');
  if (!status) return <Badge variant="outline">Number assigned on sync</Badge>;
  return <Badge variant={STATUS_TONE[status] ?? 'secondary'}>{displayValue('status', definition.fields.status, record)}</Badge>;
}

/** The lines of a document and its totals, as the printed copy shows them too. */
export function DocumentLines({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const lines = (record.lines as DocumentLine[] | undefined) ?? [];
  if (definition.document?.lines === 'quantities') return <QuantityLines definition={definition} lines={lines} />;
  if (definition.document?.lines !== 'priced') return null;
  const received = definition.name === 'purchase-orders';
  const money = (value: unknown) => formatPesos(Number(value ?? 0));
  const totals = (
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
      <dd className="text-right font-semibold">{money(record.total)}</dd>
    </dl>
  );
  return (
    <LinesSection after={totals}>
      <TableHeader>
        <TableRow>
          <TableHead>Item</TableHead>
          <TableHead className="text-right">Quantity</TableHead>
          {received && <TableHead className="text-right">Received</TableHead>}
          <TableHead className="text-right">Unit price</TableHead>
          <TableHead className="text-right">Discount</TableHead>
          <TableHead className="text-right">Amount</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.id}>
            <ItemCell line={line} />
            <TableCell className="text-right tabular-nums">
              {line.quantity} {line.unit}
            </TableCell>
            {received && <TableCell className="text-right tabular-nums">{line.quantity_done}</TableCell>}
            <TableCell className="text-right tabular-nums">{money(line.unit_price)}</TableCell>
            <TableCell className="text-right tabular-nums">{line.discount_percent ? `${line.discount_percent}%` : '—'}</TableCell>
            <TableCell className="text-right tabular-nums">{money(line.amount)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </LinesSection>
  );
}

/** The documents each one leads to, and in which of its statuses. */
const NEXT: Record<
  string,
  { resource: string; label: string; icon: typeof FileText; statuses: string[]; fromRequest?: boolean; fromReturn?: boolean }[]
> = {
  'stock-requests': [
    { resource: 'stock-transfers', label: 'Transfer', icon: Truck, statuses: ['pending', 'partially_transferred'], fromRequest: true },
  ],
  'stock-transfers': [
    { resource: 'stock-receives', label: 'Receive transfer', icon: PackageCheck, statuses: ['in_transit', 'partially_received'] },
    { resource: 'stock-returns', label: 'Return', icon: Undo2, statuses: ['partially_received', 'received'] },
  ],
  'stock-returns': [
    { resource: 'stock-transfers', label: 'Transfer back', icon: Truck, statuses: ['pending', 'partially_transferred'], fromReturn: true },
  ],
  'purchase-orders': [
    { resource: 'receive-orders', label: 'Receive', icon: PackageCheck, statuses: ['open', 'partially_received'] },
    { resource: 'bills', label: 'Bill', icon: FileText, statuses: ['open', 'partially_received', 'received'] },
  ],
  quotations: [{ resource: 'invoices', label: 'Invoice', icon: FileText, statuses: ['open'] }],
  bills: [
    { resource: 'bill-payments', label: 'Record payment', icon: CreditCard, statuses: ['unpaid', 'partially_paid'] },
    { resource: 'debit-memoranda', label: 'Debit memo', icon: FileMinus, statuses: ['unpaid', 'partially_paid'] },
  ],
  invoices: [
    { resource: 'invoice-payments', label: 'Record payment', icon: CreditCard, statuses: ['unpaid', 'partially_paid'] },
    { resource: 'credit-memoranda', label: 'Credit memo', icon: FileMinus, statuses: ['unpaid', 'partially_paid'] },
  ],
};

/** The "Lines" section of a document, its table scrolling sideways on a narrow screen. */
function LinesSection({ children, after }: { children: ReactNode; after?: ReactNode }) {
  return (
    <section aria-labelledby="lines-heading" className="space-y-2">
      <h2 id="lines-heading" className="text-lg font-semibold">
        Lines
      </h2>
      <div className="overflow-x-auto rounded-lg border">
        <Table>{children}</Table>
      </div>
      {after}
    </section>
  );
}

/** A line's item: its name, and its SKU beneath. */
function ItemCell({ line }: { line: DocumentLine }) {
  return (
    <TableCell>
      <span className="block">{line.item?.display ?? '—'}</span>
      <span className="text-xs text-muted-foreground">{line.item?.sku}</span>
    </TableCell>
  );
}

/** What later documents did with each line: a request's lines transferred, a transfer's received. */
const DONE: Record<string, string> = { 'stock-requests': 'Transferred', 'stock-transfers': 'Received' };

/** The lines of goods moved between locations: counted, not priced. */
function QuantityLines({ definition, lines }: { definition: ResourceDefinition; lines: DocumentLine[] }) {
  const done = DONE[definition.name];
  return (
    <LinesSection>
      <TableHeader>
        <TableRow>
          <TableHead>Item</TableHead>
          <TableHead className="text-right">Quantity</TableHead>
          {done && <TableHead className="text-right">{done}</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.id}>
            <ItemCell line={line} />
            <TableCell className="text-right tabular-nums">
              {line.quantity} {line.unit}
            </TableCell>
            {done && <TableCell className="text-right tabular-nums">{line.quantity_done}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </LinesSection>
  );
}

/** How a document is undone: orders and quotations are cancelled while open; the rest voided once. */
const UNDO: Record<string, { name: 'void' | 'cancel'; when: (status: string) => boolean }> = {
  'purchase-orders': { name: 'cancel', when: (status) => status === 'open' },
  quotations: { name: 'cancel', when: (status) => status === 'open' },
  'receive-orders': { name: 'void', when: (status) => status !== 'void' },
  bills: { name: 'void', when: (status) => status !== 'void' },
  'bill-payments': { name: 'void', when: (status) => status !== 'void' },
  invoices: { name: 'void', when: (status) => status !== 'void' },
  'invoice-payments': { name: 'void', when: (status) => status !== 'void' },
  'stock-requests': { name: 'cancel', when: (status) => status === 'pending' },
  'stock-returns': { name: 'cancel', when: (status) => status === 'pending' },
  'stock-transfers': { name: 'void', when: (status) => status === 'in_transit' },
  'stock-receives': { name: 'void', when: (status) => status !== 'void' },
  'credit-memoranda': { name: 'void', when: (status) => status !== 'void' },
  'debit-memoranda': { name: 'void', when: (status) => status !== 'void' },
};

/** What comes next for a document — receive, bill, invoice, pay — and void or cancel, which undo it; and Print. */
export function DocumentActions({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const held = usePermissions();
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const status = String(record.status ?? '');
  const live = !isClientKey(record.id) && !record.deleted_at;
  const id = String(record.id);
  const next = (NEXT[definition.name] ?? []).filter(
    (link) => link.statuses.includes(status) && holdsAny(held, [permissionName('create', link.resource)]),
  );
  const undoing = UNDO[definition.name];
  const canUndo =
    undoing?.when(status) && holdsAny(held, [permissionName(undoing.name === 'void' ? 'delete' : 'update', definition.permission)]);

  const undo = (name: 'void' | 'cancel') =>
    setConfirmation({
      action: name,
      confirmLabel: name === 'void' ? `Void ${definition.singular}` : `Cancel ${definition.singular}`,
      destructive: true,
      run: async () => {
        setBusy(true);
        try {
          const settled = await submitChange({
            businessId,
            resource: definition.name,
            action: name,
            recordId: record.id,
            method: 'PATCH',
            path: `/api/${definition.name}/${id}/${name}`,
            label: `${name === 'void' ? 'Void' : 'Cancel'} ${definition.singular} ${String(record.number)}`,
          });
          reportSettled(settled, `${definition.singular} ${name === 'void' ? 'voided' : 'cancelled'} successfully.`);
          setConfirmation(null);
        } catch (error) {
          reportFailure(error);
        } finally {
          setBusy(false);
        }
      },
    });

  return (
    <>
      {live &&
        next.map(({ resource, label, icon: Icon, fromRequest, fromReturn }) => (
          <Button key={label} asChild>
            {fromReturn ? (
              <Link to="/stock-transfers/create/from-stock-return/$from" params={{ from: id }} search={{ redirect_to: undefined }}>
                <Icon aria-hidden /> {label}
              </Link>
            ) : fromRequest ? (
              <Link to="/stock-transfers/create/from-stock-request/$from" params={{ from: id }} search={{ redirect_to: undefined }}>
                <Icon aria-hidden /> {label}
              </Link>
            ) : (
              <Link to="/$resource/create/$from" params={{ resource, from: id }} search={{ redirect_to: undefined }}>
                <Icon aria-hidden /> {label}
              </Link>
            )}
          </Button>
        ))}
      {live && canUndo && (
        <Button variant="outline" onClick={() => undo(undoing.name)}>
          <Ban aria-hidden /> {undoing.name === 'void' ? 'Void' : 'Cancel'} {definition.singular}
        </Button>
      )}
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

const RELATED: Record<string, { resource: string; field: string }[]> = {
  'purchase-orders': [
    { resource: 'receive-orders', field: 'purchase_order_id' },
    { resource: 'bills', field: 'purchase_order_id' },
  ],
  bills: [
    { resource: 'bill-payments', field: 'bill_id' },
    { resource: 'debit-memoranda', field: 'bill_id' },
  ],
  quotations: [{ resource: 'invoices', field: 'quotation_id' }],
  'stock-requests': [{ resource: 'stock-transfers', field: 'stock_request_id' }],
  'stock-transfers': [
    { resource: 'stock-receives', field: 'stock_transfer_id' },
    { resource: 'stock-returns', field: 'stock_transfer_id' },
  ],
  'stock-returns': [{ resource: 'stock-transfers', field: 'stock_return_id' }],
  invoices: [
    { resource: 'invoice-payments', field: 'invoice_id' },
    { resource: 'credit-memoranda', field: 'invoice_id' },
  ],
};

/** The documents made from this one: a purchase order's receipts and bills, a bill's payments. */
export function RelatedDocuments({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const related = RELATED[definition.name];
  if (!related || isClientKey(record.id)) return null;
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
