import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * The list a search box opens under itself (a reference picker's, the count sheet's item box):
 * the box keeps the focus and names the choice the arrow keys are on (`aria-activedescendant`).
 */
export function PickerList({ id, label, children }: { id: string; label?: string; children: ReactNode }) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label={label}
      className="absolute z-50 mt-1 max-h-72 w-full overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
    >
      {children}
    </ul>
  );
}

/** What the list says in place of choices: "No Result", or why the search failed. */
export function PickerNote({ failed = false, children }: { failed?: boolean; children: ReactNode }) {
  return <li className={failed ? 'p-3 text-sm text-destructive' : 'p-3 text-sm text-muted-foreground'}>{children}</li>;
}

/**
 * One choice: its name, and below it what tells it apart (a SKU and barcode), when there is any.
 * Pressing it leaves the focus in the box, so the next key (or scan) types there.
 */
export function PickerOption({
  id,
  active,
  name,
  detail,
  onHover,
  onChoose,
}: {
  id: string;
  active: boolean;
  name: ReactNode;
  detail?: ReactNode;
  onHover: () => void;
  onChoose: () => void;
}) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      className={cn(
        'flex min-h-11 cursor-pointer flex-col justify-center rounded-sm px-3 py-1 text-sm',
        active && 'bg-accent text-accent-foreground',
      )}
      onMouseEnter={onHover}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onChoose}
    >
      <span>{name}</span>
      {detail !== undefined && <span className="text-xs text-muted-foreground">{detail}</span>}
    </li>
  );
}

/**
 * The choices of the list: `records` as the search found them, the one at `active` marked, each
 * with the id the box names as its active one (`{listId}-{record id}`). "No Result" for none, once
 * the search is `settled` (answered for the text in the box).
 */
export function PickerOptions<Found extends { id: number | string }>({
  listId,
  records,
  active,
  settled = true,
  name,
  detail,
  onHover,
  onChoose,
}: {
  listId: string;
  records: readonly Found[];
  active: number | null;
  settled?: boolean;
  name: (record: Found) => ReactNode;
  detail?: (record: Found) => ReactNode;
  onHover: (index: number) => void;
  onChoose: (record: Found) => void;
}) {
  if (records.length === 0) return settled ? <PickerNote>No Result</PickerNote> : null;
  return records.map((record, index) => (
    <PickerOption
      key={record.id}
      id={`${listId}-${record.id}`}
      active={index === active}
      name={name(record)}
      detail={detail?.(record)}
      onHover={() => onHover(index)}
      onChoose={() => onChoose(record)}
    />
  ));
}
