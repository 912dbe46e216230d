import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CloudOff, CloudUpload, Pencil, RefreshCw, Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../lib/notify';
import { readableFields, writableFields, type ResourceDefinition } from '../../../domain/resource';
import { formatPesos } from '../../../domain/money';
import { findResource, getResource } from '../../../domain/resources/registry';
import { ConfirmDialog, useConfirmation } from '../../components/crud/confirm-dialog';
import { FieldInput, type FormValues } from '../../components/crud/field-input';
import { formBody, messagesByField, startingValues } from '../../components/crud/record-form';
import { slots } from '../../components/crud/slots';
import { usePendingDocument, useSaleOf } from '../../components/documents/pending-lines';
import { returnAgainst } from '../../components/documents/prefill';
import type { ReturnRows } from '../../components/documents/return-rows';
import type { ReturnLineBody } from '../../components/documents/line-rows';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { displayValue, formatTimestamp } from '../../lib/format';
import { discard, isClientKey, retry, sendNow, type OutboxEntry } from '../../lib/outbox';
import { useOnline } from '../../lib/online';
import { pendingCreateRecord, useOutbox } from '../../lib/pending';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useSession } from '../../lib/session';

const STATES: Record<OutboxEntry['state'], { label: string; variant: 'outline' | 'warning' | 'destructive' }> = {
  queued: { label: 'Queued', variant: 'outline' },
  syncing: { label: 'Sending', variant: 'warning' },
  'needs-attention': { label: 'Needs attention', variant: 'destructive' },
};

/** A long backlog shows its head (it goes first) and whatever needs attention. */
const SHOWN_AT_MOST = 100;

/**
 * `/pending-changes`: every change made on this device that the server does not have yet, oldest
 * first, as the outbox sends them. Parked ones say why; they can be sent again, corrected and
 * sent again (422), settled against the server's values (412), or discarded.
 */
export function PendingChangesScreen() {
  const { loaded, entries } = useOutbox();
  const online = useOnline();
  const session = useSession();
  const businesses = session.status === 'signed-in' ? session.businesses : [];
  const confirming = useConfirmation();
  const { setConfirmation, setBusy } = confirming;
  const [discarding, setDiscarding] = useState<OutboxEntry | null>(null);
  const [editing, setEditing] = useState<OutboxEntry | null>(null);
  const waiting = entries.filter((entry) => entry.state !== 'needs-attention').length;
  const shown = entries.filter((entry, index) => index < SHOWN_AT_MOST || entry.state === 'needs-attention');

  const askDiscard = (entry: OutboxEntry, confirmLabel = 'Discard') => {
    setDiscarding(entry);
    setConfirmation({
      action: 'discard',
      confirmLabel,
      destructive: true,
      run: async () => {
        setBusy(true);
        try {
          await discard(entry.key);
          toast.success('The change was discarded.');
          setConfirmation(null);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return (
    <div className="max-w-4xl space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-2xl font-semibold tracking-tight">Pending changes</h1>
        {waiting > 0 && (
          <Button variant="outline" onClick={() => void sendNow()} disabled={!online}>
            <RefreshCw aria-hidden /> Send now
          </Button>
        )}
      </div>
      <p className="text-muted-foreground">
        Changes made on this device wait here until the server has them, and are sent in the order they were made.
      </p>
      {!online && (
        <p role="status" className="flex items-center gap-2 rounded-md border border-warning/50 bg-warning/15 p-3 text-sm">
          <CloudOff className="size-4 shrink-0" aria-hidden /> You are offline. These changes are kept on this device and sent when the
          connection returns.
        </p>
      )}
      {loaded && entries.length === 0 && (
        <p className="rounded-lg border bg-card p-8 text-center text-muted-foreground">
          Nothing is waiting: every change made on this device has reached the server.
        </p>
      )}
      <ol className="space-y-3" aria-label="Changes waiting to be sent">
        {shown.map((entry) => (
          <li key={entry.key}>
            <EntryCard
              entry={entry}
              business={businesses.find((business) => business.id === entry.businessId)?.name}
              onRetry={() => void retry(entry.key)}
              onEdit={() => setEditing(entry)}
              onDiscard={() => askDiscard(entry)}
              onKeepMine={() => void retry(entry.key, { baseVersion: Number(entry.serverRecord?.version) })}
              onTakeServers={() => askDiscard(entry, "Take the server's")}
            />
          </li>
        ))}
      </ol>
      {entries.length > SHOWN_AT_MOST && (
        <p className="text-center text-sm text-muted-foreground">… and {entries.length - SHOWN_AT_MOST} more, sent in order after these.</p>
      )}
      <ConfirmDialog {...confirming.dialog} singular="change" display={discarding ? `“${discarding.label}”` : ''} />
      {editing && <EditQueuedChange entry={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

function EntryCard({
  entry,
  business,
  onRetry,
  onEdit,
  onDiscard,
  onKeepMine,
  onTakeServers,
}: {
  entry: OutboxEntry;
  business: string | undefined;
  onRetry: () => void;
  onEdit: () => void;
  onDiscard: () => void;
  onKeepMine: () => void;
  onTakeServers: () => void;
}) {
  const definition = findResource(entry.resource);
  const state = STATES[entry.state];
  const attention = entry.state === 'needs-attention';
  const conflict = attention && entry.status === 412 && entry.serverRecord !== undefined;
  const editable = attention && definition !== undefined && (entry.action === 'create' || entry.action === 'update') && !conflict;
  const recordLink =
    definition && entry.recordId !== null && !['force-delete', 'reset'].includes(entry.action)
      ? { resource: definition.name, id: String(entry.recordId) }
      : null;

  return (
    <article className="space-y-3 rounded-lg border bg-card p-4" aria-label={entry.label}>
      <div className="flex flex-wrap items-start gap-2">
        <div className="mr-auto min-w-0">
          <h2 className="font-medium break-words">
            {recordLink ? (
              <Link to="/$resource/$id" params={recordLink} className="text-primary underline-offset-4 hover:underline">
                {entry.label}
              </Link>
            ) : (
              entry.label
            )}
          </h2>
          {definition?.document && <ChangeSummary definition={definition} entry={entry} />}
          <p className="text-sm text-muted-foreground">
            Made {formatTimestamp(new Date(entry.createdAt).toISOString())}
            {business && ` in ${business}`}
            {entry.attempts > 0 && ` · ${entry.attempts} ${entry.attempts === 1 ? 'attempt' : 'attempts'}`}
          </p>
        </div>
        <Badge variant={state.variant}>
          {attention ? <TriangleAlert aria-hidden /> : <CloudUpload aria-hidden />}
          {state.label}
        </Badge>
      </div>
      {entry.message && (
        <p role={attention ? 'alert' : undefined} className={attention ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}>
          {entry.message}
        </p>
      )}
      {attention && Object.values(entry.errors ?? {}).flat().length > 1 && (
        <ul className="list-disc pl-5 text-sm text-destructive">
          {Object.entries(entry.errors ?? {}).flatMap(([field, messages]) =>
            messages.map((message) => <li key={`${field}${message}`}>{message}</li>),
          )}
        </ul>
      )}
      {conflict && definition && <Comparison definition={definition} entry={entry} />}
      {attention && (
        <div className="flex flex-wrap gap-2">
          {conflict ? (
            <>
              <Button onClick={onKeepMine}>Keep mine</Button>
              <Button variant="outline" onClick={onTakeServers}>
                Take the server&apos;s
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={onRetry}>
              <RefreshCw aria-hidden /> Retry
            </Button>
          )}
          {editable && (
            <Button variant="outline" onClick={onEdit}>
              <Pencil aria-hidden /> Edit and retry
            </Button>
          )}
          {!conflict && (
            <Button variant="ghost" className="text-destructive" onClick={onDiscard}>
              <Trash2 aria-hidden /> Discard
            </Button>
          )}
        </div>
      )}
      {!attention && (
        <div className="flex flex-wrap gap-2">
          <Button variant="ghost" className="text-destructive" onClick={onDiscard} disabled={entry.state === 'syncing'}>
            <Trash2 aria-hidden /> Discard
          </Button>
        </div>
      )}
    </article>
  );
}

const NOTHING: ApiRecord = { id: 0, deleted_at: null, version: 0 };

/**
 * What a queued document is, so that three "Create Invoice" cards tell themselves apart: its
 * party and place by name (as this device kept them), its lines and its amount — a payment's
 * amount, or the lines priced as the server will price them.
 */
function ChangeSummary({ definition, entry }: { definition: ResourceDefinition; entry: OutboxEntry }) {
  const activeBusiness = useActiveBusinessId();
  const body = (entry.body ?? {}) as Record<string, unknown>;
  const mine = entry.businessId === activeBusiness;
  const record = entry.action === 'create' && mine ? pendingCreateRecord(entry) : NOTHING;
  const priced = usePendingDocument(definition, record);
  const named = (field: string, resource: string) => {
    // As sent, or as the server will fill it in (a return's customer and place, from its sale).
    const id = Number(body[field] ?? priced[field]);
    return { ...recordQuery(entry.businessId, getResource(resource), id), enabled: mine && Number.isInteger(id) && id > 0 };
  };
  const party = useQuery(named('contact_id', 'contacts')).data;
  const branch = useQuery(named('branch_id', 'branches')).data;
  const warehouse = useQuery(named('warehouse_id', 'warehouses')).data;
  const lines = Array.isArray(body.lines) ? body.lines.length : 0;
  const amount = definition.document?.lines === 'none' ? Number(body.amount) : Number(priced.total);
  const parts = [
    party && String(party.name),
    (branch ?? warehouse) && String((branch ?? warehouse)!.name),
    lines > 0 && `${lines} ${lines === 1 ? 'line' : 'lines'}`,
    entry.action === 'create' && Number.isFinite(amount) && amount > 0 && formatPesos(amount) + (priced.unpriced ? ' so far' : ''),
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return <p className="text-sm">{parts.join(' · ')}</p>;
}

/** After a 412: what the server holds now beside what this device would send, field by field. */
function Comparison({ definition, entry }: { definition: ResourceDefinition; entry: OutboxEntry }) {
  const server = entry.serverRecord ?? {};
  const mine = { ...server, ...(entry.body as Record<string, unknown>) };
  const fields = readableFields(definition).filter(([name]) => name in (entry.body as Record<string, unknown>));
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="pb-2 text-left text-muted-foreground">
          Someone changed this {definition.singular.toLowerCase()} after you did. Compare, then keep yours or take the server&apos;s.
        </caption>
        <thead>
          <tr className="border-b text-left">
            <th className="py-2 pr-4 font-medium">Field</th>
            <th className="py-2 pr-4 font-medium">On the server now (version {String(server.version ?? '?')})</th>
            <th className="py-2 font-medium">Your change</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([name, field]) => {
            const theirs = displayValue(name, field, server);
            const yours = displayValue(name, field, mine);
            return (
              <tr key={name} className={theirs !== yours ? 'border-b bg-warning/15' : 'border-b'}>
                <th scope="row" className="py-2 pr-4 text-left font-normal text-muted-foreground">
                  {field.label}
                </th>
                <td className="py-2 pr-4 break-words">{theirs}</td>
                <td className="py-2 break-words">{yours}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Corrects a change the server refused (422) and sends it again, under the same key. */
function EditQueuedChange({ entry, onClose }: { entry: OutboxEntry; onClose: () => void }) {
  const definition = findResource(entry.resource)!;
  const editing = entry.action === 'update' && !isClientKey(entry.recordId);
  const [values, setValues] = useState<FormValues>(() => startingValues(definition, entry.body as Record<string, unknown>));
  const errors = messagesByField(entry.errors ?? {});
  // A document's lines, in the line editor, with the server's messages under them.
  const slot = slots.resolve(definition, 'form.section');
  const section = slot?.holds(definition, editing) ? slot : undefined;
  // A return's lines are its sale's: read again (from the server, or as the device holds it), with what was queued of each.
  const body = entry.body as Record<string, unknown>;
  const { sale } = useSaleOf(entry.businessId, definition, body);
  // Once, when the sale is read afresh (a state set while rendering: React renders again at once, before drawing).
  const [joined, setJoined] = useState(false);
  if (!joined && section && sale.data && sale.isFetchedAfterMount) {
    setJoined(true);
    const queued = Array.isArray(body.lines) ? (body.lines as ReturnLineBody[]) : [];
    const against = returnAgainst(definition, sale.data, queued);
    setValues((current) => ({ ...current, [section.name]: { ...(current[section.name] as ReturnRows), ...against } }));
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>Edit and retry</DialogTitle>
          <DialogDescription>{entry.label}</DialogDescription>
        </DialogHeader>
        <form
          id="edit-queued-change"
          noValidate
          className="grid gap-x-6 gap-y-5 md:grid-cols-2"
          onSubmit={(event) => {
            event.preventDefault();
            void retry(entry.key, { body: formBody(definition, values, editing) }).then(onClose);
          }}
        >
          {writableFields(definition).map(([name, field]) => (
            <div key={name} className={field.kind === 'textarea' || field.kind === 'discounts' ? 'md:col-span-2' : undefined}>
              <FieldInput
                name={name}
                field={field}
                values={values}
                errors={errors[name] ?? []}
                editing={editing}
                onChange={(changed, value) => setValues((current) => ({ ...current, [changed]: value }))}
              />
            </div>
          ))}
          {section && (
            <div className="md:col-span-2">
              <section.Editor
                definition={definition}
                value={values[section.name]}
                onChange={(value) => setValues((current) => ({ ...current, [section.name]: value }))}
                errors={entry.errors ?? {}}
                values={values}
              />
            </div>
          )}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" form="edit-queued-change">
            Save and retry
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
