import { useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { PICKER_LIMIT } from '../../../domain/list-params';
import type { ResourceDefinition } from '../../../domain/resource';
import { describeError } from '../../lib/api';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { Input } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { quickSearchField } from './list-state';
import { PickerList, PickerNote, PickerOptions } from './picker-list';

/** The typed text reaches the server after this pause, not on every keystroke. */
const DEBOUNCE_MS = 350;
/** After leaving the box, the results stay long enough to be clicked. */
const CLOSE_AFTER_BLUR_MS = 250;

/** A record as a picker of `target` shows it: by its display field. */
export function displayOf(target: ResourceDefinition, record: ApiRecord): string {
  return String(record[target.display] ?? `#${record.id}`);
}

/** A record to pick from a list the screen already holds, rather than one the server searches. */
export interface Choice {
  id: number;
  name: string;
  /** Matched by the typed text too (a place's code). */
  code?: string;
}

/** The choices whose name or code holds the typed text, as records of `target`. */
export function matchingChoices(target: ResourceDefinition, choices: readonly Choice[], typed: string): ApiRecord[] {
  const term = typed.trim().toLowerCase();
  return choices
    .filter((choice) => term === '' || choice.name.toLowerCase().includes(term) || Boolean(choice.code?.toLowerCase().includes(term)))
    .slice(0, PICKER_LIMIT)
    .map((choice) => ({ id: choice.id, [target.display]: choice.name, deleted_at: null, version: 0 }));
}

/**
 * The records a search answered for earlier text that still show what is typed now: listed while
 * the typed text's own search is on its way, so nothing found for other text is offered, and a
 * record that stays listed stays where it was under the finger.
 */
export function stillMatching(target: ResourceDefinition, records: readonly ApiRecord[], typed: string): ApiRecord[] {
  const term = typed.trim().toLowerCase();
  return records.filter((record) => displayOf(target, record).toLowerCase().includes(term));
}

/**
 * The search-as-you-type picker: a text box whose dropdown lists up to 15 live records
 * of `target` matching the typed text, with a spinner while searching and "No Result" when
 * nothing matches. Arrow keys move, Enter picks, Escape closes; clearing the box clears the value.
 * Given `choices`, it picks among those alone (the places a user may use), matched on the device.
 */
export function ReferencePicker({
  id,
  target,
  value,
  display,
  onChange,
  required,
  invalid,
  describedBy,
  describe,
  filter,
  choices,
}: {
  id: string;
  target: ResourceDefinition;
  value: number | null;
  /** The chosen record's display, when known (from the record being edited). */
  display?: string | null;
  onChange: (id: number | null, record?: ApiRecord) => void;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
  /** A second line under each result (an item's SKU, price and stock). */
  describe?: (record: ApiRecord) => ReactNode;
  /** Searches the picker always adds (`{ contact_type_id: 2, is_strict: 1 }`: suppliers only). */
  filter?: Record<string, string | number>;
  /** The only records offered, in place of the server's search. */
  choices?: readonly Choice[];
}) {
  const businessId = useActiveBusinessId();
  const listId = useId();
  const [text, setText] = useState(display ?? (value ? `#${value}` : ''));
  const [term, setTerm] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const field = quickSearchField(target) ?? 'id';

  const [picked, setPicked] = useState<{ id: number; text: string } | null>(null);
  const chosen = display ?? (value && picked?.id === value ? picked.text : value ? `#${value}` : '');
  const [shown, setShown] = useState(chosen);
  // A new value from outside (a cleared form, a loaded record): the box shows it.
  if (chosen !== shown) {
    setShown(chosen);
    setText(chosen);
  }
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  const local = choices !== undefined;
  useEffect(() => {
    if (!open || local) return;
    const timer = setTimeout(() => {
      setTerm(text);
      setActive(0);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, open, local]);

  const queryClient = useQueryClient();
  /** The search of a term: items are found by barcode or SKU too, as a scanner or a clerk types them. */
  const searchOf = (searchedTerm: string) => {
    const searched = target.pickerSearch?.(searchedTerm) || { field, strict: false };
    return listQuery(businessId, target, {
      ...filter,
      limit: PICKER_LIMIT,
      [searched.field]: searchedTerm,
      is_strict: searched.strict ? 1 : undefined,
      order_by_field_name: target.sort.includes(searched.field)
        ? searched.field
        : target.sort.includes(target.display)
          ? target.display
          : 'id',
      order_by: 'asc',
    });
  };
  const results = useQuery({
    ...searchOf(term ?? ''),
    enabled: open && term !== null && !choices,
    // Until the typed text's answer comes, the last one — the same search of the same records, for other text.
    placeholderData: (previous, previousQuery) => {
      const [business, resource, , asked] = (previousQuery?.queryKey ?? []) as [unknown, unknown, unknown, Record<string, unknown>?];
      const same =
        business === businessId && resource === target.name && Object.entries(filter ?? {}).every(([key, value]) => asked?.[key] === value);
      return same ? previous : undefined;
    },
  });
  // The server's answer for the text as typed; until it comes, the earlier answer's records that still match.
  const answered = term === text && !results.isPlaceholderData;
  const found = results.data?.data ?? [];
  // Choices follow each keystroke, with no server to wait for; the chosen one's name lists them all.
  const rows = choices
    ? matchingChoices(target, choices, text === shown ? '' : text)
    : answered
      ? found
      : stillMatching(target, found, text);

  const choose = (record: ApiRecord) => {
    // Pickers list the server's records, whose ids are numbers.
    setPicked({ id: Number(record.id), text: displayOf(target, record) });
    onChange(Number(record.id), record);
    setText(displayOf(target, record));
    setOpen(false);
  };

  return (
    <div className="relative">
      <Input
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && rows[active] ? `${listId}-${rows[active].id}` : undefined}
        aria-required={required}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        autoComplete="off"
        value={text}
        placeholder={`Search ${target.plural.toLowerCase()}…`}
        className="pr-16"
        onFocus={() => {
          clearTimeout(closeTimer.current);
          setOpen(true);
          setTerm((current) => current ?? '');
        }}
        onBlur={() => {
          closeTimer.current = setTimeout(() => setOpen(false), CLOSE_AFTER_BLUR_MS);
        }}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
          if (event.target.value === '') onChange(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
            setActive((index) => Math.min(index + 1, Math.max(rows.length - 1, 0)));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((index) => Math.max(index - 1, 0));
          } else if (event.key === 'Enter') {
            // Enter picks; it never submits the form from a picker.
            event.preventDefault();
            if ((choices || answered) && rows[active]) choose(rows[active]);
            else if (!choices && text.trim() !== '' && !answered) {
              // Typed faster than the search follows: search what was typed now, and pick its first
              // result, never one listed for the text before the last keystrokes.
              const searchedText = text;
              const input = event.currentTarget;
              setTerm(searchedText);
              setActive(0);
              void queryClient
                .fetchQuery(searchOf(searchedText))
                .then((answer) => {
                  if (input.value === searchedText && answer.data[0]) choose(answer.data[0]);
                })
                .catch(() => undefined);
            }
          } else if (event.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      <div className="absolute inset-y-0 right-2 flex items-center gap-1">
        {results.isFetching && <Spinner />}
        {value !== null && !required && (
          <button
            type="button"
            className="inline-flex size-8 items-center justify-center rounded text-muted-foreground hover:text-foreground"
            aria-label={`Clear ${target.singular.toLowerCase()}`}
            // Not a Tab stop: Tab goes from the search to the next field; clearing the text clears the value.
            tabIndex={-1}
            onClick={() => {
              setText('');
              onChange(null);
            }}
          >
            <X className="size-4" aria-hidden />
          </button>
        )}
      </div>
      {open && term !== null && (
        <PickerList id={listId}>
          {results.error ? (
            <PickerNote failed>{describeError(results.error)}</PickerNote>
          ) : (
            <PickerOptions
              listId={listId}
              records={rows}
              active={active}
              settled={Boolean(choices) || (answered && results.isSuccess)}
              name={(record) => displayOf(target, record)}
              detail={describe}
              onHover={setActive}
              onChoose={choose}
            />
          )}
        </PickerList>
      )}
    </div>
  );
}
