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
import type { Confirmation } from './confirm-dialog';

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
