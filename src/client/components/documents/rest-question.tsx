import { useId } from 'react';
import { LOST_REASONS } from '../../../domain/resources/stock-transfers';
import { shortOf, type ReceiveRows, type RestAnswer } from './receive-rows';
import { FieldMessages } from './field-messages';
import { LostRestFields } from './lost-rest-fields';

/** The two answers, each a row to tap: what it says, and what it does. */
const CHOICES = [
  {
    value: 'keep',
    label: 'Keep the rest in transit',
    hint: 'It may still come: it stays on its way, to be received later.',
  },
  {
    value: 'close',
    label: 'Close the rest as lost',
    hint: 'It will not come: it leaves transit as lost, and the transfer is closed short.',
  },
] as const;

/**
 * What became of what did not arrive, asked in a receive's form while its lines leave some of the
 * transfer on its way: the rest kept in transit, or closed as lost with a reason and a note (which
 * "Other" needs). Neither is chosen for the receiver. The server's messages show under their control.
 */
export function RestQuestion({
  value,
  onChange,
  errors,
}: {
  value: ReceiveRows;
  onChange: (answer: RestAnswer) => void;
  errors: Record<string, string[]>;
}) {
  const id = useId();
  const { answer } = value;
  const short = shortOf(value);
  const set = (changes: Partial<RestAnswer>) => onChange({ ...answer, ...changes });
  const restErrors = errors.rest ?? [];
  return (
    <fieldset
      className="space-y-3 rounded-lg border border-warning/60 bg-warning/10 p-3"
      aria-describedby={short.length > 0 ? `${id}-short` : undefined}
    >
      <legend className="px-1 font-medium">
        Not everything arrived: what of the rest? <span aria-hidden>*</span>
      </legend>
      {short.length > 0 && (
        <p id={`${id}-short`} className="text-sm text-muted-foreground">
          Still on its way: {short.map((owed) => `${owed.missing} × ${owed.name}`).join(', ')}.
        </p>
      )}
      <div className="grid gap-2 sm:grid-cols-2">
        {CHOICES.map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border bg-background px-3 py-2 has-[:checked]:border-primary has-[:checked]:ring-1 has-[:checked]:ring-primary"
          >
            <input
              type="radio"
              name={`${id}-rest`}
              value={choice.value}
              checked={answer.rest === choice.value}
              aria-labelledby={`${id}-${choice.value}`}
              aria-describedby={`${id}-${choice.value}-hint`}
              aria-invalid={restErrors.length > 0}
              className="size-5 shrink-0 accent-primary"
              onChange={() => set({ rest: choice.value })}
            />
            <span>
              <span id={`${id}-${choice.value}`} className="block font-medium">
                {choice.label}
              </span>
              <span id={`${id}-${choice.value}-hint`} className="block text-xs text-muted-foreground">
                {choice.hint}
              </span>
            </span>
          </label>
        ))}
      </div>
      <FieldMessages messages={restErrors} className="text-sm" />
      {answer.rest === 'close' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <LostRestFields
            id={id}
            reasons={LOST_REASONS}
            reason={answer.lost_reason}
            note={answer.lost_note}
            errors={{ reason: errors.lost_reason, note: errors.lost_note }}
            onReason={(reason) => set({ lost_reason: reason })}
            onNote={(note) => set({ lost_note: note })}
            messageClassName="text-sm"
          />
        </div>
      )}
    </fieldset>
  );
}
