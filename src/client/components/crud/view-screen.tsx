import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { ArrowLeft, Copy, KeyRound, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../lib/notify';
import { isShown } from '../../../domain/fields';
import { documentTotals } from '../../../domain/resources/document-fields';
import { readableFields, type ResourceDefinition } from '../../../domain/resource';
import { displayValue } from '../../lib/format';
import { clientKey, discard, isClientKey, submitChange } from '../../lib/outbox';
import { useActiveBusinessId } from '../../lib/session';
import { OfflineNotice } from '../offline-notice';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { ActivityTimeline } from '../activity/activity-timeline';
import { ConfirmDialog } from './confirm-dialog';
import { DetailRow } from './detail-row';
import { PendingBadge } from './pending-badge';
import { PrintButton } from './print-button';
import { reportFailure, useRecordActions } from './record-actions';
import { RecordUnavailable } from './record-unavailable';
import { RecordScreen } from './record-screen';
import { ResourceBreadcrumb } from './resource-breadcrumb';
import { useScreenAccess } from './screen-access';
import { useShownRecord } from './shown-record';
import { renderSlot, slots } from './slots';

/** `/x/{id}`: a record's fields, referenced records by name, and its actions. */
export function ViewScreen() {
  return <RecordScreen slot="view" screen={RecordView} />;
}

const blank = (value: unknown) => value === null || value === undefined || value === '';

/** A priced document's totals show under its lines, not among its fields. */
const TOTALS = Object.keys(documentTotals());

interface Secret {
  label: string;
  value: string;
}

function RecordView({ definition, id }: { definition: ResourceDefinition; id: string }) {
  const navigate = useNavigate();
  const router = useRouter();
  const businessId = useActiveBusinessId();
  const shown = useShownRecord(definition, id);
  const allowed = useScreenAccess(definition, 'view');
  const canUpdate = allowed('update') && !definition.readOnly;
  const canDelete = allowed('delete') && !definition.readOnly;
  const canRestore = allowed('restore') && !definition.readOnly;
  const canForceDelete = allowed('force-delete') && !definition.readOnly;
  const actions = useRecordActions(definition, () => void navigate({ to: '/$resource', params: { resource: definition.name } }));
  const [secret, setSecret] = useState<Secret | null>(null);

  if (shown.status !== 'shown') return <RecordUnavailable definition={definition} shown={shown} movedTo="/$resource/$id" />;
  const record = shown.record;
  const local = isClientKey(record.id);

  const display = displayValue(definition.display, definition.fields[definition.display], record);
  const trashed = record.deleted_at !== null;
  const title = slots.resolve(definition, 'view.title');
  const deletable = slots.resolve(definition, 'view.deletable') ?? (() => true);

  const reset = (kind: 'password' | 'security-pin') => {
    const words = kind === 'password' ? 'password' : 'security pin';
    actions.setConfirmation({
      action: `reset the ${words} of`,
      confirmLabel: `Reset ${definition.singular} ${kind === 'password' ? 'Password' : 'Security Pin'}`,
      destructive: false,
      run: async () => {
        actions.setBusy(true);
        try {
          // The new secret is shown only once, to whoever asked: a reset is never left queued.
          const key = clientKey();
          const settled = await submitChange<{ temporary_password?: string; temporary_security_pin?: string }>(
            {
              businessId,
              resource: definition.name,
              action: 'reset',
              recordId: record.id,
              method: 'POST',
              path: `/api/${definition.name}/reset-${kind}`,
              body: { id: record.id },
              label: `Reset the ${words} of ${definition.singular} ${display}`,
            },
            key,
          );
          actions.close();
          if (!settled.sent) {
            await discard(key);
            toast.error(`Resetting a ${words} needs a connection, since the new one is shown only once. Nothing was changed.`);
            return;
          }
          toast.success(`${definition.singular} reset ${words} successfully`);
          setSecret({ label: words, value: settled.data.temporary_password ?? settled.data.temporary_security_pin ?? '' });
        } catch (error) {
          reportFailure(error);
        } finally {
          actions.setBusy(false);
        }
      },
    });
  };

  return (
    <div className="max-w-4xl space-y-4">
      <ResourceBreadcrumb definition={definition} current={`View ${definition.singular}`} />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">
          {definition.singular} {title ? title(record) : display}
        </h1>
        {trashed && <Badge variant="destructive">In the trash</Badge>}
        {renderSlot(definition, 'view.badge', { record })}
        <PendingBadge entry={record.pending} />
      </div>
      {local && (
        <p className="text-sm text-muted-foreground">
          Created on this device: it is sent to the server when the connection allows, and gets its number then.
        </p>
      )}

      <OfflineNotice savedAt={record.savedOffline} resource={definition.name} />
      <div className="flex flex-wrap gap-2 print:hidden" role="toolbar" aria-label="Actions">
        <Button variant="outline" onClick={() => router.history.back()}>
          <ArrowLeft aria-hidden /> Back
        </Button>
        {canUpdate && definition.editable && !trashed && (
          <Button asChild variant="outline">
            <Link to="/$resource/$id/edit" params={{ resource: definition.name, id: String(record.id) }}>
              <Pencil aria-hidden /> Edit {definition.singular}
            </Link>
          </Button>
        )}
        {renderSlot(definition, 'view.actions', { record, allowed })}
        {canRestore && trashed && (
          <Button variant="outline" onClick={() => actions.ask('restore', record.id, display)}>
            <RotateCcw aria-hidden /> Restore {definition.singular}
          </Button>
        )}
        {definition.resettableSecrets && canUpdate && !trashed && !local && (
          <>
            <Button variant="outline" onClick={() => reset('password')}>
              <KeyRound aria-hidden /> Reset {definition.singular} Password
            </Button>
            <Button variant="outline" onClick={() => reset('security-pin')}>
              <KeyRound aria-hidden /> Reset {definition.singular} Security Pin
            </Button>
          </>
        )}
        {/* A record still on this device prints only with the final number it took from the device's block. */}
        {(!local || Boolean(record.number)) && (renderSlot(definition, 'view.print', { record }) ?? <PrintButton />)}
        {/* What cannot be undone stands apart, at the far end, not beside Back. */}
        {canDelete && !trashed && deletable(definition, record) && (
          <Button variant="destructive" className="sm:ml-auto" onClick={() => actions.ask('delete', record.id, display)}>
            <Trash2 aria-hidden /> Delete {definition.singular}
          </Button>
        )}
        {canForceDelete && trashed && (
          <Button variant="destructive" className="sm:ml-auto" onClick={() => actions.ask('force-delete', record.id, display)}>
            <Trash2 aria-hidden /> Delete {definition.singular} Permanently
          </Button>
        )}
      </div>

      {renderSlot(definition, 'view.lead', { record })}
      <dl className="grid gap-x-6 rounded-lg border bg-card sm:grid-cols-[minmax(10rem,14rem)_1fr]">
        <DetailRow label="ID" value={local ? 'Assigned when it syncs' : `#${record.id}`} />
        {readableFields(definition)
          .filter(
            ([name, field]) =>
              // A priced document's totals show under its lines.
              !((definition.document?.lines === 'priced' || definition.document?.lines === 'returns') && TOTALS.includes(name)) &&
              isShown(field, record) &&
              // Given by few (an override's reason): shown where one was given.
              !(field.heldBy && blank(record[name])) &&
              // What the server works out (a return's customer, from its invoice) a record still on this device has once it syncs.
              !(local && field.computed && blank(record[name])),
          )
          .map(([name, field]) => (
            <DetailRow key={name} label={field.label} value={displayValue(name, field, record)} />
          ))}
        {renderSlot(definition, 'view.details', { record })}
        <DetailRow label="Created" value={displayValue('created_at', undefined, record)} />
        <DetailRow label="Updated" value={`${displayValue('updated_at', undefined, record)} (version ${record.version})`} />
        {trashed && <DetailRow label="Deleted" value={displayValue('deleted_at', undefined, record)} />}
      </dl>
      {renderSlot(definition, 'view.sections', { record })}
      {!local && renderSlot(definition, 'view.files', { record })}
      {!local && <ActivityTimeline definition={definition} recordId={Number(record.id)} />}

      <ConfirmDialog {...actions.dialog} singular={definition.singular} display={display} />
      <Dialog open={secret !== null} onOpenChange={(open) => !open && setSecret(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>New temporary {secret?.label}</DialogTitle>
            <DialogDescription>Give it to {display} now: it is shown only this once. Their other sessions have ended.</DialogDescription>
          </DialogHeader>
          <p className="rounded-md bg-muted p-4 text-center font-mono text-2xl tracking-widest" aria-live="polite">
            {secret?.value}
          </p>
          <DialogFooter>
            <Button
              variant="outline"
              onClick={() => void navigator.clipboard?.writeText(secret?.value ?? '').then(() => toast.success('Copied.'))}
            >
              <Copy aria-hidden /> Copy
            </Button>
            <Button onClick={() => setSecret(null)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
