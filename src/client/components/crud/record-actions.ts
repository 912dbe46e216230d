import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { ResourceDefinition } from '../../../domain/resource';
import { api, ApiError, describeError } from '../../lib/api';
import { resourceKey } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import type { Confirmation } from './confirm-dialog';

export type RecordAction = 'delete' | 'restore' | 'force-delete';

const ACTIONS: Record<RecordAction, { action: string; confirmLabel: string; destructive: boolean; done: string }> = {
  delete: { action: 'delete', confirmLabel: 'Delete', destructive: true, done: 'deleted successfully.' },
  restore: { action: 'restore', confirmLabel: 'Restore', destructive: false, done: 'restored successfully.' },
  'force-delete': {
    action: 'permanently delete',
    confirmLabel: 'Delete Permanently',
    destructive: true,
    done: 'deleted permanently successfully.',
  },
};

function request(definition: ResourceDefinition, action: RecordAction, id: number) {
  const base = `/api/${definition.name}/${id}`;
  if (action === 'delete') return api('DELETE', base);
  if (action === 'restore') return api('PATCH', `${base}/restore`);
  return api('DELETE', `${base}/force-delete`);
}

/** Reports a failed change; a 500 as the spec words it. */
export function reportFailure(error: unknown): void {
  console.error(error);
  if (error instanceof ApiError && error.status >= 500) window.alert('Kindly report this issue to the devs.');
  else toast.error(describeError(error));
}

/**
 * Delete, restore and permanent delete behind the confirmation dialog; success toasts as in
 * spec 8, then `onDone` (the view screen goes back to the index; the list refreshes).
 */
export function useRecordActions(definition: ResourceDefinition, onDone: (action: RecordAction) => void) {
  const queryClient = useQueryClient();
  const businessId = useActiveBusinessId();
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = (action: RecordAction, id: number) => {
    const words = ACTIONS[action];
    setConfirmation({
      action: words.action,
      confirmLabel: words.confirmLabel,
      destructive: words.destructive,
      run: async () => {
        setBusy(true);
        try {
          await request(definition, action, id);
          toast.success(`${definition.singular} ${words.done}`);
          await queryClient.invalidateQueries({ queryKey: resourceKey(businessId, definition) });
          setConfirmation(null);
          onDone(action);
        } catch (error) {
          reportFailure(error);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return { ask, confirmation, busy, close: () => setConfirmation(null), setConfirmation, setBusy };
}
