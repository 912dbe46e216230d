import { useId, useState } from 'react';
import type { Transition, Undoing } from '../../../domain/lifecycle';
import { LOST_NOTE_MAX, lostRestErrors } from '../../../domain/resources/stock-transfers';
import { ApiError } from '../../lib/api';
import { reportFailure } from '../crud/record-actions';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';

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
          <div>
            <Label htmlFor={`${id}-reason`} className="mb-1 block">
              Why it did not arrive <span aria-hidden>*</span>
            </Label>
            <NativeSelect
              id={`${id}-reason`}
              className="w-full"
              value={reason}
              aria-invalid={(errors.reason ?? []).length > 0}
              onChange={(event) => setReason(event.target.value)}
            >
              <option value="">Choose…</option>
              {transition?.reasons.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
            <Messages messages={errors.reason} />
          </div>
          <div>
            <Label htmlFor={`${id}-note`} className="mb-1 block">
              Note{reason === 'other' ? '' : ' (optional)'}
            </Label>
            <Input
              id={`${id}-note`}
              className="h-11"
              value={note}
              maxLength={LOST_NOTE_MAX}
              aria-invalid={(errors.note ?? []).length > 0}
              onChange={(event) => setNote(event.target.value)}
            />
            <Messages messages={errors.note} />
          </div>
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

function Messages({ messages }: { messages: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return <p className="mt-1 text-sm text-destructive">{messages.join(' ')}</p>;
}
