import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useRouter } from '@tanstack/react-router';
import { ArrowLeft, Copy, KeyRound, Pencil, RotateCcw, ShieldCheck, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { permissionName } from '../../../domain/permissions';
import { readableFields, type ResourceDefinition } from '../../../domain/resource';
import { findResource } from '../../../domain/resources/registry';
import { api, describeError } from '../../lib/api';
import { isNetworkFailure } from '../../lib/offline-store';
import { displayValue } from '../../lib/format';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { NotFoundScreen } from '../layout/not-found-screen';
import { OfflineNotice } from '../offline-notice';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { ProgressBar } from '../ui/progress-bar';
import { ConfirmDialog } from './confirm-dialog';
import { reportFailure, useRecordActions } from './record-actions';
import { ResourceBreadcrumb } from './resource-breadcrumb';

/** `/x/{id}`: a record's fields, referenced records by name, and its actions (spec 2.7). */
export function ViewScreen() {
  const { resource, id } = useParams({ strict: false }) as { resource: string; id: string };
  const definition = findResource(resource);
  const recordId = /^\d+$/.test(id) ? Number(id) : 0;
  if (!definition || !recordId) return <NotFoundScreen what="record" />;
  return <RecordView key={`${definition.name}-${recordId}`} definition={definition} recordId={recordId} />;
}

interface Secret {
  label: string;
  value: string;
}

function RecordView({ definition, recordId }: { definition: ResourceDefinition; recordId: number }) {
  const businessId = useActiveBusinessId();
  const navigate = useNavigate();
  const router = useRouter();
  const query = useQuery(recordQuery(businessId, definition, recordId));
  const can = (action: Parameters<typeof permissionName>[0]) => permissionName(action, definition.permission);
  const canUpdate = useCan(can('update')) && !definition.readOnly;
  const canDelete = useCan(can('delete')) && !definition.readOnly;
  const canRestore = useCan(can('restore')) && !definition.readOnly;
  const canForceDelete = useCan(can('force-delete')) && !definition.readOnly;
  const actions = useRecordActions(definition, () => void navigate({ to: '/$resource', params: { resource: definition.name } }));
  const [secret, setSecret] = useState<Secret | null>(null);

  if (query.error) {
    return isNetworkFailure(query.error) ? (
      <p role="alert">{describeError(query.error)}</p>
    ) : (
      <NotFoundScreen what={definition.singular.toLowerCase()} />
    );
  }
  const record = query.data;
  if (!record) return <ProgressBar active />;

  const display = displayValue(definition.display, definition.fields[definition.display], record);
  const trashed = record.deleted_at !== null;

  const reset = (kind: 'password' | 'security-pin') => {
    const words = kind === 'password' ? 'password' : 'security pin';
    actions.setConfirmation({
      action: `reset the ${words} of`,
      confirmLabel: `Reset ${definition.singular} ${kind === 'password' ? 'Password' : 'Security Pin'}`,
      destructive: false,
      run: async () => {
        actions.setBusy(true);
        try {
          const answer = await api<{ temporary_password?: string; temporary_security_pin?: string }>(
            'POST',
            `/api/${definition.name}/reset-${kind}`,
            { body: { id: record.id } },
          );
          toast.success(`${definition.singular} reset ${words} successfully`);
          actions.close();
          setSecret({ label: words, value: answer.temporary_password ?? answer.temporary_security_pin ?? '' });
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
          {definition.singular} {display}
        </h1>
        {trashed && <Badge variant="destructive">In the trash</Badge>}
      </div>

      <OfflineNotice savedAt={record.savedOffline} />
      <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Actions">
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
        <AssignLink definition={definition} record={record} />
        {canDelete && !trashed && (
          <Button variant="destructive" onClick={() => actions.ask('delete', record.id)}>
            <Trash2 aria-hidden /> Delete {definition.singular}
          </Button>
        )}
        {canRestore && trashed && (
          <Button variant="outline" onClick={() => actions.ask('restore', record.id)}>
            <RotateCcw aria-hidden /> Restore {definition.singular}
          </Button>
        )}
        {canForceDelete && trashed && (
          <Button variant="destructive" onClick={() => actions.ask('force-delete', record.id)}>
            <Trash2 aria-hidden /> Delete {definition.singular} Permanently
          </Button>
        )}
        {definition.resettableSecrets && !trashed && (
          <>
            <Button variant="outline" onClick={() => reset('password')}>
              <KeyRound aria-hidden /> Reset {definition.singular} Password
            </Button>
            <Button variant="outline" onClick={() => reset('security-pin')}>
              <KeyRound aria-hidden /> Reset {definition.singular} Security Pin
            </Button>
          </>
        )}
      </div>

      <dl className="grid gap-x-6 rounded-lg border bg-card sm:grid-cols-[minmax(10rem,14rem)_1fr]">
        <Row label="ID" value={`#${record.id}`} />
        {readableFields(definition).map(([name, field]) => (
          <Row key={name} label={field.label} value={displayValue(name, field, record)} />
        ))}
        <Extras record={record} />
        <Row label="Created" value={displayValue('created_at', undefined, record)} />
        <Row label="Updated" value={`${displayValue('updated_at', undefined, record)} (version ${record.version})`} />
        {trashed && <Row label="Deleted" value={displayValue('deleted_at', undefined, record)} />}
      </dl>

      <ConfirmDialog
        confirmation={actions.confirmation}
        singular={definition.singular}
        display={display}
        busy={actions.busy}
        onClose={actions.close}
      />
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

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="contents">
      <dt className="border-b px-4 pt-3 text-sm font-medium text-muted-foreground sm:py-3 sm:last-of-type:border-0">{label}</dt>
      <dd className="border-b px-4 pb-3 break-words sm:py-3">{value}</dd>
    </div>
  );
}

/** What a store adds beyond the fields: a user's roles, a role's permissions. */
function Extras({ record }: { record: ApiRecord }) {
  const list = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value.join(', ') : '—');
  return (
    <>
      {'role_names' in record && <Row label="Roles" value={list(record.role_names)} />}
      {'permission_names' in record && <Row label="Permissions" value={list(record.permission_names)} />}
    </>
  );
}

/** Roles lead to their permissions, users to their roles, for those who may change them. */
function AssignLink({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const canRoles = useCan('update-roles');
  const canUsers = useCan('update-users');
  if (record.deleted_at) return null;
  if (definition.name === 'roles' && canRoles) {
    return (
      <Button asChild variant="outline">
        <Link to="/roles/$id/assign-permissions" params={{ id: String(record.id) }}>
          <ShieldCheck aria-hidden /> Assign Permissions
        </Link>
      </Button>
    );
  }
  if (definition.name === 'users' && canUsers) {
    return (
      <Button asChild variant="outline">
        <Link to="/users/$id/assign-roles" params={{ id: String(record.id) }}>
          <Users aria-hidden /> Assign Roles
        </Link>
      </Button>
    );
  }
  return null;
}
