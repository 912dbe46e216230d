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
