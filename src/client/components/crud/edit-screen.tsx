import { Navigate, useNavigate } from '@tanstack/react-router';
import type { ResourceDefinition } from '../../../domain/resource';
import { isClientKey } from '../../lib/outbox';
import { PendingBadge } from './pending-badge';
import { RecordForm, startingValues } from './record-form';
import { RecordUnavailable } from './record-unavailable';
import { ResourceBreadcrumb } from './resource-breadcrumb';
import { useScreenAccess } from './screen-access';
import { useShownRecord } from './shown-record';
import { RecordScreen } from './record-screen';

/**
 * `/x/{id}/edit`; without update permission (or for resources without edit), back to the index.
 * The form starts from the record with its queued changes laid over; for a record created on this
 * device, editing it edits its queued create.
 */
export function EditScreen() {
  return <RecordScreen slot="edit" screen={EditRecord} />;
}

function EditRecord({ definition, id }: { definition: ResourceDefinition; id: string }) {
  const navigate = useNavigate();
  const canUpdate = useScreenAccess(definition, 'edit')('update');
  const shown = useShownRecord(definition, id);

  if (!canUpdate || !definition.editable || definition.readOnly)
    return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
  if (shown.status !== 'shown') return <RecordUnavailable definition={definition} shown={shown} movedTo="/$resource/$id/edit" />;
  const record = shown.record;

  return (
    <div className="max-w-4xl space-y-4">
      <ResourceBreadcrumb definition={definition} current={`Edit ${definition.singular}`} />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">
          Edit {definition.singular} {!isClientKey(record.id) && <span className="font-normal text-muted-foreground">#{record.id}</span>}
        </h1>
        <PendingBadge entry={record.pending} />
      </div>
      {record.deleted_at ? (
        <p role="alert">This {definition.singular.toLowerCase()} is in the trash; restore it before editing.</p>
      ) : (
        <RecordForm
          key={String(record.id)}
          definition={definition}
          record={record}
          initial={startingValues(definition, record)}
          draftKey={`${definition.name}/${record.id}/edit`}
          onSaved={(saved) => void navigate({ to: '/$resource/$id', params: { resource: definition.name, id: String(saved.id) } })}
        />
      )}
    </div>
  );
}
