import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { ArrowLeft, Download, RotateCcw, Trash2 } from 'lucide-react';
import { permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { findResource } from '../../../domain/resources/registry';
import { ApiError, describeError } from '../../lib/api';
import { displayValue, formatTimestamp } from '../../lib/format';
import { recordQuery } from '../../lib/resource-queries';
import { useOnline } from '../../lib/online';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { ConfirmDialog } from '../crud/confirm-dialog';
import { DetailRow } from '../crud/detail-row';
import { ResourceBreadcrumb } from '../crud/resource-breadcrumb';
import { NotFoundScreen } from '../layout/not-found-screen';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ProgressBar } from '../ui/progress-bar';
import { useFileActions } from './file-actions';
import { FileThumbnail } from './file-thumbnail';
import { fileQuery, formatFileSize } from './files-api';

/** `/x/{recordId}/files/{fileId}`, a nested route: one file of a record, previewed, with its actions. */
export function FileScreen() {
  const { resource, recordId, fileId } = useParams({ strict: false }) as { resource: string; recordId: string; fileId: string };
  const definition = findResource(resource);
  if (!definition?.attachments || !/^\d{1,9}$/.test(recordId) || !/^\d{1,9}$/.test(fileId)) return <NotFoundScreen what="file" />;
  return <FileView key={`${resource}-${recordId}-${fileId}`} definition={definition} recordId={recordId} fileId={fileId} />;
}

function FileView({ definition, recordId, fileId }: { definition: ResourceDefinition; recordId: string; fileId: string }) {
  const businessId = useActiveBusinessId();
  const navigate = useNavigate();
  const online = useOnline();
  const canUpdate = useCan(permissionName('update', definition.permission));
  const record = useQuery(recordQuery(businessId, definition, Number(recordId)));
  const file = useQuery(fileQuery(businessId, definition, recordId, fileId));
  const backToRecord = () => void navigate({ to: '/$resource/$id', params: { resource: definition.name, id: recordId } });
  const actions = useFileActions(definition, recordId, (action) => action !== 'restore' && backToRecord());

  const failure = file.error ?? record.error;
  if (failure instanceof ApiError && failure.status === 404) return <NotFoundScreen what="file" />;
  if (failure) return <p role="alert">{describeError(failure)}</p>;
  if (file.data === null) return <NotFoundScreen what="file" />;
  if (!file.data || !record.data) return <ProgressBar active />;

  const attached = file.data;
  const trashed = attached.deleted_at !== null;
  const mayChange = canUpdate && online && record.data.deleted_at === null;
  const recordName = `${definition.singular} ${displayValue(definition.display, definition.fields[definition.display], record.data)}`;

  return (
    <div className="max-w-4xl space-y-4">
      <ResourceBreadcrumb definition={definition} record={{ id: recordId, label: recordName }} current="View File" />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words">File {attached.name}</h1>
        {trashed && <Badge variant="destructive">In the trash</Badge>}
      </div>

      <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Actions">
        <Button variant="outline" onClick={backToRecord}>
          <ArrowLeft aria-hidden /> Back
        </Button>
        <Button onClick={() => void actions.download(attached)}>
          <Download aria-hidden /> Download
        </Button>
        {mayChange && !trashed && (
          <Button variant="destructive" onClick={() => actions.ask('delete', attached)}>
            <Trash2 aria-hidden /> Delete File
          </Button>
        )}
        {mayChange && trashed && (
          <>
            <Button variant="outline" onClick={() => actions.ask('restore', attached)}>
              <RotateCcw aria-hidden /> Restore File
            </Button>
            <Button variant="destructive" onClick={() => actions.ask('force-delete', attached)}>
              <Trash2 aria-hidden /> Delete File Permanently
            </Button>
          </>
        )}
      </div>

      <dl className="grid gap-x-6 rounded-lg border bg-card sm:grid-cols-[minmax(10rem,14rem)_1fr]">
        <DetailRow label="Name" value={attached.name} />
        <DetailRow label="Type" value={attached.mime_type === 'application/pdf' ? 'PDF document' : `Image (${attached.mime_type})`} />
        <DetailRow label="Size" value={formatFileSize(attached.size)} />
        <DetailRow label="Attached to" value={recordName} />
        <DetailRow label="Uploaded by" value={attached.uploaded_by_name ?? 'A former user'} />
        <DetailRow label="Uploaded" value={formatTimestamp(attached.created_at)} />
        {trashed && <DetailRow label="Deleted" value={formatTimestamp(attached.deleted_at as string)} />}
      </dl>

      <figure className="space-y-2">
        <FileThumbnail definition={definition} recordId={recordId} file={attached} size="preview" />
        <figcaption className="text-sm text-muted-foreground">
          {attached.mime_type.startsWith('image/') ? attached.name : 'A PDF document: download it to read it.'}
        </figcaption>
      </figure>

      <ConfirmDialog {...actions.dialog} singular="File" display={attached.name} />
    </div>
  );
}
