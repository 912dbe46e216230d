import { useState } from 'react';
import { deferred } from '../ui/deferred';
import type { Confirmation } from './confirm-dialog-body';

export type { Confirmation };

interface ConfirmDialogProps {
  confirmation: Confirmation | null;
  singular: string;
  display: string;
  busy: boolean;
  onClose: () => void;
}

/**
 * Every destructive action asks first: "You're about to {action} this." / "Are you sure you want
 * to {action} {singular} {value}?" (confirm-dialog-body.tsx, loaded when first asked).
 */
export const ConfirmDialog = deferred<ConfirmDialogProps>(
  () => import('./confirm-dialog-body').then(({ ConfirmDialogBody }) => ConfirmDialogBody),
  ({ confirmation }) => confirmation !== null,
);

/**
 * What a screen asks before its actions: the confirmation asked (none while nothing is), whether
 * its action is running, and `dialog`, what `ConfirmDialog` takes of them (`onClose` asks nothing
 * any more).
 */
export function useConfirmation() {
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => setConfirmation(null);
  return { confirmation, setConfirmation, busy, setBusy, close, dialog: { confirmation, busy, onClose: close } };
}
