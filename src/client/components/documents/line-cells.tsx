import type { KeyboardEvent } from 'react';
import type { SelectOption } from '../../../domain/fields';
import { OTHER_REASON } from '../../../domain/resources/stock-adjustments';
import { cn } from '../../lib/utils';
import { NativeOptions } from '../choices';
import { SmallLabel } from '../labelled-field';
import { Input } from '../ui/input';
import { NativeSelect } from '../ui/native-select';
import { FieldMessages } from './field-messages';

/**
 * The cells of a document line's editors (line-items.tsx, return-lines-editor.tsx): each a label,
 * its input at a finger's height, and the messages the server (or the form) has for it.
 */

/** A number typed on a phone's number pad: a quantity, a price, a discount. */
export function NumberCell({
  label,
  id,
  value,
  placeholder,
  messages,
  onChange,
  narrow,
  onKeyDown,
}: {
  label: string;
  id: string;
  value: string;
  placeholder?: string;
  messages: string[];
  onChange: (value: string) => void;
  narrow?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className={cn(narrow ? 'sm:col-span-1' : 'sm:col-span-2')}>
      <SmallLabel htmlFor={id}>{label}</SmallLabel>
      <Input
        id={id}
        inputMode="decimal"
        className="h-11 text-right tabular-nums"
        value={value}
        placeholder={placeholder}
        aria-invalid={messages.length > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <FieldMessages messages={messages} />
    </div>
  );
}

/** One of a few choices (a reason, what becomes of the goods); `prompt` is the option standing for none chosen yet. */
export function ChoiceCell({
  label,
  id,
  value,
  choices,
  prompt,
  messages,
  onChange,
  className,
}: {
  label: string;
  id: string;
  value: string | undefined;
  choices: readonly SelectOption[];
  prompt?: string;
  messages: string[];
  onChange: (value: string) => void;
  className: string;
}) {
  return (
    <div className={className}>
      <SmallLabel htmlFor={id}>{label}</SmallLabel>
      <NativeSelect
        id={id}
        className="h-11 w-full"
        value={value ?? ''}
        aria-invalid={messages.length > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <NativeOptions prompt={prompt} choices={choices} />
      </NativeSelect>
      <FieldMessages messages={messages} />
    </div>
  );
}

/** A line's note, across the whole line: required with the reason "other", which it explains. */
export function NoteCell({
  id,
  reason,
  value,
  messages,
  onChange,
  onKeyDown,
  className,
}: {
  id: string;
  reason: string | undefined;
  value: string | undefined;
  messages: string[];
  onChange: (value: string) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  className: string;
}) {
  return (
    <div className={className}>
      <SmallLabel htmlFor={id}>Note{reason === OTHER_REASON ? '' : ' (optional)'}</SmallLabel>
      <Input
        id={id}
        className="h-11"
        value={value ?? ''}
        maxLength={500}
        aria-invalid={messages.length > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <FieldMessages messages={messages} />
    </div>
  );
}
