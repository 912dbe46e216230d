import { useState } from 'react';
import { toast } from '../../lib/notify';
import type { AttachedFile } from '../../../domain/attachments';
import type { ResourceDefinition } from '../../../domain/resource';
import { api, saveFile } from '../../lib/api';
import { clientKey } from '../../lib/outbox';
import { useConfirmation, type Confirmation } from '../crud/confirm-dialog';
import { reportFailure } from '../crud/record-actions';
import { fetchFile, filesPath, useRefreshAfterFileChange } from './files-api';

export type FileAction = 'delete' | 'restore' | 'force-delete';

/** The spec's dialog and toast words (2.7, 8), with the request each action sends. */
const ACTIONS: Record<FileAction, Omit<Confirmation, 'run'> & { done: string; method: 'DELETE' | 'PATCH'; suffix: string }> = {
  delete: { action: 'delete', confirmLabel: 'Delete', destructive: true, done: 'deleted successfully.', method: 'DELETE', suffix: '' },
  restore: {
    action: 'restore',
    confirmLabel: 'Restore',
    destructive: false,
    done: 'restored successfully.',
    method: 'PATCH',
    suffix: '/restore',
  },
  'force-delete': {
    action: 'permanently delete',
    confirmLabel: 'Delete Permanently',
    destructive: true,
    done: 'deleted permanently successfully.',
    method: 'DELETE',
    suffix: '/force-delete',
  },
};

/**
 * Delete, restore and permanent delete of a record's files behind the confirmation dialog
 * ("Are you sure you want to delete File resibo.jpg?"), sent straight to the server — files are
 * never queued offline — then the files and the record's history refresh; and downloads.
 */
export function useFileActions(definition: ResourceDefinition, recordId: number | string, onDone?: (action: FileAction) => void) {
  const refresh = useRefreshAfterFileChange(definition, recordId);
  const confirming = useConfirmation();
  const { setConfirmation, setBusy } = confirming;
  const [subject, setSubject] = useState<AttachedFile | null>(null);

  const ask = (action: FileAction, file: AttachedFile) => {
    const { done, method, suffix, ...words } = ACTIONS[action];
    setSubject(file);
    setConfirmation({
      ...words,
      run: async () => {
        setBusy(true);
        try {
          await api(method, `${filesPath(definition.name, recordId)}/${file.id}${suffix}`, {
            headers: { 'Idempotency-Key': clientKey() },
          });
          toast.success(`File ${file.name} ${done}`);
          setConfirmation(null);
          await refresh();
          onDone?.(action);
        } catch (error) {
          reportFailure(error);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const download = async (file: AttachedFile) => {
    try {
      const { blob, filename } = await fetchFile(definition, recordId, file.id);
      saveFile(blob, filename ?? file.name);
    } catch (error) {
      reportFailure(error);
    }
  };

  return { ask, download, subject, ...confirming };
}
