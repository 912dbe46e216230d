import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams, useRouter } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useState, type ReactElement } from 'react';
import { permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { submitChange } from '../../lib/outbox';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { NotFoundScreen } from '../layout/not-found-screen';
import { Button } from '../ui/button';
import { ProgressBar } from '../ui/progress-bar';
import { reportFailure, reportSettled } from './record-actions';

/**
 * The record an assignment screen is about (`/roles/{id}/assign-permissions`), read by the id in
 * the path. `gate(ready)` is what shows instead of the screen, or null: not found, back to the list
 * for one who may not update it, or loading until the record is read and `ready`.
 */
export function useAssignedRecord(definition: ResourceDefinition) {
  const { id: param } = useParams({ strict: false }) as { id: string };
  const id = /^\d+$/.test(param) ? Number(param) : 0;
  const businessId = useActiveBusinessId();
  const canUpdate = useCan(permissionName('update', definition.permission));
  const record = useQuery({ ...recordQuery(businessId, definition, id), enabled: id > 0 });
  const gate = (ready: boolean): ReactElement | null => {
    if (!id || record.error) return <NotFoundScreen what={definition.singular.toLowerCase()} />;
    if (!canUpdate) return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
    if (!record.data || !ready) return <ProgressBar active />;
    return null;
  };
  return { record: record.data, gate };
}

/**
 * What a role grants or a user holds (`assigns`: "permissions", "roles"), ticked on an assignment
 * screen and saved as one PUT of the whole set (`/api/roles/{id}/permissions` with
 * `permission_ids`) through the outbox; then back to the record. It starts from what the record
 * holds now (its `permission_ids`).
 */
export function useAssignment(definition: ResourceDefinition, record: ApiRecord, assigns: 'permissions' | 'roles') {
  const field = `${assigns.slice(0, -1)}_ids`;
  const recordId = Number(record.id);
  const recordName = String(record.name);
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set(record[field] as number[]));
  const [busy, setBusy] = useState(false);
  const businessId = useActiveBusinessId();
  const navigate = useNavigate();

  /** Ticks (`on`) or clears each of `ids`. */
  const toggle = (ids: readonly number[], on: boolean) =>
    setChecked((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const save = async () => {
    setBusy(true);
    try {
      const settled = await submitChange({
        businessId,
        resource: definition.name,
        action: 'assign',
        recordId,
        method: 'PUT',
        path: `/api/${definition.name}/${recordId}/${assigns}`,
        body: { [field]: [...checked] },
        label: `Assign ${assigns} to ${definition.singular} ${recordName}`,
      });
      reportSettled(settled, `${definition.singular} updated successfully.`);
      void navigate({ to: '/$resource/$id', params: { resource: definition.name, id: String(recordId) } });
    } catch (error) {
      reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return { recordName, checked, toggle, busy, save };
}

/** The foot of an assignment screen: Back, and Save (`saveLabel`), both held while it saves. */
export function AssignmentButtons({
  busy,
  onSave,
  saveLabel,
  className,
}: {
  busy: boolean;
  onSave: () => Promise<void>;
  saveLabel: string;
  className: string;
}) {
  const router = useRouter();
  return (
    <div className={className}>
      <Button variant="outline" onClick={() => router.history.back()} disabled={busy}>
        <ArrowLeft aria-hidden /> Back
      </Button>
      <Button onClick={() => void onSave()} disabled={busy}>
        {busy ? 'Saving…' : saveLabel}
      </Button>
    </div>
  );
}
