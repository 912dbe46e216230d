import { LOST_NOTE_MAX } from '../../../domain/resources/stock-transfers';
import type { Choice } from '../choices';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { NativeOptions, NativeSelect } from '../ui/native-select';
import { FieldMessages } from './field-messages';

/**
 * Why what did not arrive of a transfer is lost, and a note (which "Other" needs): the two fields
 * of closing a rest as lost, in a receive's form and in the transfer's own dialog. `id` starts the
 * fields' ids; the messages show under their field.
 */
export function LostRestFields({
  id,
  reasons,
  reason,
  note,
  errors,
  onReason,
  onNote,
  messageClassName,
}: {
  id: string;
  reasons: readonly Choice[];
  reason: string;
  note: string;
  errors: { reason?: string[]; note?: string[] };
  onReason: (reason: string) => void;
  onNote: (note: string) => void;
  messageClassName: string;
}) {
  return (
    <>
      <div>
        <Label htmlFor={`${id}-reason`} className="mb-1 block">
          Why it did not arrive <span aria-hidden>*</span>
        </Label>
        <NativeSelect
          id={`${id}-reason`}
          className="w-full"
          value={reason}
          aria-invalid={(errors.reason ?? []).length > 0}
          onChange={(event) => onReason(event.target.value)}
        >
          <NativeOptions prompt="Choose…" choices={reasons} />
        </NativeSelect>
        <FieldMessages messages={errors.reason} className={messageClassName} />
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
          onChange={(event) => onNote(event.target.value)}
        />
        <FieldMessages messages={errors.note} className={messageClassName} />
      </div>
    </>
  );
}
