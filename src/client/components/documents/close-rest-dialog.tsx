import { useId, useState } from 'react';
import type { Transition, Undoing } from '../../../domain/lifecycle';
import { lostRestErrors } from '../../../domain/resources/stock-transfers';
import { ApiError } from '../../lib/api';
import { reportFailure } from '../crud/record-actions';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { LostRestFields } from './lost-rest-fields';

/** A transfer's rest to be closed as lost: its `close` transition, and the transfer. */
export interface Closing {
  transition: Undoing & { reasons: NonNullable<Transition['reasons']> };
  /** "Stock Transfer ST-…" */
  document: string;
  /** Sends it with the reason and note (through the outbox); a refusal comes back as the server's `ApiError`. */
  send: (body: { reason: string; note: string | null }) => Promise<void>;
}

/**
 * Closing what did not arrive of a transfer as lost, asked in a dialog: why (its transition's
 * reasons), a note (which "Other" needs), and what it undoes. Checked here by the server's own
 * rule (`lostRestErrors`), then sent; the server's messages show under their field.
 */
export function CloseRestDialog({ closing, onClose }: { closing: Closing | null; onClose: () => void }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const transition = closing?.transition;
  const label = transition?.label ?? '';

  const close = () => {
    if (busy) return;
    setReason('');
    setNote('');
    setErrors({});
    onClose();
  };
  const submit = async () => {
    if (!closing) return;
    const found = lostRestErrors(reason, note);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await closing.send({ reason, note: note.trim() || null });
      setBusy(false);
      setReason('');
      setNote('');
      onClose();
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else reportFailure(error);
    }
  };

  return (
    <Dialog open={closing !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{label}</DialogTitle>
            <DialogDescription>
              {closing?.document}: {transition?.reverses}
            </DialogDescription>
          </DialogHeader>
          <LostRestFields
            id={id}
            reasons={transition?.reasons ?? []}
            reason={reason}
            note={note}
            errors={errors}
            onReason={setReason}
            onNote={setNote}
            messageClassName="mt-1 text-sm"
          />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={busy} onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? 'Working…' : label}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
