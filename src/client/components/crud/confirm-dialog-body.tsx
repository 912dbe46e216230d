import { AskDialog } from '../ui/ask-dialog';

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
    <AskDialog
      open={confirmation !== null}
      busy={busy}
      onStay={onClose}
      title={<>You&apos;re about to {confirmation?.action} this.</>}
      description={
        <>
          Are you sure you want to {confirmation?.action} {singular} {display}?
          {confirmation?.consequence && <span className="mt-2 block">{confirmation.consequence}</span>}
        </>
      }
      stay="Close"
      answers={[
        {
          label: confirmation?.confirmLabel ?? '',
          destructive: confirmation?.destructive,
          choose: () => void confirmation?.run(),
        },
      ]}
    />
  );
}
