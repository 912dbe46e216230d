import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './alert-dialog';
import { buttonVariants } from './button';

/** A way out of the question other than staying. */
export interface Answer {
  label: string;
  destructive?: boolean;
  choose: () => void;
  /**
   * The dialog closes the moment this is chosen. Otherwise it stays open for the choice to close
   * it once carried out, and stays open to try again when that fails.
   */
  closes?: boolean;
}

/**
 * Every question the app asks before it acts (a confirmation, leaving a form, logging out with
 * changes not sent, posting a count): a title, what it means, anything more to see, then staying
 * and the answers. Focus starts on staying, so a stray Enter does nothing. While `busy` nothing
 * can be chosen or closed, and the answers say "Working…".
 */
export function AskDialog({
  open,
  title,
  description,
  children,
  stay,
  answers,
  busy = false,
  onStay,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  /** Shown between the question and the answers (what posting a count will change). */
  children?: ReactNode;
  /** The button that closes the question and does nothing: "Close", "Stay", "Stay signed in". */
  stay: string;
  answers: readonly Answer[];
  busy?: boolean;
  /** Staying: the button, Escape or a press outside. */
  onStay: () => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(isOpen) => !isOpen && !busy && onStay()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>{stay}</AlertDialogCancel>
          {answers.map((answer) => (
            <AlertDialogAction
              key={answer.label}
              disabled={busy}
              className={answer.destructive ? buttonVariants({ variant: 'destructive' }) : undefined}
              onClick={(event) => {
                if (!answer.closes) event.preventDefault();
                answer.choose();
              }}
            >
              {busy ? 'Working…' : answer.label}
            </AlertDialogAction>
          ))}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
