import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../ui/alert-dialog';
import { buttonVariants } from '../ui/button';

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

/** Every destructive action asks first: "You're about to {action} this." / "Are you sure you want to {action} {singular} {value}?" */
export function ConfirmDialogBody({
  confirmation,
  singular,
  display,
  busy,
  onClose,
}: {
  confirmation: Confirmation | null;
  singular: string;
  display: string;
  busy: boolean;
  onClose: () => void;
}) {
  return (
    <AlertDialog open={confirmation !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>You&apos;re about to {confirmation?.action} this.</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to {confirmation?.action} {singular} {display}?
            {confirmation?.consequence && <span className="mt-2 block">{confirmation.consequence}</span>}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Close</AlertDialogCancel>
          <AlertDialogAction
            disabled={busy}
            className={confirmation?.destructive ? buttonVariants({ variant: 'destructive' }) : undefined}
            onClick={(event) => {
              event.preventDefault();
              void confirmation?.run();
            }}
          >
            {busy ? 'Working…' : confirmation?.confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
