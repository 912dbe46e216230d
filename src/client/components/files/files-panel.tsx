import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Camera, Download, Paperclip, RotateCcw, Trash2 } from 'lucide-react';
import { useRef, useState, useSyncExternalStore, type ChangeEvent } from 'react';
import { toast } from '../../lib/notify';
import { MAX_FILE_BYTES, type AttachedFile } from '../../../domain/attachments';
import { permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { describeError } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { isNetworkFailure } from '../../lib/offline-store';
import { useOnline } from '../../lib/online';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { ConfirmDialog } from '../crud/confirm-dialog';
import { reportFailure } from '../crud/record-actions';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ProgressBar } from '../ui/progress-bar';
import { Toggle } from '../ui/toggle';
import { HeadedSection } from '../headed-section';
import { useFileActions } from './file-actions';
import { FileThumbnail } from './file-thumbnail';
import { filesQuery, formatFileSize, uploadFile, useRefreshAfterFileChange } from './files-api';

/** Phones and tablets (a finger, not a mouse) get a button that opens the camera. */
const COARSE_POINTER = '(pointer: coarse)';
const subscribeToPointer = (onChange: () => void) => {
  const query = window.matchMedia(COARSE_POINTER);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const useTouchScreen = () => useSyncExternalStore(subscribeToPointer, () => window.matchMedia(COARSE_POINTER).matches);

interface Upload {
  name: string;
  /** 0 to 1. */
  sent: number;
}

/**
 * The files of a record on its view screen: scanned receipts, photos of deliveries. Anyone who may
 * view the record sees and downloads them; who may update it attaches (a file, or a photo taken
 * there and then), deletes and restores them. Needs a connection.
 */
export function FilesPanel({
  definition,
  recordId,
  recordTrashed,
}: {
  definition: ResourceDefinition;
  recordId: number;
  recordTrashed: boolean;
}) {
  const businessId = useActiveBusinessId();
  const canView = useCan(permissionName('view', definition.permission));
  const canUpdate = useCan(permissionName('update', definition.permission));
  const online = useOnline();
  const touchScreen = useTouchScreen();
  const [withTrashed, setWithTrashed] = useState(false);
  const files = useQuery({ ...filesQuery(businessId, definition, recordId, withTrashed ? 'all' : 'active'), enabled: canView });
  const actions = useFileActions(definition, recordId);
  const refresh = useRefreshAfterFileChange(definition, recordId);
  const [upload, setUpload] = useState<Upload | null>(null);
  const chooseFiles = useRef<HTMLInputElement>(null);
  const takePhoto = useRef<HTMLInputElement>(null);

  if (!canView) return null;
  const mayAttach = canUpdate && !recordTrashed;
  const attachable = online && upload === null;

  const send = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    // Let the same file be chosen again after a failure.
    event.target.value = '';
    for (const file of chosen) {
      if (file.size > MAX_FILE_BYTES) {
        toast.error(`${file.name}: the file may not be greater than 10 MB.`);
        continue;
      }
      setUpload({ name: file.name, sent: 0 });
      try {
        const attached = await uploadFile(definition.name, recordId, file, (sent) => setUpload({ name: file.name, sent }));
        toast.success(`File ${attached.name} created successfully.`);
        await refresh();
      } catch (error) {
        reportFailure(error);
      }
    }
    setUpload(null);
  };

  const shown = files.data?.data ?? [];
  return (
    <HeadedSection
      headingId="files-heading"
      title="Files"
      className="space-y-3 print:hidden"
      actions={
        <div className="flex flex-wrap gap-2">
          {canUpdate && (
            <Toggle variant="outline" pressed={withTrashed} onPressedChange={setWithTrashed}>
              With Trashed
            </Toggle>
          )}
          {mayAttach && (
            <Button onClick={() => chooseFiles.current?.click()} disabled={!attachable}>
              <Paperclip aria-hidden /> Attach Files
            </Button>
          )}
          {mayAttach && touchScreen && (
            <Button variant="outline" onClick={() => takePhoto.current?.click()} disabled={!attachable}>
              <Camera aria-hidden /> Take Photo
            </Button>
          )}
        </div>
      }
    >
      {mayAttach && (
        <>
          <input
            ref={chooseFiles}
            type="file"
            accept="image/*,application/pdf"
            multiple
            className="sr-only"
            tabIndex={-1}
            aria-label="Files to attach"
            onChange={(event) => void send(event)}
          />
          <input
            ref={takePhoto}
            type="file"
            accept="image/*"
            capture="environment"
            className="sr-only"
            tabIndex={-1}
            aria-label="Photo to attach"
            onChange={(event) => void send(event)}
          />
        </>
      )}
      {mayAttach && !online && <p className="text-sm text-muted-foreground">Attaching files needs a connection.</p>}
      {upload && <UploadProgress upload={upload} />}

      {files.isPending && <ProgressBar active aria-label="Loading files" />}
      {files.error && (
        <p className="text-sm text-muted-foreground" role="status">
          {isNetworkFailure(files.error) ? 'Files are not available offline.' : describeError(files.error)}
        </p>
      )}
      {files.data && shown.length === 0 && (
        <p className="text-sm text-muted-foreground">{withTrashed ? 'No files, not even in the trash.' : 'No files attached yet.'}</p>
      )}
      {shown.length > 0 && (
        <ul className="divide-y rounded-lg border bg-card" aria-label="Attached files">
          {shown.map((file) => (
            <FileRow
              key={file.id}
              definition={definition}
              recordId={recordId}
              file={file}
              mayChange={canUpdate && !recordTrashed && online}
              actions={actions}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog {...actions.dialog} singular="File" display={actions.subject?.name ?? ''} />
    </HeadedSection>
  );
}

function UploadProgress({ upload }: { upload: Upload }) {
  const percent = Math.round(upload.sent * 100);
  return (
    <div className="space-y-1" aria-live="polite">
      <p className="truncate text-sm">
        Uploading {upload.name}… {percent}%
      </p>
      <div
        role="progressbar"
        aria-label={`Uploading ${upload.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

function FileRow({
  definition,
  recordId,
  file,
  mayChange,
  actions,
}: {
  definition: ResourceDefinition;
  recordId: number;
  file: AttachedFile;
  mayChange: boolean;
  actions: ReturnType<typeof useFileActions>;
}) {
  const trashed = file.deleted_at !== null;
  return (
    <li className="flex flex-wrap items-center gap-3 p-3">
      <Link
        to="/$resource/$recordId/files/$fileId"
        params={{ resource: definition.name, recordId: String(recordId), fileId: String(file.id) }}
        className="flex min-w-0 flex-1 basis-56 items-center gap-3 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <FileThumbnail definition={definition} recordId={recordId} file={file} size="thumbnail" />
        <span className="min-w-0">
          <span className="block truncate font-medium text-primary underline-offset-4 hover:underline">{file.name}</span>
          <span className="block text-sm text-muted-foreground">
            {formatFileSize(file.size)} · {file.uploaded_by_name ?? 'A former user'} · {formatTimestamp(file.created_at)}
          </span>
          {trashed && (
            <Badge variant="destructive" className="mt-1">
              In the trash
            </Badge>
          )}
        </span>
      </Link>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void actions.download(file)} aria-label={`Download ${file.name}`}>
          <Download aria-hidden /> Download
        </Button>
        {mayChange && !trashed && (
          <Button variant="outline" onClick={() => actions.ask('delete', file)} aria-label={`Delete ${file.name}`}>
            <Trash2 aria-hidden /> Delete
          </Button>
        )}
        {mayChange && trashed && (
          <>
            <Button variant="outline" onClick={() => actions.ask('restore', file)} aria-label={`Restore ${file.name}`}>
              <RotateCcw aria-hidden /> Restore
            </Button>
            <Button variant="destructive" onClick={() => actions.ask('force-delete', file)} aria-label={`Delete ${file.name} permanently`}>
              <Trash2 aria-hidden /> Delete Permanently
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
