import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams } from '@tanstack/react-router';
import { permissionName } from '../../../domain/permissions';
import { findResource } from '../../../domain/resources/registry';
import { recordQuery } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { NotFoundScreen } from '../layout/not-found-screen';
import { ProgressBar } from '../ui/progress-bar';
import { RecordForm, startingValues } from './record-form';
import { ResourceBreadcrumb } from './resource-breadcrumb';

/** `/x/{id}/edit`; without update permission (or for resources without edit), back to the index. */
export function EditScreen() {
  const { resource, id } = useParams({ strict: false }) as { resource: string; id: string };
  const definition = findResource(resource);
  const navigate = useNavigate();
  const businessId = useActiveBusinessId();
  const canUpdate = useCan(definition ? permissionName('update', definition.permission) : 'never');
  const recordId = /^\d+$/.test(id) ? Number(id) : 0;
  const record = useQuery({
    ...recordQuery(businessId, definition ?? ({ name: '' } as never), recordId),
    enabled: Boolean(definition && recordId),
  });

  if (!definition || !recordId) return <NotFoundScreen what="record" />;
  if (!canUpdate || !definition.editable || definition.readOnly)
    return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
  if (record.error) return <NotFoundScreen what={definition.singular.toLowerCase()} />;
  if (!record.data) return <ProgressBar active />;

  return (
    <div className="max-w-4xl space-y-4">
      <ResourceBreadcrumb definition={definition} current={`Edit ${definition.singular}`} />
      <h1 className="text-2xl font-semibold tracking-tight">
        Edit {definition.singular} <span className="font-normal text-muted-foreground">#{record.data.id}</span>
      </h1>
      {record.data.deleted_at ? (
        <p role="alert">This {definition.singular.toLowerCase()} is in the trash; restore it before editing.</p>
      ) : (
        <RecordForm
          key={record.data.version}
          definition={definition}
          record={record.data}
          initial={startingValues(definition, record.data)}
          onSaved={(saved) => void navigate({ to: '/$resource/$id', params: { resource: definition.name, id: String(saved.id) } })}
        />
      )}
    </div>
  );
}
