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

export interface LeaveFormDialogProps {
  open: boolean;
  /** Stay on the form (also Escape, and a press outside). */
  onStay: () => void;
  /** Drop the draft, then leave. */
  onDiscard: () => void;
  /** Leave; the draft stays on the device. */
  onLeave: () => void;
}

/**
 * Asked when a form with changes not saved is left by a link or Back: "Leave this form?" with Stay,
 * Discard changes, and Leave (keep draft). Focus starts on Stay, so a stray Enter loses nothing.
 */
export function LeaveFormDialogBody({ open, onStay, onDiscard, onLeave }: LeaveFormDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && onStay()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Leave this form?</AlertDialogTitle>
          <AlertDialogDescription>Your changes are kept as a draft on this device.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Stay</AlertDialogCancel>
          {/* The dialog closes once the way is chosen, not before: the choice is the form's to carry out. */}
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={(event) => {
              event.preventDefault();
              onDiscard();
            }}
          >
            Discard changes
          </AlertDialogAction>
          <AlertDialogAction
            onClick={(event) => {
              event.preventDefault();
              onLeave();
            }}
          >
            Leave (keep draft)
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
