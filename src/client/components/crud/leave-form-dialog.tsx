import { AskDialog } from '../ui/ask-dialog';

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
 * The dialog closes once the way is chosen, not before: the choice is the form's to carry out.
 */
export function LeaveFormDialogBody({ open, onStay, onDiscard, onLeave }: LeaveFormDialogProps) {
  return (
    <AskDialog
      open={open}
      onStay={onStay}
      title="Leave this form?"
      description="Your changes are kept as a draft on this device."
      stay="Stay"
      answers={[
        { label: 'Discard changes', destructive: true, choose: onDiscard },
        { label: 'Leave (keep draft)', choose: onLeave },
      ]}
    />
  );
}
