import { deferred } from '../ui/deferred';

export interface Confirmation {
  /** Spoken in the sentence: "delete", "restore", "permanently delete", "reset the password of". */
  action: string;
  /** The confirm button: "Delete", "Restore", "Delete Permanently" … */
  confirmLabel: string;
  destructive: boolean;
  /** What it does beyond that, said under the question: "Its goods leave stock again …". */
  consequence?: string;
  run: () => Promise<void>;
}

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
