import { toast } from '../../lib/notify';
import type { ResourceDefinition } from '../../../domain/resource';
import { ApiError, describeError } from '../../lib/api';
import { discard, isClientKey, submitChange, type OutboxAction, type Settled } from '../../lib/outbox';
import { useActiveBusinessId } from '../../lib/session';
import { useConfirmation } from './confirm-dialog';

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

const REQUESTS: Record<RecordAction, { method: 'DELETE' | 'PATCH'; suffix: string }> = {
  delete: { method: 'DELETE', suffix: '' },
  restore: { method: 'PATCH', suffix: '/restore' },
  'force-delete': { method: 'DELETE', suffix: '/force-delete' },
};

/** Reports a failed change; a 500 in the product's fixed wording, never the server's internals. */
export function reportFailure(error: unknown): void {
  console.error(error);
  if (error instanceof ApiError && error.status >= 500) window.alert('Kindly report this issue to the devs.');
  else toast.error(describeError(error));
}

/** Says what became of a change: the success toast when the server took it, else that it waits on this device. */
export function reportSettled(settled: Settled<unknown>, success: string): void {
  if (settled.sent) toast.success(success);
  else toast.info(settled.message);
}

/**
 * What a confirmed change runs: busy while `work` goes, and a failure reported with the dialog
 * left open to try again. `work` closes the dialog itself, once the change is taken.
 */
export const whileBusy =
  (setBusy: (busy: boolean) => void, work: () => Promise<void>): (() => Promise<void>) =>
  async () => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

/** A step taken on a record (`PATCH /api/{resource}/{id}/{step}`): void, cancel, a count's finish or post … */
export interface RecordStep {
  /** The kind of change the outbox keeps it as: the transition, or `count` for what goes in order with a count's entries. */
  action: OutboxAction;
  step: string;
  body?: unknown;
  /** How Pending changes names it. */
  label: string;
}

/** Takes a step through the outbox and waits for it, then says what became of it (`success` once the server took it). */
export async function takeStep(
  businessId: number | null,
  definition: ResourceDefinition,
  recordId: number | string,
  { action, step, body, label }: RecordStep,
  success: string,
): Promise<void> {
  const settled = await submitChange({
    businessId,
    resource: definition.name,
    action,
    recordId,
    method: 'PATCH',
    path: `/api/${definition.name}/${String(recordId)}/${step}`,
    body,
    label,
  });
  reportSettled(settled, success);
}

/**
 * Delete, restore and permanent delete behind the confirmation dialog, through the outbox;
 * a success toast naming what was done, then `onDone` (the view screen goes back to the index). Deleting a
 * record created on this device that has not synced takes its create out of the outbox instead.
 */
export function useRecordActions(definition: ResourceDefinition, onDone: (action: RecordAction) => void) {
  const businessId = useActiveBusinessId();
  const confirming = useConfirmation();
  const { setConfirmation, setBusy } = confirming;

  const run = async (action: RecordAction, id: number | string, display: string) => {
    const words = ACTIONS[action];
    if (isClientKey(id)) {
      await discard(id);
      toast.success(`${definition.singular} ${display} will not be created: it was taken off this device before it synced.`);
      return;
    }
    const { method, suffix } = REQUESTS[action];
    const settled = await submitChange({
      businessId,
      resource: definition.name,
      action,
      recordId: id,
      method,
      path: `/api/${definition.name}/${id}${suffix}`,
      label: `${words.confirmLabel} ${definition.singular} ${display}`,
    });
    reportSettled(settled, `${definition.singular} ${words.done}`);
  };

  const ask = (action: RecordAction, id: number | string, display: string) => {
    const words = ACTIONS[action];
    setConfirmation({
      action: words.action,
      confirmLabel: words.confirmLabel,
      destructive: words.destructive,
      run: whileBusy(setBusy, async () => {
        await run(action, id, display);
        setConfirmation(null);
        onDone(action);
      }),
    });
  };

  return { ask, ...confirming };
}
